import type { Ctx } from "../../lib/context.ts";
import { everyRow } from "../../lib/list_query.ts";
import { type XlsxColumn, xlsxResponse } from "../../lib/xlsx.ts";
import { timeZoneOf } from "../../../lib/format.ts";
import { AppError } from "../../../lib/errors.ts";
import { requireAbility } from "../../../lib/policy.ts";
import { inventoryLabel } from "../inventory_rows/rules.ts";
import { BUSINESS_UNIT_REQUIRED, type TemplateListQuery } from "./schemas.ts";
import { listTemplates } from "./service.ts";

export const TEMPLATE_COLUMNS: XlsxColumn[] = [
  { header: "Name", key: "name", width: 28 },
  { header: "Business Unit", key: "business_unit", width: 20 },
  { header: "Items", key: "items", width: 8 },
  { header: "Inventory, in order", key: "inventory", width: 60 },
  { header: "Created At", key: "created_at", width: 18, instant: true },
  { header: "Updated At", key: "updated_at", width: 18, instant: true },
];

/**
 * GET /api/sales/templates/download: the list's business unit, name search and order, every row, as
 * Templates-YYYY-MM-DD.xlsx. The list shows templates only with a unit chosen; so does its download, which
 * without one is refused (422) rather than an empty file.
 */
export async function downloadTemplates(
  ctx: Ctx,
  q: TemplateListQuery,
  today = new Date(),
): Promise<Response> {
  requireAbility(ctx.user, "sales.read");
  if (!q.search_business_unit) {
    throw new AppError("invalid", BUSINESS_UNIT_REQUIRED, [
      { path: "search_business_unit", message: BUSINESS_UNIT_REQUIRED },
    ]);
  }
  const rows = await everyRow(
    (page, rowsPerPage) => listTemplates(ctx, { ...q, page, rowsPerPage }),
    (t) => ({
      name: t.name,
      business_unit: t.business_unit.name,
      items: t.inventory_ids.length,
      inventory: t.inventory.map(inventoryLabel).join("; "),
      created_at: t.created_at,
      updated_at: t.updated_at,
    }),
  );
  return xlsxResponse(
    "Templates",
    TEMPLATE_COLUMNS,
    rows,
    today,
    { timeZone: timeZoneOf(ctx.user.company.settings) },
  );
}
