import { useState } from "react";
import { FormDialog, useFormSave, useTouched } from "../../components/FormDialog.tsx";
import { TextField } from "../../primitives/TextField.tsx";
import { ComboBox, type ComboOption } from "../../primitives/ComboBox.tsx";
import { api, ApiError } from "../../lib/api.ts";
import { SubCategoryInput } from "../../../api/sales/sub_categories/schemas.ts";
import type { SubCategoryRow } from "./types.ts";
import { issuesOf } from "../../lib/form.ts";

/** The Product Line look-up (API.md): 20 product lines whose name contains the text. */
export const loadProductLines = (text: string, signal: AbortSignal) =>
  api<{ results: ComboOption[] }>("/api/sales/categories", {
    query: { model: "Product Line", search_name: text, rowsPerPage: 20 },
    signal,
  }).then((r) => r.results.map(({ id, name }) => ({ id, name })));

/**
 * New or edit sub product line (max width 500): Product Line and Name required, Notes optional
 * (spec). Messages show once a field has been visited; Save stays disabled while the form is invalid.
 */
export function SubCategoryForm({ sub, onClose, onSaved }: {
  sub: SubCategoryRow | null;
  onClose: () => void;
  onSaved: (message: string) => void;
}) {
  const [line, setLine] = useState<ComboOption | null>(sub?.category ?? null);
  const [name, setName] = useState(sub?.name ?? "");
  const [notes, setNotes] = useState(sub?.notes ?? "");
  const { setTouched, shownFrom } = useTouched();
  const { busy, errors: serverErrors, setErrors: setServerErrors, save } = useFormSave();

  const body = { ...(sub ? { id: sub.id } : {}), category_id: line?.id ?? null, name, notes };
  const check = SubCategoryInput.safeParse(body);
  const errors = issuesOf(check, { top: true });
  const shown = shownFrom(serverErrors, errors);
  const changed = (k: string) => {
    setTouched((t) => ({ ...t, [k]: true }));
    setServerErrors((e) => ({ ...e, [k]: "" }));
  };

  const submit = async () => {
    if (!check.success) return;
    await save(
      () =>
        api<{ message?: string }>("/api/sales/sub_categories", {
          method: sub ? "PUT" : "POST",
          json: body,
        }),
      onSaved,
      (byField, e) => {
        if (e instanceof ApiError && e.status === 409) byField.name ??= e.detail;
      },
    );
  };

  return (
    <FormDialog
      title={sub ? "Edit Sub Product Line" : "New Sub Product Line"}
      width={500}
      onClose={onClose}
      onSubmit={submit}
      canSubmit={check.success}
      busy={busy}
    >
      <ComboBox
        label="Product Line"
        selected={line}
        onChange={(v) => {
          setLine(v);
          changed("category_id");
        }}
        onBlur={() => setTouched((t) => ({ ...t, category_id: true }))}
        load={loadProductLines}
        error={shown("category_id")}
        isRequired
      />
      <TextField
        label="Name"
        value={name}
        onChange={(v) => {
          setName(v);
          changed("name");
        }}
        onBlur={() => setTouched((t) => ({ ...t, name: true }))}
        error={shown("name")}
        isRequired
      />
      <TextField
        label="Notes"
        value={notes}
        onChange={setNotes}
        error={shown("notes")}
        multiline
        rows={3}
      />
    </FormDialog>
  );
}
