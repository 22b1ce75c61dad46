import { Hono } from "hono";
import type { AppEnv } from "../../../api/lib/context.ts";
import { can } from "../../../lib/policy.ts";
import { SALES_PAGE_SIZES, SalesListQuery } from "../../../api/sales/lines/schemas.ts";
import { listSales } from "../../../api/sales/lines/service.ts";
import { listPage, pickFilters } from "../../lib/list_page.tsx";
import { SalesDataPage } from "./SalesDataPage.tsx";
import { SALES_FILTERS } from "./types.ts";

const FILTER_KEYS = SALES_FILTERS.map((f) => f.key);

/**
 * GET /sales/data: the owner company's staff (anyone else back to "/"). The filters come from the
 * URL, so the inventory's 'View Sales' link (`?serial_number=...`) renders already filtered; the
 * island then takes the link's parameters out of the address bar. 'Invoiced Only' is on unless the
 * URL says `isInvoice=false`; quotes are always left out.
 */
export const salesDataPages = new Hono<AppEnv>()
  .get(
    "/sales/data",
    listPage({
      title: "Sales Data",
      schema: SalesListQuery,
      sizes: SALES_PAGE_SIZES.filter((n) => n > 0),
      // The API's own default page size (10).
      size: SalesListQuery.parse({}).rowsPerPage,
      render: async ({ user, ctx, q, table }) => {
        const query = {
          ...table,
          isInvoice: q.isInvoice ?? true,
          hideQuotes: true as const,
          ...pickFilters(q, FILTER_KEYS),
        };
        // Only the filters the page shows (and keeps in its URL) apply: not the API-only `id`.
        const data = await listSales(ctx, { ...q, id: undefined, ...query });
        return <SalesDataPage data={data} query={query} can={{ delete: can(user, "sales.admin") }} />;
      },
    }),
  );
