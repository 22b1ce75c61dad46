import { FormDialog, useFormSave, useTouched } from "../../components/FormDialog.tsx";
import { TextField } from "../../primitives/TextField.tsx";
import { api, ApiError } from "../../lib/api.ts";
import { CategoryInput, locationProblems } from "../../../api/sales/categories/schemas.ts";
import { linesOf, type LocationLine, LocationsField, renamesOf } from "./LocationsField.tsx";
import type { CategoryPage, CategoryRow } from "./types.ts";
import { issuesOf } from "../../lib/form.ts";
import { useVersioned } from "../../lib/use_versioned.ts";

const LOCATION = /^custom\.locations\.(\d+)$/;

/**
 * A business unit's locations as one form value: the conflict dialog compares values by `id` (here the
 * names in order) and shows their `name` (the names listed), and the lines keep what each was stored as.
 */
const locationsValue = (lines: LocationLine[]) => {
  const names = lines.map((l) => l.name);
  return { id: JSON.stringify(names), name: names.join(", "), lines };
};

/** The form's values filled from a category (the conflict dialog compares these). */
const formValues = (category: CategoryRow | null | undefined) => ({
  name: category?.name ?? "",
  notes: category?.notes ?? "",
  locations: locationsValue(linesOf(category?.custom.locations ?? [])),
});
const LABELS = { name: "Name", notes: "Notes", locations: "Locations" };

/**
 * New or edit category of one model (max width 500): Name required, Notes optional (spec); a
 * business unit also edits its locations. Messages show once a field has been visited; Save stays
 * disabled while the form is invalid. An edit sends the record's version; a 412 opens the conflict
 * dialog (decision 038).
 */
export function CategoryForm({ page, category, onClose, onSaved }: {
  page: CategoryPage;
  category: CategoryRow | null;
  onClose: () => void;
  onSaved: (message: string) => void;
}) {
  const isUnit = page.model === "Business Unit";
  const edit = useVersioned(category, formValues, { labels: LABELS });
  const { name, notes, locations: { lines } } = edit.v;
  const setName = (name: string) => edit.setV((s) => ({ ...s, name }));
  const setNotes = (notes: string) => edit.setV((s) => ({ ...s, notes }));
  const setLines = (lines: LocationLine[]) => edit.setV((s) => ({ ...s, locations: locationsValue(lines) }));
  const { touch, shownFrom, revealAll } = useTouched();
  const { busy, errors: serverErrors, setErrors: setServerErrors, save } = useFormSave(edit);

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
          version: edit.version,
        }),
      onSaved,
      (byField, e) => {
        if (e instanceof ApiError && e.status === 409 && /name already exists/.test(e.detail)) {
          byField.name = e.detail;
        }
      },
    );
  };
  edit.onResend(submit);

  const locationErrors: Record<number, string | undefined> = {};
  lines.forEach((_, i) => (locationErrors[i] = shown(`custom.locations.${i}`)));

  return (
    <FormDialog
      title={`${category ? "Edit" : "New"} ${page.model}`}
      width={500}
      onClose={onClose}
      onSubmit={submit}
      onInvalidSubmit={revealAll}
      canSubmit={valid}
      busy={busy}
      versioned={edit}
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
