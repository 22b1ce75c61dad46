import { Hono } from "hono";
import { type AppEnv, ctxOf } from "../../../api/lib/context.ts";
import { can } from "../../../lib/policy.ts";
import { ItemListQuery, listItems } from "../../../api/sales/items/service.ts";
import { ITEM_PAGE_SIZES } from "../../../api/sales/items/schemas.ts";
import { renderShellPage } from "../../render.tsx";
import { lenientQuery } from "../../components/list_query.ts";
import { ItemsPage } from "./ItemsPage.tsx";
import type { ItemsQuery } from "./types.ts";

const DEFAULT_SIZE = 20;

/** GET /sales/items: the owner company's staff; anyone else goes back to the welcome page. */
export const itemsPages = new Hono<AppEnv>()
  .get("/sales/items", async (c) => {
    const user = c.get("user")!;
    const params = new URL(c.req.url).searchParams;
    const q = lenientQuery(ItemListQuery, params);
    const sizes: readonly number[] = ITEM_PAGE_SIZES;
    const query: ItemsQuery = {
      page: q.page,
      rowsPerPage: sizes.includes(Number(params.get("rowsPerPage"))) ? q.rowsPerPage : DEFAULT_SIZE,
      sortBy: q.sortBy ?? "item_number",
      descending: q.descending ?? false,
      ...(q.search_item_number ? { search_item_number: q.search_item_number } : {}),
      ...(q.search_item_description ? { search_item_description: q.search_item_description } : {}),
    };
    const data = await listItems(ctxOf(c), { ...q, ...query } as ItemListQuery);
    return renderShellPage(
      c,
      "Items",
      <ItemsPage data={data} query={query} can={{ edit: can(user, "sales.admin") }} />,
    );
  });
