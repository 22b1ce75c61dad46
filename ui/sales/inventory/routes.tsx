import { Hono } from "hono";
import type { AppEnv } from "../../../api/lib/context.ts";
import { can } from "../../../lib/policy.ts";
import {
  InventoryListQuery,
  listInventory,
  listInventoryLocations,
  LocationListQuery,
} from "../../../api/sales/inventory/service.ts";
import { INVENTORY_PAGE_SIZES } from "./types.ts";
import { listPage, pickFilters } from "../../lib/list_page.tsx";
import { InventoryPage } from "./InventoryPage.tsx";
import {
  INVENTORY_PAGES,
  type InventoryData,
  type InventoryPageDef,
  type InventoryQuery,
  SEARCHES,
} from "./types.ts";

const SEARCH_KEYS = SEARCHES.map((s) => s.key);

/**
 * GET /sales/serialized-inventory, /sales/itemized-inventory, /sales/charge-codes: owner-company
 * staff. The table starts at page 1, 20 rows, in the API's order (item number, serial number) unless
 * a column is sorted; the inventory type is the page's, never the URL's.
 */
export const inventoryPages = new Hono<AppEnv>();

for (const page of INVENTORY_PAGES as readonly InventoryPageDef[]) {
  inventoryPages.get(
    page.path,
    listPage({
      title: page.title,
      schema: InventoryListQuery,
      // The location view sorts by its own columns.
      schemaOf: (params) => (params.get("view") === "location" ? LocationListQuery : InventoryListQuery),
      sizes: INVENTORY_PAGE_SIZES,
      size: 20,
      render: async ({ c, user, ctx, q, table }) => {
        const query: InventoryQuery = {
          ...table,
          inventory_type: page.type,
          ...(c.req.query("view") === "location" ? { view: "location" as const } : {}),
          ...(q.include_hidden ? { include_hidden: true as const } : {}),
          ...pickFilters(q, SEARCH_KEYS),
        };
        const data: InventoryData = query.view
          ? await listInventoryLocations(ctx, { ...query } as LocationListQuery)
          : await listInventory(ctx, { ...query } as InventoryListQuery);
        return (
          <InventoryPage page={page} data={data} query={query} can={{ edit: can(user, "sales.admin") }} />
        );
      },
    }),
  );
}
