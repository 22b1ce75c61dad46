import { Hono } from "hono";
import { type AppEnv, ctxOf } from "../../../api/lib/context.ts";
import { can } from "../../../lib/policy.ts";
import {
  InventoryListQuery,
  listInventory,
  listInventoryLocations,
  LocationListQuery,
} from "../../../api/sales/inventory/service.ts";
import { INVENTORY_PAGE_SIZES } from "../../../api/sales/inventory/schemas.ts";
import { renderShellPage } from "../../render.tsx";
import { lenientQuery } from "../../components/list_query.ts";
import { InventoryPage } from "./InventoryPage.tsx";
import {
  INVENTORY_PAGES,
  type InventoryData,
  type InventoryPageDef,
  type InventoryQuery,
  SEARCHES,
} from "./types.ts";

const DEFAULT_SIZE = 20;

/**
 * The table's state from the URL, leniently (a bad value falls back to its default): page 1, 20 rows,
 * the API's order (item number, serial number) unless a column is sorted. The type is the page's.
 */
function tableQuery(params: URLSearchParams, page: InventoryPageDef): InventoryQuery {
  const location = params.get("view") === "location";
  const q = lenientQuery(location ? LocationListQuery : InventoryListQuery, params);
  const sizes: readonly number[] = INVENTORY_PAGE_SIZES;
  const query: InventoryQuery = {
    page: q.page,
    rowsPerPage: sizes.includes(Number(params.get("rowsPerPage"))) ? q.rowsPerPage : DEFAULT_SIZE,
    ...(q.sortBy ? { sortBy: q.sortBy, descending: q.descending ?? false } : {}),
    inventory_type: page.type,
    ...(location ? { view: "location" as const } : {}),
    ...(q.include_hidden ? { include_hidden: true as const } : {}),
  };
  for (const { key } of SEARCHES) if (q[key]) query[key] = q[key];
  return query;
}

/** GET /sales/serialized-inventory, /sales/itemized-inventory, /sales/charge-codes: owner-company staff. */
export const inventoryPages = new Hono<AppEnv>();

for (const page of INVENTORY_PAGES as readonly InventoryPageDef[]) {
  inventoryPages.get(page.path, async (c) => {
    const user = c.get("user")!;
    const query = tableQuery(new URL(c.req.url).searchParams, page);
    const ctx = ctxOf(c);
    const data: InventoryData = query.view
      ? await listInventoryLocations(ctx, { ...query } as LocationListQuery)
      : await listInventory(ctx, { ...query } as InventoryListQuery);
    return renderShellPage(
      c,
      page.title,
      <InventoryPage page={page} data={data} query={query} can={{ edit: can(user, "sales.admin") }} />,
    );
  });
}
