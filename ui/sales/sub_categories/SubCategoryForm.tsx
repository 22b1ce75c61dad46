import { FormDialog, useFormSave, useTouched } from "../../components/FormDialog.tsx";
import { TextField } from "../../primitives/TextField.tsx";
import { ComboBox, type ComboOption } from "../../primitives/ComboBox.tsx";
import { api, ApiError } from "../../lib/api.ts";
import { SubCategoryInput } from "../../../api/sales/sub_categories/schemas.ts";
import type { SubCategoryRow } from "./types.ts";
import { issuesOf } from "../../lib/form.ts";
import { useVersioned } from "../../lib/use_versioned.ts";

/** The Product Line look-up (API.md): 20 product lines whose name contains the text. */
export const loadProductLines = (text: string, signal: AbortSignal) =>
  api<{ results: ComboOption[] }>("/api/sales/categories", {
    query: { model: "Product Line", search_name: text, rowsPerPage: 20 },
    signal,
  }).then((r) => r.results.map(({ id, name }) => ({ id, name })));

/** The form's values filled from a sub product line (the conflict dialog compares these). */
const formValues = (sub: SubCategoryRow | null | undefined) => ({
  line: (sub?.category ?? null) as ComboOption | null,
  name: sub?.name ?? "",
  notes: sub?.notes ?? "",
});
const LABELS = { line: "Product Line", name: "Name", notes: "Notes" };

/**
 * New or edit sub product line (max width 500): Product Line and Name required, Notes optional
 * (spec). Messages show once a field has been visited; Save stays disabled while the form is invalid.
 * An edit sends the record's version; a 412 opens the conflict dialog (decision 038).
 */
export function SubCategoryForm({ sub, onClose, onSaved }: {
  sub: SubCategoryRow | null;
  onClose: () => void;
  onSaved: (message: string) => void;
}) {
  const edit = useVersioned(sub, formValues, { labels: LABELS });
  const { line, name, notes } = edit.v;
  const set = <K extends keyof typeof edit.v>(k: K) => (value: (typeof edit.v)[K]) =>
    edit.setV((s) => ({ ...s, [k]: value }));
  const { setTouched, shownFrom, revealAll } = useTouched();
  const { busy, errors: serverErrors, setErrors: setServerErrors, save } = useFormSave(edit);

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
          version: edit.version,
        }),
      onSaved,
      (byField, e) => {
        if (e instanceof ApiError && e.status === 409) byField.name ??= e.detail;
      },
    );
  };
  edit.onResend(submit);

  return (
    <FormDialog
      title={sub ? "Edit Sub Product Line" : "New Sub Product Line"}
      width={500}
      onClose={onClose}
      onSubmit={submit}
      onInvalidSubmit={revealAll}
      canSubmit={check.success}
      busy={busy}
      versioned={edit}
    >
      <ComboBox
        label="Product Line"
        selected={line}
        onChange={(v) => {
          set("line")(v);
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
          set("name")(v);
          changed("name");
        }}
        onBlur={() => setTouched((t) => ({ ...t, name: true }))}
        error={shown("name")}
        isRequired
      />
      <TextField
        label="Notes"
        value={notes}
        onChange={set("notes")}
        error={shown("notes")}
        multiline
        rows={3}
      />
    </FormDialog>
  );
}
