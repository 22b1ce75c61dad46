import { FormDialog, useFormSave, useTouched } from "../../components/FormDialog.tsx";
import { TextField } from "../../primitives/TextField.tsx";
import { Select } from "../../primitives/Select.tsx";
import { api } from "../../lib/api.ts";
import { COMPANY_TYPES, CompanyInput, SettingsInput } from "../../../api/admin/companies/schemas.ts";
import { COMPANY_TYPE_LABELS } from "../../../lib/enums.ts";
import type { CompanyRow } from "./types.ts";
import { issuesOf } from "../../lib/form.ts";
import { useVersioned } from "../../lib/use_versioned.ts";

const TYPE_OPTIONS = COMPANY_TYPES.map((t) => ({ id: t, label: COMPANY_TYPE_LABELS[t] }));
const LINES = ["address_line_1", "address_line_2", "address_line_3"] as const;

/**
 * The form's values as filled from a company. `other` is the rest of `custom` (not edited here, sent back
 * as it is): part of the values so a save after a conflict sends the record's current one.
 */
function initial(company: CompanyRow | null | undefined) {
  const { address_line_1, address_line_2, address_line_3, ...other } = company?.custom ?? {};
  const lines = { address_line_1, address_line_2, address_line_3 };
  return {
    name: company?.name ?? "",
    company_type: (company?.company_type ?? null) as string | null,
    ...Object.fromEntries(LINES.map((k) => [k, String(lines[k] ?? "")])) as Record<Line, string>,
    settings: JSON.stringify(company?.settings ?? {}, null, 2),
    other: other as Record<string, unknown>,
  };
}
type Line = (typeof LINES)[number];

/** The form's labels, for the conflict dialog. */
const LABELS: Record<string, string> = {
  company_type: "Company Type",
  address_line_1: "Address line 1",
  address_line_2: "Address line 2",
  address_line_3: "Address line 3",
  other: "Other details",
};

/**
 * The company form (new or edit): name, type, address lines, and for a superuser the settings JSON,
 * parsed on submit. Save stays disabled while a required field is empty. The settings live on the company
 * row, so they share its version: a stale save of either is refused (decision 038).
 */
export function CompanyForm({ company, canSettings, onClose, onSaved }: {
  company: CompanyRow | null;
  canSettings: boolean;
  onClose: () => void;
  onSaved: (message: string) => void;
}) {
  // The company's version goes with the save; a 412 opens the conflict dialog (decision 038).
  const edit = useVersioned(company, initial, { labels: LABELS });
  const { v, setV } = edit;
  const { name, company_type: type, settings } = v;
  const set = (k: keyof typeof v) => (value: string | null) => setV((s) => ({ ...s, [k]: value }));
  const { touch, shownFrom, revealAll } = useTouched();
  const { busy, errors, setErrors, save } = useFormSave(edit);

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
      custom: { ...v.other, ...Object.fromEntries(LINES.map((k) => [k, v[k]])) },
      ...(parsedSettings ? { settings: parsedSettings } : {}),
    };
    await save(
      () =>
        api<{ message?: string }>("/api/companies", {
          method: company ? "PATCH" : "POST",
          json: body,
          version: edit.version,
        }),
      onSaved,
    );
  };
  edit.onResend(submit);

  return (
    <FormDialog
      title={company ? "Edit Company" : "New Company"}
      width={750}
      onClose={onClose}
      onSubmit={submit}
      onInvalidSubmit={revealAll}
      canSubmit={check.success}
      busy={busy}
      versioned={edit}
    >
      <div className="form-grid">
        <TextField
          label="Name"
          value={name}
          onChange={(v) => {
            set("name")(v);
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
            set("company_type")(v);
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
          value={v[k]}
          onChange={set(k)}
          error={errors[`custom.${k}`]}
        />
      ))}
      {canSettings && (
        <TextField
          label="Settings"
          multiline="code"
          rows={10}
          value={settings}
          onChange={(text) => {
            set("settings")(text);
            setErrors((e) => ({ ...e, settings: "" }));
          }}
          error={errors.settings}
        />
      )}
    </FormDialog>
  );
}
