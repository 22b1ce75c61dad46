import type { Ctx } from "../../lib/context.ts";
import { everyRow } from "../../lib/list_query.ts";
import { type XlsxColumn, xlsxResponse } from "../../lib/xlsx.ts";
import { timeZoneOf } from "../../../lib/format.ts";
import { type CategoryListQuery, listCategories } from "./service.ts";

/** Each model's file name, as its page is titled. */
const FILE_NAMES: Record<string, string> = {
  "Inventory Category": "Inventory-Categories",
  "Item Category": "Item-Categories",
  "Business Unit": "Business-Units",
  "Product Line": "Product-Lines",
};

/**
 * GET /api/sales/categories/download?model=: one model's list with its search and order, every row, as
 * `<List>-YYYY-MM-DD.xlsx`; business units add their locations.
 */
export async function downloadCategories(
  ctx: Ctx,
  q: CategoryListQuery,
  today = new Date(),
): Promise<Response> {
  const units = q.model === "Business Unit";
  const columns: XlsxColumn[] = [
    { header: "Name", key: "name", width: 28 },
    { header: "Notes", key: "notes", width: 40 },
    ...(units ? [{ header: "Locations", key: "locations", width: 40 }] : []),
  ];
  return xlsxResponse(
    FILE_NAMES[q.model] ?? "Categories",
    columns,
    await everyRow((page, rowsPerPage) => listCategories(ctx, { ...q, page, rowsPerPage }), (c) => ({
      name: c.name,
      notes: c.notes,
      locations: Array.isArray(c.custom.locations) ? c.custom.locations.join("; ") : "",
    })),
    today,
    { timeZone: timeZoneOf(ctx.user.company.settings) },
  );
}
