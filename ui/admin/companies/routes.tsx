import { Hono } from "hono";
import { type AppEnv, ctxOf } from "../../../api/lib/context.ts";
import { can } from "../../../lib/policy.ts";
import { CompanyListQuery, listCompanies } from "../../../api/admin/companies/service.ts";
import { COMPANY_PAGE_SIZES } from "../../../api/admin/companies/schemas.ts";
import { renderShellPage } from "../../render.tsx";
import { lenientQuery } from "../../components/list_query.ts";
import { CompaniesPage } from "./CompaniesPage.tsx";
import type { CompaniesQuery } from "./types.ts";

const DEFAULT_SIZE = 10;

/** GET /admin/companies: the owner company's staff; anyone else goes back to the welcome page. */
export const companiesPages = new Hono<AppEnv>()
  .get("/admin/companies", async (c) => {
    const user = c.get("user")!;
    const params = new URL(c.req.url).searchParams;
    const q = lenientQuery(CompanyListQuery, params);
    const sizes: readonly number[] = COMPANY_PAGE_SIZES;
    const query: CompaniesQuery = {
      ...q,
      rowsPerPage: sizes.includes(Number(params.get("rowsPerPage"))) ? q.rowsPerPage : DEFAULT_SIZE,
      sortBy: q.sortBy ?? "name",
      descending: q.descending ?? false,
    };
    const { results, total } = await listCompanies(ctxOf(c), { ...q, ...query } as CompanyListQuery);
    const data = { results: results.map(({ users: _, ...company }) => company), total };
    return renderShellPage(
      c,
      "Companies",
      <CompaniesPage
        data={data}
        query={query}
        can={{
          edit: can(user, "companies.edit"),
          delete: can(user, "companies.delete"),
          settings: can(user, "companies.settings"),
        }}
      />,
    );
  });
