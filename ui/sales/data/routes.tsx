import { Hono } from "hono";
import { type AppEnv, ctxOf } from "../../../api/lib/context.ts";
import { can } from "../../../lib/policy.ts";
import { SALES_PAGE_SIZES, SalesListQuery } from "../../../api/sales/lines/schemas.ts";
import { listSales } from "../../../api/sales/lines/service.ts";
import { renderShellPage } from "../../render.tsx";
import { lenientQuery } from "../../components/list_query.ts";
import { SalesDataPage } from "./SalesDataPage.tsx";
import { SALES_FILTERS, type SalesQuery } from "./types.ts";

/** The API's own default page size (10). */
const DEFAULT_SIZE = SalesListQuery.parse({}).rowsPerPage;

/**
 * GET /sales/data: the owner company's staff (anyone else back to "/"). The filters come from the
 * URL, so the inventory's 'View Sales' link (`?serial_number=...`) renders already filtered; the
 * island then takes the link's parameters out of the address bar. 'Invoiced Only' is on unless the
 * URL says `isInvoice=false`; quotes are always left out.
 */
export const salesDataPages = new Hono<AppEnv>()
  .get("/sales/data", async (c) => {
    const user = c.get("user")!;
    const params = new URL(c.req.url).searchParams;
    const q = lenientQuery(SalesListQuery, params);
    const sizes: readonly number[] = SALES_PAGE_SIZES.filter((n) => n > 0);
    const query: SalesQuery = {
      page: q.page,
      rowsPerPage: sizes.includes(Number(params.get("rowsPerPage"))) ? q.rowsPerPage : DEFAULT_SIZE,
      ...(q.sortBy ? { sortBy: q.sortBy, descending: q.descending ?? false } : {}),
      isInvoice: q.isInvoice ?? true,
      hideQuotes: true,
    };
    for (const { key } of SALES_FILTERS) if (q[key]) query[key] = q[key];
    // Only the filters the page shows (and keeps in its URL) apply: not the API-only `id`.
    const data = await listSales(ctxOf(c), { ...q, id: undefined, ...query } as SalesListQuery);
    return renderShellPage(
      c,
      "Sales Data",
      <SalesDataPage data={data} query={query} can={{ delete: can(user, "sales.admin") }} />,
    );
  });
