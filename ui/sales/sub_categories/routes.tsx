import { Hono } from "hono";
import type { AppEnv } from "../../../api/lib/context.ts";
import { can } from "../../../lib/policy.ts";
import { listSubCategories, SubCategoryListQuery } from "../../../api/sales/sub_categories/service.ts";
import { SUB_CATEGORY_PAGE_SIZES } from "./types.ts";
import { listPage } from "../../lib/list_page.tsx";
import { SubCategoriesPage } from "./SubCategoriesPage.tsx";

/** GET /sales/sub-product-lines: the owner company's staff; anyone else goes back to "/". */
export const subCategoriesPages = new Hono<AppEnv>()
  .get(
    "/sales/sub-product-lines",
    listPage({
      title: "Sub Product Lines",
      schema: SubCategoryListQuery,
      sizes: SUB_CATEGORY_PAGE_SIZES,
      size: 20,
      sort: { by: "name", descending: false },
      filters: ["search_name"],
      render: async ({ user, ctx, q, table }) => (
        <SubCategoriesPage
          data={await listSubCategories(ctx, { ...q, ...table })}
          query={table}
          can={{ edit: can(user, "sales.admin") }}
        />
      ),
    }),
  );
