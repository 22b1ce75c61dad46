import { FormDialog, useFormSave } from "../../components/FormDialog.tsx";
import { TextField } from "../../primitives/TextField.tsx";
import { api } from "../../lib/api.ts";
import { sumRates, TaxInput } from "../../../api/sales/taxes/schemas.ts";
import { formatPercent } from "../../../lib/format.ts";
import type { TaxRow } from "./types.ts";
import { issuesOf } from "../../lib/form.ts";
import { useVersioned } from "../../lib/use_versioned.ts";

const TEXT = [
  { key: "name", label: "Name" },
  { key: "state", label: "State" },
  { key: "county", label: "County" },
  { key: "city", label: "City" },
] as const;
const RATES = [
  { key: "state_rate", label: "State Rate (%)" },
  { key: "county_rate", label: "County Rate (%)" },
  { key: "city_rate", label: "City Rate (%)" },
] as const;
type Key = (typeof TEXT)[number]["key"] | (typeof RATES)[number]["key"] | "notes";

const rateText = (n: number | null | undefined) => (n === null || n === undefined ? "" : String(n));

/** The form's values filled from a tax (the conflict dialog compares these). */
const formValues = (tax: TaxRow | null | undefined): Record<Key, string> => ({
  name: tax?.name ?? "",
  state: tax?.state ?? "",
  county: tax?.county ?? "",
  city: tax?.city ?? "",
  state_rate: rateText(tax?.state_rate),
  county_rate: rateText(tax?.county_rate),
  city_rate: rateText(tax?.city_rate),
  notes: tax?.notes ?? "",
});
const LABELS: Record<string, string> = {
  ...Object.fromEntries([...TEXT, ...RATES].map((f) => [f.key, f.label])),
  notes: "Notes",
};

/**
 * New or edit tax (max width 500). No field is required (spec); the rates must be numbers from 0 to
 * 100, and Save stays disabled until they are. The combined rate is the sum, which the server stores.
 * An edit sends the tax's version; a 412 opens the conflict dialog (decision 038).
 */
export function TaxForm({ tax, onClose, onSaved }: {
  tax: TaxRow | null;
  onClose: () => void;
  onSaved: (message: string) => void;
}) {
  const edit = useVersioned(tax, formValues, { labels: LABELS });
  const { v: values, setV: setValues } = edit;
  const { busy, errors: serverErrors, setErrors: setServerErrors, save } = useFormSave(edit);

  // The form shows the sum of the three rates and saves it (rate null: the server sums).
  const body = { ...(tax ? { id: tax.id } : {}), ...values, rate: null };
  const check = TaxInput.safeParse(body);
  const issues = issuesOf(check, { top: true });
  const total = check.success ? sumRates(check.data) : null;

  const submit = async () => {
    if (!check.success) return;
    await save(() =>
      api<{ message?: string }>("/api/sales/taxes", {
        method: tax ? "PUT" : "POST",
        json: body,
        version: edit.version,
      }), onSaved);
  };
  edit.onResend(submit);

  const field = (f: { key: Key; label: string }, autoFocus = false) => (
    <TextField
      key={f.key}
      label={f.label}
      value={values[f.key]}
      onChange={(v) => {
        setValues((s) => ({ ...s, [f.key]: v }));
        setServerErrors((e) => ({ ...e, [f.key]: "" }));
      }}
      error={serverErrors[f.key] || issues[f.key]}
      autoFocus={autoFocus}
    />
  );

  return (
    <FormDialog
      title={tax ? "Edit Tax" : "New Tax"}
      width={500}
      onClose={onClose}
      onSubmit={submit}
      canSubmit={check.success}
      // Its messages show as typed; Save (or Enter) on a bad value says so instead of doing nothing.
      onInvalidSubmit={() => {}}
      busy={busy}
      versioned={edit}
    >
      {field(TEXT[0], true)}
      <div className="form-grid form-grid-narrow">{TEXT.slice(1).map((f) => field(f))}</div>
      <div className="form-grid form-grid-narrow">{RATES.map((f) => field(f))}</div>
      <p className="field-note" aria-live="polite">Rate: {formatPercent(total ?? 0)}</p>
      <TextField
        label="Notes"
        value={values.notes}
        onChange={(v) => setValues((s) => ({ ...s, notes: v }))}
        error={serverErrors.notes || issues.notes}
        multiline
        rows={3}
      />
    </FormDialog>
  );
}
