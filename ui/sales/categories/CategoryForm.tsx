import { useState } from "react";
import { Button, Form } from "react-aria-components";
import { Dialog } from "../../primitives/Dialog.tsx";
import { TextField } from "../../primitives/TextField.tsx";
import { api, ApiError, fieldErrors } from "../../lib/api.ts";
import { showError } from "../../lib/events.ts";
import { CategoryInput, locationProblems } from "../../../api/sales/categories/schemas.ts";
import { linesOf, type LocationLine, LocationsField, renamesOf } from "./LocationsField.tsx";
import type { CategoryPage, CategoryRow } from "./types.ts";

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
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  const locations = lines.map((l) => l.name);
  const body = {
    ...(category ? { id: category.id } : {}),
    model: page.model,
    name,
    notes,
    ...(isUnit ? { custom: { locations }, location_renames: renamesOf(lines) } : {}),
  };
  const errors: Record<string, string> = {};
  const check = CategoryInput.safeParse(body);
  if (!check.success) { for (const i of check.error.issues) errors[i.path.join(".")] ??= i.message; }
  if (isUnit) { for (const p of locationProblems(locations)) errors[p.path] ??= p.message; }
  const valid = Object.keys(errors).length === 0;
  const shown = (k: string) => serverErrors[k] || (touched[k] ? errors[k] : undefined);
  const touch = (k: string) => setTouched((t) => ({ ...t, [k]: true }));

  const submit = async () => {
    if (!valid) return;
    setBusy(true);
    try {
      const saved = await api<{ message?: string }>("/api/sales/categories", {
        method: category ? "PUT" : "POST",
        json: body,
      });
      onSaved(saved.message ?? "Success");
    } catch (e) {
      const byField = fieldErrors(e);
      if (e instanceof ApiError && e.status === 409 && /name already exists/.test(e.detail)) {
        byField.name = e.detail;
      }
      setServerErrors(byField);
      showError(e);
    } finally {
      setBusy(false);
    }
  };

  const locationErrors: Record<number, string | undefined> = {};
  lines.forEach((_, i) => (locationErrors[i] = shown(`custom.locations.${i}`)));

  return (
    <Dialog title={`${category ? "Edit" : "New"} ${page.model}`} isOpen onClose={onClose} width={500}>
      <Form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
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
              setServerErrors((e) =>
                Object.fromEntries(Object.entries(e).filter(([k]) => !LOCATION.test(k)))
              );
            }}
            errors={locationErrors}
            onBlur={(i) => touch(`custom.locations.${i}`)}
          />
        )}
        <div className="dialog-actions">
          <Button className="btn" onPress={onClose}>Cancel</Button>
          <Button type="submit" className="btn btn-primary" isDisabled={busy || !valid}>Save</Button>
        </div>
      </Form>
    </Dialog>
  );
}
