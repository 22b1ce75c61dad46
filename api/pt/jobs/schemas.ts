import { z } from "zod";
import { ListQuery, optionalText, queryEnum } from "../../lib/list_schema.ts";
import { customObject, id } from "../../lib/validate.ts";

// Pure zod: the job form's island imports this file, so no drizzle and no server-only modules here.

export const JOB_SORTS = ["date", "job_number", "customer", "operator", "district", "inspector"] as const;
export type JobSort = (typeof JOB_SORTS)[number];

/** `YYYY-MM-DD` naming a day that exists (no 2024-02-30). */
export function isRealDate(v: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  if (!m) return false;
  const d = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3]));
  return d.toISOString().slice(0, 10) === v;
}

/** A required date of the job form: 'Required' when empty, 'Invalid date' when not a real YYYY-MM-DD. */
const formDate = z.string({ error: "Required" }).trim().min(1, "Required")
  .refine((v) => v === "" || isRealDate(v), "Invalid date");

const required = (max: number) =>
  z.string({ error: "Required" }).trim().min(1, "Required").max(max, `At most ${max} characters`);

/** A company id of the form: blank, null or not a positive integer all mean "not chosen". */
const companyId = (message: string) =>
  z.preprocess(
    (v) => (v === "" || v === null ? undefined : v),
    id(message, { coerce: true }),
  );

/** The job form (POST /api/pt/jobs creates, or updates with an id). */
export const JobInput = z.object({
  id: id("Unknown job", { coerce: true }).optional(),
  date: formDate,
  job_number: required(100),
  district: required(200),
  inspector: required(200),
  uv_serial_number: required(100),
  uv_recalibration_date: formDate,
  blacklight_reading: required(100),
  ut_serial_number: required(100),
  ut_recalibration_date: formDate,
  comments: required(4000),
  /** Absent on an update: left as stored. */
  custom: customObject().optional(),
  /** Defaults to the signed-in user's company, which is the only one allowed. */
  inspection_company_id: z.preprocess(
    (v) => (v === "" || v === null ? undefined : v),
    id("Unknown company", { coerce: true }).optional(),
  ),
  customer_company_id: companyId("Customer is required"),
  operator_company_id: companyId("Operator is required"),
});
export type JobInput = z.infer<typeof JobInput>;

/** PATCH /api/pt/jobs: the same fields, the id required. */
export const JobUpdateInput = JobInput.extend({
  id: id("Required", { coerce: true }),
});
export type JobUpdateInput = z.infer<typeof JobUpdateInput>;

/** The jobs table's URL state: the list conventions and the spec's job filters. */
export const JobListQuery = ListQuery.extend({
  search_customer_name: optionalText,
  search_operator_name: optionalText,
  search_job_number: optionalText,
  job_date: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.string().refine(isRealDate, "Invalid date").optional(),
  ),
  sortBy: queryEnum(JOB_SORTS),
});
export type JobListQuery = z.infer<typeof JobListQuery>;

/** A job as every jobs call answers it: the stored fields, the three companies, its inspection count. */
export interface JobRow {
  id: number;
  date: string;
  job_number: string;
  district: string;
  inspector: string;
  uv_serial_number: string;
  uv_recalibration_date: string;
  blacklight_reading: string;
  ut_serial_number: string;
  ut_recalibration_date: string;
  comments: string;
  custom: Record<string, unknown>;
  inspection_company_id: number;
  customer_company_id: number;
  operator_company_id: number;
  customer_company: { id: number; name: string };
  operator_company: { id: number; name: string };
  inspection_company: { id: number; name: string };
  inspections: number;
  created_at: string;
  updated_at: string;
  /** Decision 038: sent back as If-Match by the edit form and the delete. */
  version: number;
}
