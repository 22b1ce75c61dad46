import { and, asc, type Column, count, desc, eq, inArray, isNull, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { integer, sqliteTable } from "drizzle-orm/sqlite-core";
import { ptScope } from "../../scope.ts";
import { companies, inspections, jobs, parts } from "../../../../db/schema/mod.ts";
import type { TenantDatabase } from "../../../../db/client.ts";
import type { Ctx } from "../../../lib/context.ts";
import {
  everyRow,
  likeContains,
  ListQuery,
  type ListResult,
  listTotal,
  onlyFilters,
  optionalText,
  pageWindow,
  queryEnum,
} from "../../../lib/list_query.ts";
import { DEEP_OFFSET, pageOfIds, rowsAfter, rowsOfWalk } from "../../../lib/db_helpers.ts";
import { type XlsxColumn, xlsxResponse } from "../../../lib/xlsx.ts";
import { DATE_MESSAGE, INSPECTION_SORTS } from "../schemas.ts";
import { isIsoDate, timeZoneOf } from "../../../../lib/format.ts";
import {
  countInspections,
  type InspectionOut,
  inspectionRowsByIds,
  inspectionScope,
  jobInScope,
  presentInspection,
  selectInspections,
} from "./query.ts";

const blank = (v: unknown) => (v === "" ? undefined : v);

/** The inspection tables: the job being edited (`job_id`) or, on the data view, every job in scope. */
export const InspectionListQuery = ListQuery.extend({
  rowsPerPage: ListQuery.shape.rowsPerPage.unwrap().default(5),
  sortBy: queryEnum(INSPECTION_SORTS),
  job_id: z.preprocess(blank, z.coerce.number().int().positive().optional()),
  search_serial_number: optionalText,
  search_batch: optionalText,
  search_operator_name: optionalText,
  search_job_number: optionalText,
  search_customer_name: optionalText,
  /** The job's date, exactly. */
  job_date: z.preprocess(blank, z.string().trim().refine(isIsoDate, DATE_MESSAGE).optional()),
});
export type InspectionListQuery = z.infer<typeof InspectionListQuery>;

const SORT: Record<(typeof INSPECTION_SORTS)[number], Column | SQL> = {
  inspection_time: inspections.inspection_time,
  date: inspections.date,
  serial_number: sql`${inspections.serial_number} collate nocase`,
  batch: sql`${inspections.batch} collate nocase`,
  part_name: sql`${parts.name} collate nocase`,
  band_color: inspections.band_color,
  mpi_result: inspections.mpi_result,
};

const contains = (col: Column, text: string | undefined) =>
  text ? sql`${col} like ${likeContains(text)} escape '\\'` : undefined;

/** The trigram index reads three characters at a time: shorter terms can only be found by LIKE. */
export const FTS_MIN_CHARS = 3;

/**
 * Serial number and batch contains-searches through the FTS5 trigram index `inspections_fts`
 * (migration 0002): each term of 3+ characters becomes a quoted phrase on its column, which with the
 * trigram tokenizer matches any substring. The LIKE of `contains` still applies to the few rows found,
 * so the results are exactly a LIKE's; only the scan of every row is gone.
 */
function indexedSearch(terms: [column: "serial_number" | "batch", text: string | undefined][]) {
  const phrases = terms
    .filter(([, text]) => text && [...text].length >= FTS_MIN_CHARS)
    .map(([column, text]) => `${column} : "${text!.replaceAll('"', '""')}"`);
  if (!phrases.length) return undefined;
  return sql`${inspections.id} in (select rowid from inspections_fts where inspections_fts match ${
    phrases.join(" AND ")
  })`;
}

/**
 * Filters on the job and its companies, as look-ups in those small tables whose ids then select
 * inspections through their indexes: a scan of jobs or companies instead of one of every inspection.
 */
function relatedFilters(db: TenantDatabase, q: InspectionListQuery): (SQL | undefined)[] {
  const companyNamed = (column: Column, name: string | undefined) =>
    name
      ? inArray(column, db.select({ id: companies.id }).from(companies).where(contains(companies.name, name)))
      : undefined;
  const job = and(
    contains(jobs.job_number, q.search_job_number),
    q.job_date ? eq(jobs.date, q.job_date) : undefined,
  );
  return [
    companyNamed(inspections.operator_company_id, q.search_operator_name),
    companyNamed(inspections.customer_company_id, q.search_customer_name),
    job ? inArray(inspections.job_id, db.select({ id: jobs.id }).from(jobs).where(job)) : undefined,
  ];
}

/** The list's sort and direction as asked, else its default: newest entered first. */
const sortOf = (q: InspectionListQuery) => ({
  sort: q.sortBy ?? "inspection_time",
  descending: q.descending ?? true,
});

/** Every row is read after the last row by inspection time (never null) and id; other orders are walked. */
const inspectionsReadAfterLast = (q: InspectionListQuery) => sortOf(q).sort === "inspection_time";

/** The list's order: the sort key, then id; by part, the part's name, then the part, then id. */
function orderOf(q: InspectionListQuery): SQL[] {
  const { sort, descending } = sortOf(q);
  const dir = descending ? desc : asc;
  return sort === "part_name"
    ? [dir(SORT.part_name), dir(parts.id), dir(inspections.id)]
    : [dir(SORT[sort]), dir(inspections.id)];
}

/**
 * A page's ids first, from the indexes alone (a deferred join): OFFSET then skips index entries, not
 * joined rows, and only the page's rows are joined to their job, part and companies.
 */
async function pageIds(
  ctx: Ctx,
  where: SQL | undefined,
  q: InspectionListQuery,
  limit: number,
  offset: number,
): Promise<number[]> {
  const db = ctx.db;
  const [first, second] = walksOf(ctx, where, q);
  const { sort, descending } = sortOf(q);
  // By part the parts are joined; the other orders are one index each.
  const from = sort === "part_name" ? DEEP_OFFSET.joined : DEEP_OFFSET.indexed;
  if (!second) return await pageOfIds(ctx, first, limit, offset, from);
  // A page that starts past the first walk learns its size from a count, cached like a list's total.
  const dir = descending ? desc : asc;
  const head = await pageOfIds(ctx, first, limit, offset, from);
  if (head.length === limit) return head;
  const firstCount = head.length ? offset + head.length : await listTotal(
    ctx,
    dir === asc
      // Through the part index: the planner, counting nulls it cannot estimate, would read every row.
      ? db.select({ total: count() }).from(sql`${inspections} indexed by "inspections_part_idx"`)
        .where(and(isNull(inspections.part_id), where))
      : db.select({ total: count() }).from(inspections).innerJoin(parts, eq(parts.id, inspections.part_id))
        .where(where),
  );
  return [
    ...head,
    ...await pageOfIds(ctx, second, limit - head.length, Math.max(0, offset - firstCount), from),
  ];
}

/**
 * The list's ids in its order, as one walk or, by part name, two: parts by name (their name index), each
 * part's inspections in id order; and the inspections with no part (a null name: first ascending, last
 * descending), in id order.
 */
function walksOf(ctx: Ctx, where: SQL | undefined, q: InspectionListQuery) {
  const db = ctx.db;
  if (q.sortBy !== "part_name") {
    return [db.select({ id: inspections.id }).from(inspections).where(where).orderBy(...orderOf(q))] as const;
  }
  const withPart = db.select({ id: inspections.id }).from(parts).crossJoin(inspections)
    .where(and(eq(inspections.part_id, parts.id), where)).orderBy(...orderOf(q));
  const dir = sortOf(q).descending ? desc : asc;
  const noPart = db.select({ id: inspections.id }).from(inspections).where(
    and(isNull(inspections.part_id), where),
  )
    .orderBy(dir(inspections.id));
  return dir === asc ? [noPart, withPart] as const : [withPart, noPart] as const;
}

/** The list's filters, in the caller's scope; a `job_id` the caller may not see is 404. */
async function filtersOf(ctx: Ctx, q: InspectionListQuery) {
  if (q.job_id !== undefined) await jobInScope(ctx.db, ctx.user, q.job_id);
  return and(
    inspectionScope(ctx.user),
    q.job_id !== undefined ? eq(inspections.job_id, q.job_id) : undefined,
    indexedSearch([["serial_number", q.search_serial_number], ["batch", q.search_batch]]),
    contains(inspections.serial_number, q.search_serial_number),
    contains(inspections.batch, q.search_batch),
    ...relatedFilters(ctx.db, q),
  );
}

/**
 * GET /api/pt/inspections: one page, newest entered first unless sorted otherwise. Scoped in the query;
 * a `job_id` the caller may not see is 404.
 */
export async function listInspections(
  ctx: Ctx,
  q: InspectionListQuery,
  last?: InspectionOut,
): Promise<ListResult<InspectionOut>> {
  const filters = await filtersOf(ctx, q);
  const order = orderOf(q);
  const { descending } = sortOf(q);
  const after = last && inspectionsReadAfterLast(q)
    ? rowsAfter(SORT.inspection_time, inspections.id, { key: last.inspection_time, id: last.id }, descending)
    : undefined;
  const { limit, offset } = pageWindow(q, after !== undefined);
  const where = and(filters, after);
  const [rows, total] = await Promise.all([
    limit === -1
      ? selectInspections(ctx.db).where(where).orderBy(...order)
      : inspectionRowsByIds(ctx.db, await pageIds(ctx, where, q, limit, offset)),
    inspectionTotal(ctx, q, filters),
  ]);
  return { results: rows.map(presentInspection), total };
}

/**
 * The inspections of each job with its three companies, kept by triggers (migration 0030; not in the schema
 * drizzle-kit reads: only this list reads it).
 */
const inspectionCounts = sqliteTable("inspection_counts", {
  inspection_company_id: integer("inspection_company_id").notNull(),
  customer_company_id: integer("customer_company_id").notNull(),
  operator_company_id: integer("operator_company_id").notNull(),
  job_id: integer("job_id").notNull(),
  inspections: integer("inspections").notNull(),
});

/** The query names no filter but a job. */
const onlyJob = onlyFilters<InspectionListQuery>(InspectionListQuery.shape, ["job_id"]);

/**
 * How many inspections the list's filters match. With no filter but a job: the counts kept by triggers, summed
 * over the jobs in the user's scope (the same rule, on the counts' columns): a row a job, where counting
 * 100,000 inspections took 4-7 ms on the first read after every write. Otherwise counted, cached until a write.
 */
async function inspectionTotal(ctx: Ctx, q: InspectionListQuery, filters: SQL | undefined): Promise<number> {
  if (!onlyJob(q)) return await listTotal(ctx, countInspections(ctx.db).where(filters));
  const c = inspectionCounts;
  const [row] = await ctx.db.select({ total: sql<number>`coalesce(sum(${c.inspections}), 0)` }).from(c).where(
    and(
      ptScope(ctx.user, {
        jobId: c.job_id,
        inspectionCompanyId: c.inspection_company_id,
        customerCompanyId: c.customer_company_id,
        operatorCompanyId: c.operator_company_id,
      }),
      q.job_id !== undefined ? eq(c.job_id, q.job_id) : undefined,
    ),
  );
  return Number(row.total);
}

export const INSPECTION_COLUMNS: XlsxColumn[] = [
  { header: "Date", key: "date", width: 12, date: true },
  { header: "Serial Number", key: "serial_number", width: 18 },
  { header: "Batch", key: "batch", width: 14 },
  { header: "Part Name", key: "part_name", width: 22 },
  { header: "Part Desc.", key: "part_description", width: 28 },
  { header: "Pass Visual?", key: "visual_pass", width: 12 },
  { header: "UT 1", key: "ut_1", width: 8, format: "ut" },
  { header: "UT 2", key: "ut_2", width: 8, format: "ut" },
  { header: "UT 3", key: "ut_3", width: 8, format: "ut" },
  { header: "Pressure", key: "pressure", width: 12, format: "pressure" },
  { header: "Band Color", key: "band_color", width: 11 },
  { header: "MPI Result", key: "mpi_result", width: 12 },
  { header: "Notes", key: "notes", width: 32 },
  { header: "Operator", key: "operator", width: 24 },
  { header: "Customer", key: "customer", width: 24 },
  { header: "Job Number", key: "job_number", width: 14 },
];

/**
 * Every inspection in the list's order, for its download and its JSON of every row (`page=-1`): by inspection
 * time (the default) each read starts after the last row; in another order the ids are walked once
 * (`rowsOfWalk`), or where they cannot be, OFFSET pages.
 */
export async function everyInspection<U>(ctx: Ctx, q: InspectionListQuery, map: (row: InspectionOut) => U) {
  const list = (page: number, rowsPerPage: number, last?: InspectionOut) =>
    listInspections(ctx, { ...q, page, rowsPerPage }, last);
  if (inspectionsReadAfterLast(q)) return await everyRow(list, map, true);
  return await rowsOfWalk(
    ctx,
    walksOf(ctx, await filtersOf(ctx, q), q).map((walk) => walk.getSQL()),
    async (ids) => (await inspectionRowsByIds(ctx.db, ids)).map(presentInspection),
    map,
  ) ?? await everyRow(list, map);
}

/** GET /api/pt/inspections/download: the list's filters, every row, as Inspections-YYYY-MM-DD.xlsx. */
export async function downloadInspections(
  ctx: Ctx,
  q: InspectionListQuery,
  today = new Date(),
): Promise<Response> {
  const row = (r: InspectionOut) => ({
    ...r,
    part_name: r.part?.name,
    part_description: r.part?.description,
    visual_pass: r.visual_pass === null ? "" : r.visual_pass ? "Yes" : "No",
    operator: r.operator_company.name,
    customer: r.customer_company.name,
    job_number: r.job.job_number,
  });
  return xlsxResponse("Inspections", INSPECTION_COLUMNS, await everyInspection(ctx, q, row), today, {
    timeZone: timeZoneOf(ctx.user.company.settings),
  });
}
