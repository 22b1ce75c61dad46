import type { Ctx } from "../../lib/context.ts";
import { everyRow } from "../../lib/list_query.ts";
import { type XlsxColumn, xlsxResponse } from "../../lib/xlsx.ts";
import { timeZoneOf } from "../../../lib/format.ts";
import { listTaxes, type TaxListQuery } from "./service.ts";

export const TAX_COLUMNS: XlsxColumn[] = [
  { header: "Name", key: "name", width: 24 },
  { header: "State", key: "state", width: 10 },
  { header: "County", key: "county", width: 16 },
  { header: "City", key: "city", width: 16 },
  { header: "State Rate (%)", key: "state_rate", width: 14 },
  { header: "County Rate (%)", key: "county_rate", width: 14 },
  { header: "City Rate (%)", key: "city_rate", width: 14 },
  { header: "Rate (%)", key: "rate", width: 10 },
  { header: "Notes", key: "notes", width: 40 },
];

/** GET /api/sales/taxes/download: the list's searches and order, every row, as Taxes-YYYY-MM-DD.xlsx. */
export async function downloadTaxes(ctx: Ctx, q: TaxListQuery, today = new Date()): Promise<Response> {
  return xlsxResponse(
    "Taxes",
    TAX_COLUMNS,
    await everyRow((page, rowsPerPage) => listTaxes(ctx, { ...q, page, rowsPerPage })),
    today,
    { timeZone: timeZoneOf(ctx.user.company.settings) },
  );
}
