import { Hono } from "hono";
import { type AppEnv, ctxOf } from "../../../api/lib/context.ts";
import { can } from "../../../lib/policy.ts";
import { CategoryListQuery, listCategories } from "../../../api/sales/categories/service.ts";
import { CATEGORY_PAGE_SIZES } from "../../../api/sales/categories/schemas.ts";
import { renderShellPage } from "../../render.tsx";
import { lenientQuery } from "../../components/list_query.ts";
import { CategoriesPage } from "./CategoriesPage.tsx";
import { CATEGORY_PAGES, type CategoryPage } from "./types.ts";
import type { CategoriesQuery } from "./types.ts";

const DEFAULT_SIZE = 20;
const PageQuery = CategoryListQuery.omit({ model: true });

/** GET /sales/inventory-categories and the other three: the owner company's staff, else back to "/". */
export const categoriesPages = new Hono<AppEnv>();

for (const page of CATEGORY_PAGES as readonly CategoryPage[]) {
  categoriesPages.get(page.path, async (c) => {
    const user = c.get("user")!;
    const params = new URL(c.req.url).searchParams;
    const q = lenientQuery(PageQuery, params);
    const sizes: readonly number[] = CATEGORY_PAGE_SIZES;
    const query: CategoriesQuery = {
      page: q.page,
      rowsPerPage: sizes.includes(Number(params.get("rowsPerPage"))) ? q.rowsPerPage : DEFAULT_SIZE,
      sortBy: q.sortBy ?? "name",
      descending: q.descending ?? false,
      ...(q.search_name ? { search_name: q.search_name } : {}),
    };
    const data = await listCategories(ctxOf(c), { ...q, ...query, model: page.model } as CategoryListQuery);
    return renderShellPage(
      c,
      page.title,
      <CategoriesPage page={page} data={data} query={query} can={{ edit: can(user, "sales.admin") }} />,
    );
  });
}
