import { useState } from "react";
import { FormDialog, useFormSave, useTouched } from "../../components/FormDialog.tsx";
import { TextField } from "../../primitives/TextField.tsx";
import { ComboBox, type ComboOption } from "../../primitives/ComboBox.tsx";
import { api, ApiError } from "../../lib/api.ts";
import { JobInput } from "../../../api/pt/jobs/schemas.ts";
import type { JobRow } from "./types.ts";
import { useToday } from "../../lib/time_zone.tsx";
import { issuesOf } from "../../lib/form.ts";

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

function initial(job: JobRow | null, today: string): Record<Key, string> {
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
  const [values, setValues] = useState(() => initial(job, today));
  const [customer, setCustomer] = useState<ComboOption | null>(job?.customer_company ?? null);
  const [operator, setOperator] = useState<ComboOption | null>(job?.operator_company ?? null);
  const { touch, shownFrom } = useTouched();
  const { busy, errors: serverErrors, setErrors: setServerErrors, save } = useFormSave();

  const body = {
    ...(job ? { id: job.id } : {}),
    ...values,
    inspection_company_id: job?.inspection_company_id ?? company.id,
    customer_company_id: customer?.id ?? null,
    operator_company_id: operator?.id ?? null,
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
        }),
      onSaved,
      (byField, e) => {
        // A taken job number is a conflict, not a field error, but it belongs under Job Number.
        if (e instanceof ApiError && e.status === 409) byField.job_number ??= e.detail;
      },
    );
  };

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
      canSubmit={check.success}
      busy={busy}
    >
      <div className="form-grid">
        {BEFORE.map((f, i) => text(f, i === 0))}
        <ComboBox
          label="Customer"
          selected={customer}
          onChange={(c) => {
            setCustomer(c);
            changed("customer_company_id");
          }}
          onBlur={() => touch("customer_company_id")}
          load={loadCustomers}
          error={shown("customer_company_id")}
          isRequired
        />
        <ComboBox
          label="Operator"
          selected={operator}
          onChange={(c) => {
            setOperator(c);
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
