import { useState } from "react";
import { FormDialog, useFormSave } from "../../components/FormDialog.tsx";
import { TextField } from "../../primitives/TextField.tsx";
import { api } from "../../lib/api.ts";
import { PartInput } from "../../../api/pt/parts/schemas.ts";
import type { PartRow } from "./types.ts";
import { issuesOf } from "../../lib/form.ts";

const FIELDS = [
  { key: "name", label: "Part Name" },
  { key: "description", label: "Part Desc.", multiline: true },
  { key: "manufacturer", label: "Manufacturer" },
] as const;
type Key = (typeof FIELDS)[number]["key"];

/** The part form (new or edit): no field is required (spec); only the length caps are checked. */
export function PartForm({ part, onClose, onSaved }: {
  part: PartRow | null;
  onClose: () => void;
  onSaved: (message: string) => void;
}) {
  const [values, setValues] = useState<Record<Key, string>>({
    name: part?.name ?? "",
    description: part?.description ?? "",
    manufacturer: part?.manufacturer ?? "",
  });
  const { busy, errors, setErrors, save } = useFormSave();

  const check = PartInput.safeParse(values);
  const issues = issuesOf(check, { top: true });

  const submit = async () => {
    if (!check.success) return;
    await save(() =>
      api<{ message?: string }>("/api/pt/parts", {
        method: part ? "PATCH" : "POST",
        json: { ...(part ? { id: part.id } : {}), ...values },
      }), onSaved);
  };

  return (
    <FormDialog
      title={part ? "Edit Part" : "New Part"}
      width={500}
      onClose={onClose}
      onSubmit={submit}
      canSubmit={check.success}
      busy={busy}
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
