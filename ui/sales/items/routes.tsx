import { Hono } from "hono";
import type { AppEnv } from "../../../api/lib/context.ts";
import { can } from "../../../lib/policy.ts";
import { ItemListQuery, listItems } from "../../../api/sales/items/service.ts";
import { ITEM_PAGE_SIZES } from "./types.ts";
import { listPage } from "../../lib/list_page.tsx";
import { ItemsPage } from "./ItemsPage.tsx";

/** GET /sales/items: the owner company's staff; anyone else goes back to the welcome page. */
export const itemsPages = new Hono<AppEnv>()
  .get(
    "/sales/items",
    listPage({
      title: "Items",
      schema: ItemListQuery,
      sizes: ITEM_PAGE_SIZES,
      size: 20,
      sort: { by: "item_number", descending: false },
      filters: ["search_item_number", "search_item_description"],
      render: async ({ user, ctx, q, table }) => (
        <ItemsPage
          data={await listItems(ctx, { ...q, ...table })}
          query={table}
          can={{ edit: can(user, "sales.admin") }}
        />
      ),
    }),
  );
