import { Hono } from "hono";
import { type AppEnv, ctxOf } from "../../../api/lib/context.ts";
import { can } from "../../../lib/policy.ts";
import { listJobs } from "../../../api/pt/jobs/service.ts";
import { JOB_PAGE_SIZES, JobListQuery } from "../../../api/pt/jobs/schemas.ts";
import { renderShellPage } from "../../render.tsx";
import { lenientQuery } from "../../components/list_query.ts";
import { JobsPage } from "./JobsPage.tsx";
import type { JobsQuery } from "./types.ts";

const DEFAULT_SIZE = 10;

/** GET /pt/jobs: every signed-in user; the service scopes the rows (customers and operators read only). */
export const jobsPages = new Hono<AppEnv>()
  .get("/pt/jobs", async (c) => {
    const user = c.get("user")!;
    const params = new URL(c.req.url).searchParams;
    const q = lenientQuery(JobListQuery, params);
    const sizes: readonly number[] = JOB_PAGE_SIZES;
    const searchCustomer = can(user, "pt.searchCustomer");
    const query: JobsQuery = {
      page: q.page,
      rowsPerPage: sizes.includes(Number(params.get("rowsPerPage"))) ? q.rowsPerPage : DEFAULT_SIZE,
      sortBy: q.sortBy ?? "date",
      descending: q.descending ?? true,
      ...(q.search_operator_name ? { search_operator_name: q.search_operator_name } : {}),
      ...(q.search_job_number ? { search_job_number: q.search_job_number } : {}),
      // Without the Customer search box, a customer filter in the URL is not theirs to apply.
      ...(searchCustomer && q.search_customer_name ? { search_customer_name: q.search_customer_name } : {}),
    };
    // Only what the page shows a control for applies (no job date, no hidden customer filter).
    const data = await listJobs(ctxOf(c), {
      ...query,
      sortBy: q.sortBy,
      search_customer_name: query.search_customer_name,
      search_operator_name: query.search_operator_name,
      search_job_number: query.search_job_number,
    });
    return renderShellPage(
      c,
      "Jobs",
      <JobsPage
        settings={user.company.settings}
        name={user.name}
        company={{ id: user.company.id, name: user.company.name }}
        data={data}
        query={query}
        can={{
          create: can(user, "jobs.create"),
          edit: can(user, "pt.write") && can(user, "jobs.edit"),
          searchCustomer,
        }}
      />,
    );
  });
