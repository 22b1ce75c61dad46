import { FormDialog, useFormSave, useTouched } from "../../components/FormDialog.tsx";
import { TextField } from "../../primitives/TextField.tsx";
import { ComboBox, type ComboOption } from "../../primitives/ComboBox.tsx";
import { api, ApiError } from "../../lib/api.ts";
import { JobInput } from "../../../api/pt/jobs/schemas.ts";
import type { JobRow } from "./types.ts";
import { useToday } from "../../lib/time_zone.tsx";
import { issuesOf } from "../../lib/form.ts";
import { useVersioned } from "../../lib/use_versioned.ts";

type Key =
  | "date"
  | "job_number"
  | "district"
  | "inspector"
  | "uv_serial_number"
  | "uv_recalibration_date"
  | "blacklight_reading"
  | "ut_serial_number"
  | "ut_recalibration_date"
  | "comments";

/** The text fields in the order of the form, after the Customer and Operator autocompletes. */
const BEFORE: { key: Key; label: string; type?: "date" }[] = [
  { key: "date", label: "Date", type: "date" },
  { key: "job_number", label: "Job Number" },
];
const AFTER: { key: Key; label: string; type?: "date" }[] = [
  { key: "district", label: "District" },
  { key: "inspector", label: "Inspector" },
  { key: "uv_serial_number", label: "UV Serial Number" },
  { key: "uv_recalibration_date", label: "UV Recalibration Date", type: "date" },
  { key: "blacklight_reading", label: "Blacklight Reading" },
  { key: "ut_serial_number", label: "UT Serial Number" },
  { key: "ut_recalibration_date", label: "UT Recalibration Date", type: "date" },
];

const companySearch =
  (type: "customer_company" | "operator_company") => (text: string, signal: AbortSignal) =>
    api<{ results: ComboOption[] }>("/api/companies", { query: { type, search_name: text }, signal })
      .then((r) => r.results.map(({ id, name }) => ({ id, name })));
const loadCustomers = companySearch("customer_company");
const loadOperators = companySearch("operator_company");

type Values = Record<Key, string> & {
  customer_company_id: ComboOption | null;
  operator_company_id: ComboOption | null;
};

/** The form's labels, for the conflict dialog. */
const LABELS: Record<string, string> = {
  ...Object.fromEntries([...BEFORE, ...AFTER].map((f) => [f.key, f.label])),
  customer_company_id: "Customer",
  operator_company_id: "Operator",
  comments: "Comments",
};

function initial(job: JobRow | null | undefined, today: string): Values {
  return {
    date: job?.date ?? today,
    job_number: job?.job_number ?? "",
    district: job?.district ?? "",
    inspector: job?.inspector ?? "",
    uv_serial_number: job?.uv_serial_number ?? "",
    uv_recalibration_date: job?.uv_recalibration_date ?? "",
    blacklight_reading: job?.blacklight_reading ?? "",
    ut_serial_number: job?.ut_serial_number ?? "",
    ut_recalibration_date: job?.ut_recalibration_date ?? "",
    comments: job?.comments ?? "",
    customer_company_id: job?.customer_company ?? null,
    operator_company_id: job?.operator_company ?? null,
  };
}

/**
 * New or edit job (max width 800). The messages are JobInput's (the spec's 'Required', 'Customer is
 * required', 'Operator is required'), shown once a field has been visited; Save stays disabled while
 * the form is invalid. The inspection company is always the user's own, shown read-only.
 */
export function JobForm({ job, company, onClose, onSaved }: {
  job: JobRow | null;
  company: { id: number; name: string };
  onClose: () => void;
  onSaved: (message: string) => void;
}) {
  const today = useToday();
  // The job's version goes with the save; a 412 opens the conflict dialog (decision 038).
  const edit = useVersioned(job, (j) => initial(j, today), { labels: LABELS });
  const { v: values, setV: setValues } = edit;
  const { touch, shownFrom, revealAll } = useTouched();
  const { busy, errors: serverErrors, setErrors: setServerErrors, save } = useFormSave(edit);

  const body = {
    ...(job ? { id: job.id } : {}),
    ...values,
    inspection_company_id: job?.inspection_company_id ?? company.id,
    customer_company_id: values.customer_company_id?.id ?? null,
    operator_company_id: values.operator_company_id?.id ?? null,
  };
  const check = JobInput.safeParse(body);
  const errors = issuesOf(check, { top: true });
  const shown = shownFrom(serverErrors, errors);
  const changed = (k: string) => {
    touch(k);
    setServerErrors((e) => ({ ...e, [k]: "" }));
  };

  const submit = async () => {
    if (!check.success) return;
    await save(
      () =>
        api<{ message?: string }>("/api/pt/jobs", {
          method: job ? "PATCH" : "POST",
          json: body,
          version: edit.version,
        }),
      onSaved,
      (byField, e) => {
        // A taken job number is a conflict, not a field error, but it belongs under Job Number.
        if (e instanceof ApiError && e.status === 409) byField.job_number ??= e.detail;
      },
    );
  };
  edit.onResend(submit);

  const text = (f: { key: Key; label: string; type?: "date" }, autoFocus = false) => (
    <TextField
      key={f.key}
      label={f.label}
      type={f.type ?? "text"}
      value={values[f.key]}
      onChange={(v) => {
        setValues((s) => ({ ...s, [f.key]: v }));
        changed(f.key);
      }}
      onBlur={() => touch(f.key)}
      error={shown(f.key)}
      isRequired
      autoFocus={autoFocus}
    />
  );

  return (
    <FormDialog
      title={job ? "Edit Job" : "New Job"}
      width={800}
      onClose={onClose}
      onSubmit={submit}
      onInvalidSubmit={revealAll}
      canSubmit={check.success}
      busy={busy}
      versioned={edit}
    >
      <div className="form-grid">
        {BEFORE.map((f, i) => text(f, i === 0))}
        <ComboBox
          label="Customer"
          selected={values.customer_company_id}
          onChange={(c) => {
            setValues((s) => ({ ...s, customer_company_id: c }));
            changed("customer_company_id");
          }}
          onBlur={() => touch("customer_company_id")}
          load={loadCustomers}
          error={shown("customer_company_id")}
          isRequired
        />
        <ComboBox
          label="Operator"
          selected={values.operator_company_id}
          onChange={(c) => {
            setValues((s) => ({ ...s, operator_company_id: c }));
            changed("operator_company_id");
          }}
          onBlur={() => touch("operator_company_id")}
          load={loadOperators}
          error={shown("operator_company_id")}
          isRequired
        />
        {AFTER.map((f) => text(f))}
        <TextField
          label="Inspection Company"
          value={job?.inspection_company.name ?? company.name}
          onChange={() => {}}
          isDisabled
        />
      </div>
      <TextField
        label="Comments"
        value={values.comments}
        onChange={(v) => {
          setValues((s) => ({ ...s, comments: v }));
          changed("comments");
        }}
        onBlur={() => touch("comments")}
        error={shown("comments")}
        multiline
        rows={3}
        isRequired
      />
    </FormDialog>
  );
}
