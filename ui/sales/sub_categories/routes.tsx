import { Hono } from "hono";
import { type AppEnv, ctxOf } from "../../../api/lib/context.ts";
import { can } from "../../../lib/policy.ts";
import { listSubCategories, SubCategoryListQuery } from "../../../api/sales/sub_categories/service.ts";
import { SUB_CATEGORY_PAGE_SIZES } from "../../../api/sales/sub_categories/schemas.ts";
import { renderShellPage } from "../../render.tsx";
import { lenientQuery } from "../../components/list_query.ts";
import { SubCategoriesPage } from "./SubCategoriesPage.tsx";
import type { SubCategoriesQuery } from "./types.ts";

const DEFAULT_SIZE = 20;

/** GET /sales/sub-product-lines: the owner company's staff; anyone else goes back to "/". */
export const subCategoriesPages = new Hono<AppEnv>()
  .get("/sales/sub-product-lines", async (c) => {
    const user = c.get("user")!;
    const params = new URL(c.req.url).searchParams;
    const q = lenientQuery(SubCategoryListQuery, params);
    const sizes: readonly number[] = SUB_CATEGORY_PAGE_SIZES;
    const query: SubCategoriesQuery = {
      page: q.page,
      rowsPerPage: sizes.includes(Number(params.get("rowsPerPage"))) ? q.rowsPerPage : DEFAULT_SIZE,
      sortBy: q.sortBy ?? "name",
      descending: q.descending ?? false,
      ...(q.search_name ? { search_name: q.search_name } : {}),
    };
    const data = await listSubCategories(ctxOf(c), { ...q, ...query } as SubCategoryListQuery);
    return renderShellPage(
      c,
      "Sub Product Lines",
      <SubCategoriesPage data={data} query={query} can={{ edit: can(user, "sales.admin") }} />,
    );
  });
