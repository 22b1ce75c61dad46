import { FormDialog, useFormSave } from "../../components/FormDialog.tsx";
import { TextField } from "../../primitives/TextField.tsx";
import { api } from "../../lib/api.ts";
import { PartInput } from "../../../api/pt/parts/schemas.ts";
import type { PartRow } from "./types.ts";
import { issuesOf } from "../../lib/form.ts";
import { useVersioned } from "../../lib/use_versioned.ts";

const FIELDS = [
  { key: "name", label: "Part Name" },
  { key: "description", label: "Part Desc.", multiline: true },
  { key: "manufacturer", label: "Manufacturer" },
] as const;
type Key = (typeof FIELDS)[number]["key"];
const LABELS: Record<string, string> = Object.fromEntries(FIELDS.map((f) => [f.key, f.label]));

/** The part form (new or edit): no field is required (spec); only the length caps are checked. */
export function PartForm({ part, onClose, onSaved }: {
  part: PartRow | null;
  onClose: () => void;
  onSaved: (message: string) => void;
}) {
  // The part's version goes with the save; a 412 opens the conflict dialog (decision 038).
  const edit = useVersioned(part, (p): Record<Key, string> => ({
    name: p?.name ?? "",
    description: p?.description ?? "",
    manufacturer: p?.manufacturer ?? "",
  }), { labels: LABELS });
  const { v: values, setV: setValues } = edit;
  const { busy, errors, setErrors, save } = useFormSave(edit);

  const check = PartInput.safeParse(values);
  const issues = issuesOf(check, { top: true });

  const submit = async () => {
    if (!check.success) return;
    await save(() =>
      api<{ message?: string }>("/api/pt/parts", {
        method: part ? "PATCH" : "POST",
        json: { ...(part ? { id: part.id } : {}), ...values },
        version: edit.version,
      }), onSaved);
  };
  edit.onResend(submit);

  return (
    <FormDialog
      title={part ? "Edit Part" : "New Part"}
      width={500}
      onClose={onClose}
      onSubmit={submit}
      canSubmit={check.success}
      // Its messages show as typed; Save (or Enter) on a bad value says so instead of doing nothing.
      onInvalidSubmit={() => {}}
      busy={busy}
      versioned={edit}
    >
      {FIELDS.map((f, i) => (
        <TextField
          key={f.key}
          label={f.label}
          value={values[f.key]}
          onChange={(v) => {
            setValues((s) => ({ ...s, [f.key]: v }));
            setErrors((e) => ({ ...e, [f.key]: "" }));
          }}
          error={errors[f.key] || issues[f.key]}
          multiline={"multiline" in f}
          rows={3}
          autoFocus={i === 0}
        />
      ))}
    </FormDialog>
  );
}
