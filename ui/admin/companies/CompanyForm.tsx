import { useState } from "react";
import { FormDialog, useFormSave, useTouched } from "../../components/FormDialog.tsx";
import { TextField } from "../../primitives/TextField.tsx";
import { Select } from "../../primitives/Select.tsx";
import { api } from "../../lib/api.ts";
import { COMPANY_TYPES, CompanyInput, SettingsInput } from "../../../api/admin/companies/schemas.ts";
import { COMPANY_TYPE_LABELS } from "../../../lib/enums.ts";
import type { CompanyRow } from "./types.ts";
import { issuesOf } from "../../lib/form.ts";

const TYPE_OPTIONS = COMPANY_TYPES.map((t) => ({ id: t, label: COMPANY_TYPE_LABELS[t] }));
const LINES = ["address_line_1", "address_line_2", "address_line_3"] as const;

/**
 * The company form (new or edit): name, type, address lines, and for a superuser the settings JSON,
 * parsed on submit. Save stays disabled while a required field is empty.
 */
export function CompanyForm({ company, canSettings, onClose, onSaved }: {
  company: CompanyRow | null;
  canSettings: boolean;
  onClose: () => void;
  onSaved: (message: string) => void;
}) {
  const [name, setName] = useState(company?.name ?? "");
  const [type, setType] = useState<string | null>(company?.company_type ?? null);
  const [lines, setLines] = useState(() =>
    Object.fromEntries(LINES.map((k) => [k, String(company?.custom?.[k] ?? "")])) as Record<string, string>
  );
  const [settings, setSettings] = useState(JSON.stringify(company?.settings ?? {}, null, 2));
  const { touch, shownFrom } = useTouched();
  const { busy, errors, setErrors, save } = useFormSave();

  const check = CompanyInput.safeParse({ name, company_type: type ?? undefined });
  const issues = issuesOf(check, { top: true });
  const shown = shownFrom(errors, issues);

  const submit = async () => {
    let parsedSettings: Record<string, unknown> | undefined;
    if (canSettings) {
      const s = SettingsInput.safeParse(settings);
      if (!s.success) {
        setErrors((e) => ({ ...e, settings: s.error.issues[0].message }));
        return;
      }
      parsedSettings = s.data;
    }
    if (!check.success) return;
    const body = {
      ...(company ? { id: company.id } : {}),
      name,
      company_type: type,
      custom: { ...company?.custom, ...lines },
      ...(parsedSettings ? { settings: parsedSettings } : {}),
    };
    await save(
      () => api<{ message?: string }>("/api/companies", { method: company ? "PATCH" : "POST", json: body }),
      onSaved,
    );
  };

  return (
    <FormDialog
      title={company ? "Edit Company" : "New Company"}
      width={750}
      onClose={onClose}
      onSubmit={submit}
      canSubmit={check.success}
      busy={busy}
    >
      <div className="form-grid">
        <TextField
          label="Name"
          value={name}
          onChange={(v) => {
            setName(v);
            touch("name");
            setErrors((e) => ({ ...e, name: "" }));
          }}
          onBlur={() => touch("name")}
          error={shown("name")}
          isRequired
          autoFocus
        />
        <Select
          label="Company Type"
          options={TYPE_OPTIONS}
          value={type}
          onChange={(v) => {
            setType(v);
            touch("company_type");
            setErrors((e) => ({ ...e, company_type: "" }));
          }}
          onBlur={() => touch("company_type")}
          error={shown("company_type")}
          isRequired
        />
      </div>
      {LINES.map((k, i) => (
        <TextField
          key={k}
          label={`Address line ${i + 1}`}
          value={lines[k]}
          onChange={(v) => setLines((l) => ({ ...l, [k]: v }))}
          error={errors[`custom.${k}`]}
        />
      ))}
      {canSettings && (
        <TextField
          label="Settings"
          multiline="code"
          rows={10}
          value={settings}
          onChange={(v) => {
            setSettings(v);
            setErrors((e) => ({ ...e, settings: "" }));
          }}
          error={errors.settings}
        />
      )}
    </FormDialog>
  );
}
