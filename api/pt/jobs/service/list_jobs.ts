import { and } from "drizzle-orm";
import type { Ctx } from "../../../lib/context.ts";
import { AppError } from "../../../../lib/errors.ts";
import { everyRow, type ListResult, listTotal, pageWindow } from "../../../lib/list_query.ts";
import { timeZoneOf } from "../../../../lib/format.ts";
import { type XlsxColumn, xlsxResponse } from "../../../lib/xlsx.ts";
import type { JobListQuery, JobRow } from "../schemas.ts";
import {
  countJobs,
  findJob,
  jobFilters,
  jobIdsInOrder,
  jobsByIds,
  jobScope,
  type JobSelect,
  selectJobs,
} from "./query.ts";
import { rowsOfWalk } from "../../../lib/db_helpers.ts";

/** GET /api/pt/jobs: the jobs table, newest first unless asked otherwise, within the user's scope. */
export async function listJobs(ctx: Ctx, q: JobListQuery): Promise<ListResult<JobRow>> {
  const select = selectOf(ctx, q);
  const [results, total] = await Promise.all([
    selectJobs(ctx.db, { ...select, ...pageWindow(q) }),
    listTotal(ctx, countJobs(ctx.db, select.where, select.byNames)),
  ]);
  return { results, total };
}

/** The list's rows as `selectJobs` takes them, before the page. */
function selectOf(ctx: Ctx, q: JobListQuery): JobSelect {
  return {
    where: and(jobScope(ctx.user), ...jobFilters(q)),
    byNames: !!(q.search_customer_name || q.search_operator_name),
    // The default order is by date: its page, too, is ids first, then their rows (one statement built once).
    sortBy: q.sortBy ?? "date",
    descending: q.descending,
  };
}

/**
 * Every job in the list's order, for its download and its JSON of every row (`page=-1`): the ids walked once
 * (`rowsOfWalk`), their rows read by id in reads sized by their pace; where the walk cannot be stepped (a
 * remote database), OFFSET pages. A read of 1,000 jobs by OFFSET held the thread 10-30 ms.
 */
export async function everyJob<U>(ctx: Ctx, q: JobListQuery, map: (row: JobRow) => U) {
  return await rowsOfWalk(
    ctx,
    [jobIdsInOrder(ctx.db, selectOf(ctx, q))],
    (ids) => jobsByIds(ctx.db, ids),
    map,
  ) ??
    await everyRow((page, rowsPerPage) => listJobs(ctx, { ...q, page, rowsPerPage }), map);
}

/** GET /api/pt/jobs/{id}: 404 for a job outside the user's scope, as for one that does not exist. */
export async function getJob(ctx: Ctx, id: number): Promise<JobRow> {
  const job = await findJob(ctx.db, ctx.user, id);
  if (!job) throw new AppError("not_found", "Job not found.");
  return job;
}

export const JOB_COLUMNS: XlsxColumn[] = [
  { header: "Date", key: "date", width: 12, date: true },
  { header: "Job Number", key: "job_number", width: 16 },
  { header: "Customer", key: "customer", width: 28 },
  { header: "Operator", key: "operator", width: 28 },
  { header: "District", key: "district", width: 16 },
  { header: "Inspector", key: "inspector", width: 20 },
  { header: "UV Serial", key: "uv_serial_number", width: 14 },
  { header: "UV Recal.", key: "uv_recalibration_date", width: 12, date: true },
  { header: "Blacklight", key: "blacklight_reading", width: 12 },
  { header: "UT Serial", key: "ut_serial_number", width: 14 },
  { header: "UT Recal.", key: "ut_recalibration_date", width: 12, date: true },
  { header: "Comments", key: "comments", width: 40 },
];

/** GET /api/pt/jobs/download: the list's filters and order, every row, as Jobs-YYYY-MM-DD.xlsx. */
export async function downloadJobs(ctx: Ctx, q: JobListQuery, today = new Date()): Promise<Response> {
  return xlsxResponse(
    "Jobs",
    JOB_COLUMNS,
    await everyJob(ctx, q, (j) => ({
      ...j,
      customer: j.customer_company.name,
      operator: j.operator_company.name,
    })),
    today,
    { timeZone: timeZoneOf(ctx.user.company.settings) },
  );
}
