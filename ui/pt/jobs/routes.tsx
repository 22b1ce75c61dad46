import { Hono } from "hono";
import type { AppEnv } from "../../../api/lib/context.ts";
import { can } from "../../../lib/policy.ts";
import { listJobs } from "../../../api/pt/jobs/service.ts";
import { JobListQuery } from "../../../api/pt/jobs/schemas.ts";
import { JOB_PAGE_SIZES } from "./types.ts";
import { listPage } from "../../lib/list_page.tsx";
import { JobsPage } from "./JobsPage.tsx";

/** GET /pt/jobs: every signed-in user; the service scopes the rows (customers and operators read only). */
export const jobsPages = new Hono<AppEnv>()
  .get(
    "/pt/jobs",
    listPage({
      title: "Jobs",
      schema: JobListQuery,
      sizes: JOB_PAGE_SIZES,
      size: 10,
      sort: { by: "date", descending: true },
      filters: ["search_operator_name", "search_job_number"],
      render: async ({ user, ctx, q, table }) => {
        const searchCustomer = can(user, "pt.searchCustomer");
        const query = {
          ...table,
          // Without the Customer search box, a customer filter in the URL is not theirs to apply.
          ...(searchCustomer && q.search_customer_name
            ? { search_customer_name: q.search_customer_name }
            : {}),
        };
        // Only what the page shows a control for applies (no job date, no hidden customer filter).
        const data = await listJobs(ctx, {
          ...query,
          sortBy: q.sortBy,
          search_customer_name: query.search_customer_name,
          search_operator_name: query.search_operator_name,
          search_job_number: query.search_job_number,
        });
        return (
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
          />
        );
      },
    }),
  );
