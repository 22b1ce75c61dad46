import { Hono } from "hono";
import { type AppEnv, ctxOf } from "../../../api/lib/context.ts";
import { can } from "../../../lib/policy.ts";
import { listTaxes, TaxListQuery } from "../../../api/sales/taxes/service.ts";
import { joinTaxSearch, splitTaxSearch, TAX_PAGE_SIZES } from "../../../api/sales/taxes/schemas.ts";
import { renderShellPage } from "../../render.tsx";
import { lenientQuery } from "../../components/list_query.ts";
import { TaxesPage } from "./TaxesPage.tsx";
import type { TaxesQuery } from "./types.ts";

const DEFAULT_SIZE = 20;

/** GET /sales/taxes: the owner company's staff; anyone else goes back to the welcome page. */
export const taxesPages = new Hono<AppEnv>()
  .get("/sales/taxes", async (c) => {
    const user = c.get("user")!;
    const params = new URL(c.req.url).searchParams;
    const q = lenientQuery(TaxListQuery, params);
    const sizes: readonly number[] = TAX_PAGE_SIZES;
    // The search form sends its text as search_name: 'State | County | City' splits here too.
    const query: TaxesQuery = {
      page: q.page,
      rowsPerPage: sizes.includes(Number(params.get("rowsPerPage"))) ? q.rowsPerPage : DEFAULT_SIZE,
      sortBy: q.sortBy ?? "name",
      descending: q.descending ?? false,
      ...splitTaxSearch(joinTaxSearch(q)),
    };
    const none = {
      search_name: undefined,
      search_state: undefined,
      search_county: undefined,
      search_city: undefined,
    };
    const data = await listTaxes(ctxOf(c), { ...q, ...none, ...query } as TaxListQuery);
    return renderShellPage(
      c,
      "Taxes",
      <TaxesPage data={data} query={query} can={{ edit: can(user, "sales.admin") }} />,
    );
  });
