import { Hono } from "hono";
import type { AppEnv, Ctx, CurrentUser } from "../../../api/lib/context.ts";
import { AppError } from "../../../lib/errors.ts";
import { can } from "../../../lib/policy.ts";
import { InspectionListQuery, listInspections } from "../../../api/pt/inspections/service.ts";
import { getJob } from "../../../api/pt/jobs/service.ts";
import { listPage, pickFilters } from "../../lib/list_page.tsx";
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
const JOB_VIEW_SEARCHES: readonly string[] = ["search_serial_number", "search_batch"];

/** Page 1, 5 rows, newest entered first; each view keeps only the searches it offers. */
const TABLE = {
  schema: InspectionListQuery,
  sizes: INSPECTION_TABLE_SIZES,
  size: DEFAULT_ROWS,
  sort: { by: "inspection_time" as const, descending: true },
};

/** The searches a view offers: the job's own two, or every one (Customer for those who may). */
function searchesOf(view: "job" | "data", user: CurrentUser) {
  return SEARCHES.filter((k) =>
    view === "job"
      ? JOB_VIEW_SEARCHES.includes(k)
      : k !== "search_customer_name" || can(user, "pt.searchCustomer")
  );
}

/** The job being edited, or null when it is gone or out of scope. */
async function jobSummary(ctx: Ctx, id: number): Promise<JobSummary | null> {
  try {
    const j = await getJob(ctx, id);
    return {
      id: j.id,
      job_number: j.job_number,
      date: j.date,
      customer: j.customer_company.name,
      operator: j.operator_company.name,
    };
  } catch (e) {
    if (e instanceof AppError && e.status === 404) return null;
    throw e;
  }
}

/** GET /pt/inspection?job_id=N (the job being edited) and GET /pt/data (every job in scope). */
export const inspectionsPages = new Hono<AppEnv>()
  .get(
    "/pt/inspection",
    listPage({
      ...TABLE,
      title: "Inspections",
      render: async ({ c, user, ctx, q, table }) => {
        // No job, or one that is gone or out of scope: back to the jobs list.
        const job = q.job_id ? await jobSummary(ctx, q.job_id) : null;
        if (!job) return c.redirect("/pt/jobs", 302);
        const query: InspectionsQuery = {
          ...table,
          job_id: q.job_id,
          ...pickFilters(q, searchesOf("job", user)),
        };
        const data = await listInspections(ctx, { ...query } as InspectionListQuery);
        const writer = can(user, "pt.write");
        return (
          <InspectionPage
            user={user}
            view="job"
            name={user.name}
            userId={user.id}
            job={job}
            data={data}
            query={query}
            can={{
              enter: writer && can(user, "inspections.enter"),
              edit: writer && can(user, "inspections.edit"),
              media: writer && can(user, "inspections.media"),
              searchCustomer: false,
            }}
          />
        );
      },
    }),
  )
  .get(
    "/pt/data",
    listPage({
      ...TABLE,
      title: "Inspection Data",
      render: async ({ user, ctx, q, table }) => {
        const query: InspectionsQuery = { ...table, ...pickFilters(q, searchesOf("data", user)) };
        const data = await listInspections(ctx, { ...query } as InspectionListQuery);
        return (
          <DataPage
            user={user}
            view="data"
            name={user.name}
            userId={user.id}
            job={null}
            data={data}
            query={query}
            can={{ enter: false, edit: false, media: false, searchCustomer: can(user, "pt.searchCustomer") }}
          />
        );
      },
    }),
  );
