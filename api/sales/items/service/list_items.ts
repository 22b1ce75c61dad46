import { timeZoneOf } from "../../../../lib/format.ts";
import { and, type AnyColumn, asc, count, desc, eq, or, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { items } from "../../../../db/schema/mod.ts";
import { INVENTORY_TYPES } from "../../../../lib/enums.ts";
import type { Ctx } from "../../../lib/context.ts";
import {
  everyRow,
  likeContains,
  ListQuery,
  type ListResult,
  listTotal,
  optionalText,
  pageWindow,
  queryEnum,
} from "../../../lib/list_query.ts";
import { type XlsxColumn, xlsxResponse } from "../../../lib/xlsx.ts";
import { requireAbility } from "../../../../lib/policy.ts";
import { ITEM_SORTS, type ItemOut } from "../schemas.ts";
import { itemScope, presentItem, selectItems } from "./query.ts";

export const ItemListQuery = ListQuery.extend({
  rowsPerPage: ListQuery.shape.rowsPerPage.unwrap().default(20),
  search_item_number: optionalText,
  search_item_description: optionalText,
  /** the item pickers: every word is in the item number or the description */
  search_multi: optionalText,
  inventory_type: queryEnum(INVENTORY_TYPES),
  sortBy: queryEnum(ITEM_SORTS),
});
export type ItemListQuery = z.infer<typeof ItemListQuery>;

const SORT: Record<(typeof ITEM_SORTS)[number], SQL> = {
  item_number: sql`${items.item_number} collate nocase`,
  item_description: sql`${items.item_description} collate nocase`,
  rate: sql`${items.rate}`,
  inventory_type: sql`${items.inventory_type}`,
  item_type: sql`${items.item_type} collate nocase`,
};

const contains = (column: AnyColumn, text: string | undefined) =>
  text ? sql`${column} like ${likeContains(text)} escape '\\'` : undefined;

/** Every word (up to 8) of a picker's text is in the item number or the description. */
function wordsMatch(text: string | undefined): SQL | undefined {
  if (!text) return undefined;
  const words = text.split(/\s+/).filter(Boolean).slice(0, 8);
  return and(
    ...words.map((w) => or(contains(items.item_number, w), contains(items.item_description, w))),
  );
}

function listWhere(ctx: Ctx, q: ItemListQuery): SQL | undefined {
  return and(
    itemScope(ctx.user),
    contains(items.item_number, q.search_item_number),
    contains(items.item_description, q.search_item_description),
    wordsMatch(q.search_multi),
    q.inventory_type ? eq(items.inventory_type, q.inventory_type) : undefined,
  );
}

/**
 * GET /api/sales/items: the items page and the item pickers (`search_multi`: number or description), by
 * item number ascending unless asked otherwise; each row with its category.
 */
export async function listItems(ctx: Ctx, q: ItemListQuery): Promise<ListResult<ItemOut>> {
  requireAbility(ctx.user, "sales.read");
  const where = listWhere(ctx, q);
  const dir = q.descending ? desc : asc;
  const { limit, offset } = pageWindow(q);
  const [rows, total] = await Promise.all([
    selectItems(ctx.db).where(where)
      .orderBy(dir(SORT[q.sortBy ?? "item_number"]), dir(SORT.item_number), dir(items.id))
      .limit(limit).offset(offset),
    listTotal(ctx, ctx.db.select({ total: count() }).from(items).where(where)),
  ]);
  return { results: rows.map(presentItem), total };
}

const yesNo = (v: boolean) => (v ? "Yes" : "No");

/** The page's columns, then notes; headers a batch paste also understands. */
export const ITEM_COLUMNS: XlsxColumn[] = [
  { header: "Item Number", key: "item_number", width: 20 },
  { header: "Item", key: "item_description", width: 40 },
  { header: "Rate", key: "rate", width: 12, format: "unitPrice" },
  { header: "Units", key: "units", width: 12 },
  { header: "Inventory Type", key: "inventory_type", width: 16 },
  { header: "Item Type", key: "item_type", width: 12 },
  { header: "Taxable", key: "isTaxable", width: 10 },
  { header: "Expendable", key: "isExpendable", width: 12 },
  { header: "Service", key: "isService", width: 10 },
  { header: "Category", key: "category", width: 24 },
  { header: "Notes", key: "notes", width: 40 },
];

/** GET /api/sales/items/download: the list's filters, every row, as Items-YYYY-MM-DD.xlsx. */
export async function downloadItems(ctx: Ctx, q: ItemListQuery, today = new Date()): Promise<Response> {
  return xlsxResponse(
    "Items",
    ITEM_COLUMNS,
    await everyRow((page, rowsPerPage) => listItems(ctx, { ...q, page, rowsPerPage }), (i) => ({
      ...i,
      isTaxable: yesNo(i.isTaxable),
      isExpendable: yesNo(i.isExpendable),
      isService: yesNo(i.isService),
      category: i.category?.name ?? "",
    })),
    today,
    { timeZone: timeZoneOf(ctx.user.company.settings) },
  );
}
