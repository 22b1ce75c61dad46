import { and, eq, ne, sql } from "drizzle-orm";
import { companies, inspections, jobs } from "../../../../db/schema/mod.ts";
import type { Tx } from "../../../../db/client.ts";
import type { Ctx } from "../../../lib/context.ts";
import { AppError, type FieldError } from "../../../../lib/errors.ts";
import { requireAbility } from "../../../../lib/policy.ts";
import { parse } from "../../../lib/validate.ts";
import { nowStamp } from "../../../lib/db_helpers.ts";
import { JobInput, type JobRow, JobUpdateInput } from "../schemas.ts";
import { findJob, jobScope } from "./query.ts";
import { requireMatch } from "../../../lib/preconditions.ts";

export type SavedJob = JobRow & { message: string };

const hasId = (raw: Record<string, unknown>) => raw.id !== undefined && raw.id !== null && raw.id !== "";

/**
 * POST /api/pt/jobs (creates, or updates with an id) and PATCH /api/pt/jobs (`update`: id required).
 * Only inspection-company staff write jobs. Any of them may create one ("Any user sees New Job")
 * except Data-Entry users, who only work in the jobs assigned to them; editing needs job-admin.
 */
export async function saveJob(ctx: Ctx, body: unknown, opts: { update?: boolean } = {}): Promise<SavedJob> {
  requireAbility(ctx.user, "pt.write");
  const raw = (body && typeof body === "object" ? body : {}) as Record<string, unknown>;
  const updating = opts.update || hasId(raw);
  if (updating) requireAbility(ctx.user, "jobs.edit");
  else if (ctx.user.account_type === "Data-Entry") {
    throw new AppError("forbidden", "Data-Entry users work only in the jobs assigned to them.");
  }
  const input = parse(updating ? JobUpdateInput : JobInput, raw);
  if ((input.inspection_company_id ?? ctx.user.company_id) !== ctx.user.company_id) {
    throw new AppError("forbidden", "Jobs can only be saved for your own inspection company.");
  }
  const saved = await ctx.tdb.write(async (tx) => {
    const current = input.id === undefined
      ? undefined
      : await tx.select().from(jobs).where(and(eq(jobs.id, input.id), jobScope(ctx.user))).get();
    if (input.id !== undefined && !current) throw new AppError("not_found", "Job not found.");
    if (current) await requireMatch(ctx, current.version, () => findJob(tx, ctx.user, current.id));
    await checkCompanies(tx, input);
    const taken = await tx.select({ id: jobs.id }).from(jobs).where(and(
      eq(jobs.inspection_company_id, ctx.user.company_id),
      sql`${jobs.job_number} = ${input.job_number} collate nocase`,
      current ? ne(jobs.id, current.id) : undefined,
    )).get();
    if (taken) throw new AppError("conflict", "A job with this number already exists.");
    const values = {
      date: input.date,
      job_number: input.job_number,
      district: input.district,
      inspector: input.inspector,
      uv_serial_number: input.uv_serial_number,
      uv_recalibration_date: input.uv_recalibration_date,
      blacklight_reading: input.blacklight_reading,
      ut_serial_number: input.ut_serial_number,
      ut_recalibration_date: input.ut_recalibration_date,
      comments: input.comments,
      customer_company_id: input.customer_company_id,
      operator_company_id: input.operator_company_id,
      ...(input.custom !== undefined ? { custom: input.custom } : {}),
    };
    if (!current) {
      const [row] = await tx.insert(jobs).values({ ...values, inspection_company_id: ctx.user.company_id })
        .returning({ id: jobs.id });
      return await findJob(tx, ctx.user, row.id);
    }
    await tx.update(jobs).set({ ...values, updated_at: nowStamp() }).where(eq(jobs.id, current.id));
    if (
      current.customer_company_id !== input.customer_company_id ||
      current.operator_company_id !== input.operator_company_id
    ) {
      // Inspections carry copies of their job's companies (scoped searches need no join).
      await tx.update(inspections).set({
        customer_company_id: input.customer_company_id,
        operator_company_id: input.operator_company_id,
        updated_at: nowStamp(),
      }).where(eq(inspections.job_id, current.id));
    }
    return await findJob(tx, ctx.user, current.id);
  });
  return { ...saved!, message: updating ? "Job updated" : "Job created" };
}

/** The customer must be a customer company and the operator an operator company of this tenant. */
async function checkCompanies(tx: Tx, input: JobInput): Promise<void> {
  const typeOf = async (id: number) =>
    (await tx.select({ t: companies.company_type }).from(companies).where(eq(companies.id, id)).get())?.t;
  const errors: FieldError[] = [];
  if (await typeOf(input.customer_company_id) !== "customer_company") {
    errors.push({ path: "customer_company_id", message: "Customer is required" });
  }
  if (await typeOf(input.operator_company_id) !== "operator_company") {
    errors.push({ path: "operator_company_id", message: "Operator is required" });
  }
  if (errors.length) throw new AppError("invalid", errors[0].message, errors);
}
