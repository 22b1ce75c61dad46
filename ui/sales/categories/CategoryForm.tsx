import { useState } from "react";
import { FormDialog, useFormSave, useTouched } from "../../components/FormDialog.tsx";
import { TextField } from "../../primitives/TextField.tsx";
import { api, ApiError } from "../../lib/api.ts";
import { CategoryInput, locationProblems } from "../../../api/sales/categories/schemas.ts";
import { linesOf, type LocationLine, LocationsField, renamesOf } from "./LocationsField.tsx";
import type { CategoryPage, CategoryRow } from "./types.ts";
import { issuesOf } from "../../lib/form.ts";

const LOCATION = /^custom\.locations\.(\d+)$/;

/**
 * New or edit category of one model (max width 500): Name required, Notes optional (spec); a
 * business unit also edits its locations. Messages show once a field has been visited; Save stays
 * disabled while the form is invalid.
 */
export function CategoryForm({ page, category, onClose, onSaved }: {
  page: CategoryPage;
  category: CategoryRow | null;
  onClose: () => void;
  onSaved: (message: string) => void;
}) {
  const isUnit = page.model === "Business Unit";
  const [name, setName] = useState(category?.name ?? "");
  const [notes, setNotes] = useState(category?.notes ?? "");
  const [lines, setLines] = useState<LocationLine[]>(() => linesOf(category?.custom.locations ?? []));
  const { touch, shownFrom } = useTouched();
  const { busy, errors: serverErrors, setErrors: setServerErrors, save } = useFormSave();

  const locations = lines.map((l) => l.name);
  const body = {
    ...(category ? { id: category.id } : {}),
    model: page.model,
    name,
    notes,
    ...(isUnit ? { custom: { locations }, location_renames: renamesOf(lines) } : {}),
  };
  const check = CategoryInput.safeParse(body);
  const errors = issuesOf(check);
  if (isUnit) { for (const p of locationProblems(locations)) errors[p.path] ??= p.message; }
  const valid = Object.keys(errors).length === 0;
  const shown = shownFrom(serverErrors, errors);

  const submit = async () => {
    if (!valid) return;
    await save(
      () =>
        api<{ message?: string }>("/api/sales/categories", {
          method: category ? "PUT" : "POST",
          json: body,
        }),
      onSaved,
      (byField, e) => {
        if (e instanceof ApiError && e.status === 409 && /name already exists/.test(e.detail)) {
          byField.name = e.detail;
        }
      },
    );
  };

  const locationErrors: Record<number, string | undefined> = {};
  lines.forEach((_, i) => (locationErrors[i] = shown(`custom.locations.${i}`)));

  return (
    <FormDialog
      title={`${category ? "Edit" : "New"} ${page.model}`}
      width={500}
      onClose={onClose}
      onSubmit={submit}
      canSubmit={valid}
      busy={busy}
    >
      <TextField
        label="Name"
        value={name}
        onChange={(v) => {
          setName(v);
          touch("name");
          setServerErrors((e) => ({ ...e, name: "" }));
        }}
        onBlur={() => touch("name")}
        error={shown("name")}
        isRequired
        autoFocus
      />
      <TextField
        label="Notes"
        value={notes}
        onChange={setNotes}
        error={shown("notes")}
        multiline
        rows={3}
      />
      {isUnit && (
        <LocationsField
          lines={lines}
          onChange={(next) => {
            setLines(next);
            // Indexes shift when a line goes: the server's messages no longer fit.
            setServerErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => !LOCATION.test(k))));
          }}
          errors={locationErrors}
          onBlur={(i) => touch(`custom.locations.${i}`)}
        />
      )}
    </FormDialog>
  );
}
