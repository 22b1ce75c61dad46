import { and, asc, count, desc, eq, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { companies, inspections, jobs } from "../../../../db/schema/mod.ts";
import type { TenantDatabase, Tx } from "../../../../db/client.ts";
import { drivenByIds, rowsInIdOrder, shaped } from "../../../../db/shaped.ts";
import type { CurrentUser } from "../../../lib/context.ts";
import { likeContains } from "../../../lib/list_query.ts";
import { indexedContains } from "../../../lib/indexed_search.ts";
import { ptScope } from "../../scope.ts";
import type { JobListQuery, JobRow, JobSort } from "../schemas.ts";

const customer = alias(companies, "customer");
const operator = alias(companies, "operator");
const owner = alias(companies, "owner");

/** The jobs a user may see: THE scoping rule, applied inside every jobs query. */
export function jobScope(user: CurrentUser): SQL {
  return ptScope(user, {
    jobId: jobs.id,
    inspectionCompanyId: jobs.inspection_company_id,
    customerCompanyId: jobs.customer_company_id,
    operatorCompanyId: jobs.operator_company_id,
  });
}

const contains = (column: SQL | typeof jobs.job_number, text: string | undefined) =>
  text ? sql`${column} like ${likeContains(text)} escape '\\'` : undefined;

/** The list's filters: contains (case-insensitive, wildcards literal) and the exact job date. */
export function jobFilters(q: Partial<JobListQuery>): (SQL | undefined)[] {
  return [
    contains(sql`${customer.name}`, q.search_customer_name),
    contains(sql`${operator.name}`, q.search_operator_name),
    indexedContains("jobs_fts", jobs.id, jobs.job_number, q.search_job_number),
    q.job_date ? eq(jobs.date, q.job_date) : undefined,
  ];
}

const SORT: Record<JobSort, SQL> = {
  date: sql`${jobs.date}`,
  job_number: sql`${jobs.job_number} collate nocase`,
  customer: sql`${customer.name} collate nocase`,
  operator: sql`${operator.name} collate nocase`,
  district: sql`${jobs.district} collate nocase`,
  inspector: sql`${jobs.inspector} collate nocase`,
};

export interface JobSelect {
  where: SQL | undefined;
  /** `where` filters on the customer's or operator's name (their joins must be in every query of it) */
  byNames?: boolean;
  sortBy?: JobSort;
  /** Default true: newest first. */
  descending?: boolean;
  limit?: number;
  offset?: number;
}

/** Join conditions made once: a statement's joins are built once per condition (db/query_building.ts). */
const ON_CUSTOMER = eq(customer.id, jobs.customer_company_id);
const ON_OPERATOR = eq(operator.id, jobs.operator_company_id);
const ON_OWNER = eq(owner.id, jobs.inspection_company_id);

/**
 * A page of jobs as ids, in the list's order (a deferred join). By operator or customer: the companies by
 * name (their name index), each one's jobs through the jobs' operator or customer index, stopping at the
 * page; only the jobs of one name are sorted by id (SQLite's sort of the order's right part: a name two
 * companies share keeps the order by id), and `cross join` fixes the loop order. On the jobs' own columns:
 * their indexes in order, or a sort of ids alone where sorting the full rows counted every job's
 * inspections first (5,000 jobs by inspector: 5 ms). A company is joined only to be walked or when the
 * filters name it: the joins add nothing else (every job has both) and keep SQLite from walking the sort's
 * own index (7 ms -> under 1 ms by job number).
 */
function pageIds(db: TenantDatabase | Tx, s: JobSelect, dir: typeof asc, limit: number, offset: number) {
  const sortBy = s.sortBy!;
  const order = [dir(SORT[sortBy]), dir(jobs.id)];
  const companies = [
    { alias: customer, on: ON_CUSTOMER, walked: sortBy === "customer" },
    { alias: operator, on: ON_OPERATOR, walked: sortBy === "operator" },
  ];
  const walked = companies.find((c) => c.walked);
  let q =
    (walked
      ? db.select({ id: jobs.id }).from(walked.alias).crossJoin(jobs)
      : db.select({ id: jobs.id }).from(jobs))
      .$dynamic();
  for (const c of companies) if (!c.walked && s.byNames) q = q.innerJoin(c.alias, c.on);
  return q.where(and(walked?.on, s.where))
    .orderBy(...order).limit(limit).offset(offset);
}

/** What a job row selects: one object, so its flat order and row mapper are worked out once. */
const JOB_ROW_FIELDS = {
  job: jobs,
  customer_company: { id: customer.id, name: customer.name },
  operator_company: { id: operator.id, name: operator.name },
  inspection_company: { id: owner.id, name: owner.name },
  inspections: sql<number>`(select count(*) from ${inspections} where ${inspections.job_id} = ${jobs.id})`
    .mapWith(Number),
};

/** Jobs with their three companies, before `flat` (the wire shape). */
function joinedJobs(db: TenantDatabase | Tx) {
  return db.select(JOB_ROW_FIELDS).from(jobs)
    .innerJoin(customer, ON_CUSTOMER)
    .innerJoin(operator, ON_OPERATOR)
    .innerJoin(owner, ON_OWNER);
}
type JoinedJob = Awaited<ReturnType<ReturnType<typeof joinedJobs>["all"]>>[number];
const flat = ({ job, ...rest }: JoinedJob): JobRow => ({ ...job, ...rest });

/** Jobs by their ids as one JSON array: one statement for every page, built once (db/shaped.ts). */
const ROWS_BY_IDS = shaped((db) => drivenByIds(joinedJobs(db), jobs.id));

/** Jobs by their ids, in the ids' order, in the wire shape. */
export async function jobsByIds(db: TenantDatabase | Tx, ids: number[]): Promise<JobRow[]> {
  return (await rowsInIdOrder(ROWS_BY_IDS, db, ids, (r) => r.job.id)).map(flat);
}

/** Every id of the list in its order (a download's walk, `rowsOfWalk`): the page's own read, unbounded. */
export function jobIdsInOrder(db: TenantDatabase | Tx, s: JobSelect): SQL {
  return pageIds(db, { ...s, sortBy: s.sortBy ?? "date" }, (s.descending ?? true) ? desc : asc, -1, 0)
    .getSQL();
}

/** Jobs in the wire shape (`JobRow`), joined to their three companies, with their inspection count. */
export async function selectJobs(db: TenantDatabase | Tx, s: JobSelect): Promise<JobRow[]> {
  const dir = (s.descending ?? true) ? desc : asc;
  const paged = s.limit !== undefined && s.limit !== -1;
  if (s.sortBy && paged) {
    // The page's ids first, then their rows by key: as a subquery, SQLite 3.53 scanned every job and
    // checked it against the list.
    return await jobsByIds(db, (await pageIds(db, s, dir, s.limit!, s.offset ?? 0)).map((r) => r.id));
  }
  const rows = await joinedJobs(db)
    .where(s.where)
    .orderBy(dir(SORT[s.sortBy ?? "date"]), dir(jobs.id))
    .limit(s.limit ?? -1).offset(s.offset ?? 0);
  return rows.map(flat);
}

/**
 * How many jobs match: the query, to count. The companies are joined only where the filters name them (every
 * job has both, so the joins change no count): joined always, the count of 5,000 jobs looked up two companies
 * for each (4-5 ms on the first read after every write).
 */
export function countJobs(db: TenantDatabase | Tx, where: SQL | undefined, byNames = true) {
  const q = db.select({ total: count() }).from(jobs).$dynamic();
  return (byNames ? q.innerJoin(customer, ON_CUSTOMER).innerJoin(operator, ON_OPERATOR) : q).where(where);
}

/** One job within the user's scope, or undefined (callers answer 404). */
export async function findJob(db: TenantDatabase | Tx, user: CurrentUser, id: number) {
  const [row] = await selectJobs(db, { where: and(eq(jobs.id, id), jobScope(user)), limit: 1 });
  return row;
}
