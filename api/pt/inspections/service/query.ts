import { and, count, eq, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { companies, type Inspection, inspections, type Job, jobs, parts } from "../../../../db/schema/mod.ts";
import type { TenantDatabase, Tx } from "../../../../db/client.ts";
import { drivenByIds, rowsInIdOrder, shaped } from "../../../../db/shaped.ts";
import type { CurrentUser } from "../../../lib/context.ts";
import { AppError, invalid } from "../../../../lib/errors.ts";
import { fileUrl } from "../../../files/service.ts";
import { ptScope } from "../../scope.ts";
import { UNKNOWN_PART } from "../schemas.ts";

const customers = alias(companies, "customer_company");
const operators = alias(companies, "operator_company");

/** The inspections a user sees, as a WHERE clause (the job's companies are copied onto each row). */
export const inspectionScope = (user: CurrentUser): SQL =>
  ptScope(user, {
    jobId: inspections.job_id,
    inspectionCompanyId: inspections.inspection_company_id,
    customerCompanyId: inspections.customer_company_id,
    operatorCompanyId: inspections.operator_company_id,
  });

const jobScope = (user: CurrentUser): SQL =>
  ptScope(user, {
    jobId: jobs.id,
    inspectionCompanyId: jobs.inspection_company_id,
    customerCompanyId: jobs.customer_company_id,
    operatorCompanyId: jobs.operator_company_id,
  });

/** The job, if the user may see it; 404 alike for a missing job and one out of scope. */
export async function jobInScope(db: TenantDatabase | Tx, user: CurrentUser, id: number): Promise<Job> {
  const job = await db.select().from(jobs).where(and(eq(jobs.id, id), jobScope(user))).get();
  if (!job) throw new AppError("not_found", "Job not found.");
  return job;
}

/** Parts are the catalogue of the job's inspection company: any other id is an unknown part. */
export async function requirePartOf(tx: Tx, job: Job, partId: number): Promise<void> {
  const part = await tx.select({ id: parts.id }).from(parts)
    .where(and(eq(parts.id, partId), eq(parts.inspection_company_id, job.inspection_company_id))).get();
  if (!part) throw invalid("part_id", UNKNOWN_PART);
}

export type InspectionOut = Inspection & {
  part: { id: number; name: string; description: string } | null;
  job: { id: number; job_number: string; date: string };
  customer_company: { id: number; name: string };
  operator_company: { id: number; name: string };
};

const FIELDS = {
  inspection: inspections,
  part: { id: parts.id, name: parts.name, description: parts.description },
  job: { id: jobs.id, job_number: jobs.job_number, date: jobs.date },
  customer_company: { id: customers.id, name: customers.name },
  operator_company: { id: operators.id, name: operators.name },
};

/**
 * Inspections with their part, job and companies. Left joins: a part may be unset, and the job and
 * companies always exist (foreign keys), so no row is lost.
 */
export function selectInspections(db: TenantDatabase | Tx) {
  return db.select(FIELDS).from(inspections)
    .leftJoin(jobs, eq(jobs.id, inspections.job_id))
    .leftJoin(parts, eq(parts.id, inspections.part_id))
    .leftJoin(customers, eq(customers.id, inspections.customer_company_id))
    .leftJoin(operators, eq(operators.id, inspections.operator_company_id));
}

/**
 * The number of inspections a filter matches. The filters name only inspections' own columns (the
 * job's and companies' are subqueries), so no join: an index count, about 5 ms at 100,000 inspections.
 */
export function countInspections(db: TenantDatabase | Tx) {
  return db.select({ total: count() }).from(inspections);
}

type Row = Awaited<ReturnType<ReturnType<typeof selectInspections>["all"]>>[number];

/** Inspections by their ids as one JSON array: one statement for every page, built once (db/shaped.ts). */
const ROWS_BY_IDS = shaped((db) => drivenByIds(selectInspections(db), inspections.id));

/** The inspections of these ids, in the ids' order (a list page's). */
export const inspectionRowsByIds = (db: TenantDatabase | Tx, ids: number[]) =>
  rowsInIdOrder(ROWS_BY_IDS, db, ids, (r) => r.inspection.id);

/** The one wire shape of an inspection; `custom.pressure_test_pdf` is derived, never stored. */
export function presentInspection(r: Row): InspectionOut {
  const { pressure_test_pdf: _stale, ...custom } = r.inspection.custom ?? {};
  const file = r.inspection.pressure_test_file_id;
  return {
    ...r.inspection,
    custom: file ? { ...custom, pressure_test_pdf: fileUrl(file) } : custom,
    part: r.part,
    job: r.job!,
    customer_company: r.customer_company!,
    operator_company: r.operator_company!,
  };
}

/** One inspection in its wire shape (after a save). */
export async function getInspection(db: TenantDatabase | Tx, id: number): Promise<InspectionOut> {
  const row = await selectInspections(db).where(eq(inspections.id, id)).get();
  if (!row) throw new AppError("not_found", "Inspection not found.");
  return presentInspection(row);
}
