import { Hono } from "hono";
import type { AppEnv } from "../../../api/lib/context.ts";
import { can } from "../../../lib/policy.ts";
import { CategoryListQuery, listCategories } from "../../../api/sales/categories/service.ts";
import { CATEGORY_PAGE_SIZES } from "./types.ts";
import { listPage } from "../../lib/list_page.tsx";
import { CategoriesPage } from "./CategoriesPage.tsx";
import { CATEGORY_PAGES, type CategoryPage } from "./types.ts";

/** The model comes from the page's path, never from its URL. */
const PageQuery = CategoryListQuery.omit({ model: true });

/** GET /sales/inventory-categories and the other three: the owner company's staff, else back to "/". */
export const categoriesPages = new Hono<AppEnv>();

for (const page of CATEGORY_PAGES as readonly CategoryPage[]) {
  categoriesPages.get(
    page.path,
    listPage({
      title: page.title,
      schema: PageQuery,
      sizes: CATEGORY_PAGE_SIZES,
      size: 20,
      sort: { by: "name", descending: false },
      filters: ["search_name"],
      render: async ({ user, ctx, q, table }) => (
        <CategoriesPage
          page={page}
          data={await listCategories(ctx, { ...q, ...table, model: page.model })}
          query={table}
          can={{ edit: can(user, "sales.admin") }}
        />
      ),
    }),
  );
}
