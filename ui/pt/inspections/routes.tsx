import { Hono } from "hono";
import { type AppEnv, ctxOf, type CurrentUser } from "../../../api/lib/context.ts";
import { AppError } from "../../../lib/errors.ts";
import { can } from "../../../lib/policy.ts";
import { InspectionListQuery, listInspections } from "../../../api/pt/inspections/service.ts";
import { getJob } from "../../../api/pt/jobs/service.ts";
import { renderShellPage } from "../../render.tsx";
import { lenientQuery } from "../../components/list_query.ts";
import { InspectionPage } from "./InspectionPage.tsx";
import { DataPage } from "./DataPage.tsx";
import { DEFAULT_ROWS, INSPECTION_TABLE_SIZES, type InspectionsQuery, type JobSummary } from "./types.ts";

const SEARCHES = [
  "search_serial_number",
  "search_batch",
  "search_operator_name",
  "search_job_number",
  "search_customer_name",
  "job_date",
] as const;
const JOB_VIEW_SEARCHES = new Set(["search_serial_number", "search_batch"]);

/**
 * The table's state from the URL, leniently (a bad value falls back to its default): page 1, 5 rows,
 * newest entered first. Only the searches the view offers are kept.
 */
function tableQuery(params: URLSearchParams, view: "job" | "data", user: CurrentUser): InspectionsQuery {
  const q = lenientQuery(InspectionListQuery, params);
  const offered = (k: string) =>
    view === "job"
      ? JOB_VIEW_SEARCHES.has(k)
      : k !== "search_customer_name" || can(user, "pt.searchCustomer");
  const query: InspectionsQuery = {
    page: q.page,
    rowsPerPage: INSPECTION_TABLE_SIZES.includes(Number(params.get("rowsPerPage")))
      ? q.rowsPerPage
      : DEFAULT_ROWS,
    sortBy: q.sortBy ?? "inspection_time",
    descending: q.descending ?? true,
    ...(view === "job" && q.job_id ? { job_id: q.job_id } : {}),
  };
  for (const k of SEARCHES) if (q[k] && offered(k)) query[k] = q[k];
  return query;
}

/** GET /pt/inspection?job_id=N (the job being edited) and GET /pt/data (every job in scope). */
export const inspectionsPages = new Hono<AppEnv>()
  .get("/pt/inspection", async (c) => {
    const user = c.get("user")!;
    const ctx = ctxOf(c);
    const query = tableQuery(new URL(c.req.url).searchParams, "job", user);
    if (!query.job_id) return c.redirect("/pt/jobs", 302);
    let job: JobSummary;
    try {
      const j = await getJob(ctx, query.job_id);
      job = {
        id: j.id,
        job_number: j.job_number,
        date: j.date,
        customer: j.customer_company.name,
        operator: j.operator_company.name,
      };
    } catch (e) {
      // A job that is gone or out of scope: back to the jobs list, as with no job at all.
      if (e instanceof AppError && e.status === 404) return c.redirect("/pt/jobs", 302);
      throw e;
    }
    const data = await listInspections(ctx, { ...query } as InspectionListQuery);
    const writer = can(user, "pt.write");
    return renderShellPage(
      c,
      "Inspections",
      <InspectionPage
        user={user}
        view="job"
        name={user.name}
        job={job}
        data={data}
        query={query}
        can={{
          enter: writer && can(user, "inspections.enter"),
          edit: writer && can(user, "inspections.edit"),
          searchCustomer: false,
        }}
      />,
    );
  })
  .get("/pt/data", async (c) => {
    const user = c.get("user")!;
    const query = tableQuery(new URL(c.req.url).searchParams, "data", user);
    const data = await listInspections(ctxOf(c), { ...query } as InspectionListQuery);
    return renderShellPage(
      c,
      "Inspection Data",
      <DataPage
        user={user}
        view="data"
        name={user.name}
        job={null}
        data={data}
        query={query}
        can={{ enter: false, edit: false, searchCustomer: can(user, "pt.searchCustomer") }}
      />,
    );
  });
