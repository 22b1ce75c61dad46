import { Hono } from "hono";
import type { AppEnv } from "../../../api/lib/context.ts";
import { can } from "../../../lib/policy.ts";
import { CompanyListQuery, listCompanies } from "../../../api/admin/companies/service.ts";
import { COMPANY_PAGE_SIZES } from "./types.ts";
import { listPage } from "../../lib/list_page.tsx";
import { CompaniesPage } from "./CompaniesPage.tsx";

/** GET /admin/companies: the owner company's staff; anyone else goes back to the welcome page. */
export const companiesPages = new Hono<AppEnv>()
  .get(
    "/admin/companies",
    listPage({
      title: "Companies",
      schema: CompanyListQuery,
      sizes: COMPANY_PAGE_SIZES,
      size: 10,
      sort: { by: "name", descending: false },
      filters: ["search_name", "type"],
      render: async ({ user, ctx, q, table }) => {
        const { results, total } = await listCompanies(ctx, { ...q, ...table });
        const data = { results: results.map(({ users: _, ...company }) => company), total };
        return (
          <CompaniesPage
            data={data}
            query={table}
            can={{
              edit: can(user, "companies.edit"),
              delete: can(user, "companies.delete"),
              settings: can(user, "companies.settings"),
            }}
          />
        );
      },
    }),
  );
