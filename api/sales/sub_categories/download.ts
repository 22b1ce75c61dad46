import type { Ctx } from "../../lib/context.ts";
import { everyRow } from "../../lib/list_query.ts";
import { type XlsxColumn, xlsxResponse } from "../../lib/xlsx.ts";
import { timeZoneOf } from "../../../lib/format.ts";
import { listSubCategories, type SubCategoryListQuery } from "./service.ts";

export const SUB_CATEGORY_COLUMNS: XlsxColumn[] = [
  { header: "Name", key: "name", width: 28 },
  { header: "Product Line", key: "product_line", width: 28 },
  { header: "Notes", key: "notes", width: 40 },
];

/** GET /api/sales/sub_categories/download: the list's searches and order, every row, as Sub-Product-Lines-YYYY-MM-DD.xlsx. */
export async function downloadSubCategories(
  ctx: Ctx,
  q: SubCategoryListQuery,
  today = new Date(),
): Promise<Response> {
  return xlsxResponse(
    "Sub-Product-Lines",
    SUB_CATEGORY_COLUMNS,
    await everyRow((page, rowsPerPage) => listSubCategories(ctx, { ...q, page, rowsPerPage }), (s) => ({
      name: s.name,
      product_line: s.category.name,
      notes: s.notes,
    })),
    today,
    { timeZone: timeZoneOf(ctx.user.company.settings) },
  );
}
