import { Hono } from "hono";
import type { AppEnv } from "../../../api/lib/context.ts";
import { can } from "../../../lib/policy.ts";
import { listTaxes, TaxListQuery } from "../../../api/sales/taxes/service.ts";
import { joinTaxSearch, splitTaxSearch } from "../../../api/sales/taxes/rules.ts";
import { TAX_PAGE_SIZES } from "./types.ts";
import { listPage } from "../../lib/list_page.tsx";
import { TaxesPage } from "./TaxesPage.tsx";

const NO_SEARCH = {
  search_name: undefined,
  search_state: undefined,
  search_county: undefined,
  search_city: undefined,
};

/** GET /sales/taxes: the owner company's staff; anyone else goes back to the welcome page. */
export const taxesPages = new Hono<AppEnv>()
  .get(
    "/sales/taxes",
    listPage({
      title: "Taxes",
      schema: TaxListQuery,
      sizes: TAX_PAGE_SIZES,
      size: 20,
      sort: { by: "name", descending: false },
      render: async ({ user, ctx, q, table }) => {
        // The search form sends its text as search_name: 'State | County | City' splits here too.
        const query = { ...table, ...splitTaxSearch(joinTaxSearch(q)) };
        const data = await listTaxes(ctx, { ...q, ...NO_SEARCH, ...query });
        return <TaxesPage data={data} query={query} can={{ edit: can(user, "sales.admin") }} />;
      },
    }),
  );
