import { timeZoneOf } from "../../../../lib/format.ts";
import { and, asc, type Column, count, desc, eq, or, type SQL, sql } from "drizzle-orm";
import { inventory, items } from "../../../../db/schema/mod.ts";
import type { Ctx } from "../../../lib/context.ts";
import { everyRow, likeContains, onlyFilters, pageWindow } from "../../../lib/list_query.ts";
import { serialContains, walkFindsSoon } from "../../../lib/indexed_search.ts";
import { DEEP_OFFSET, pageOfIds, rowsOfWalk } from "../../../lib/db_helpers.ts";
import { xlsxResponse } from "../../../lib/xlsx.ts";
import { requireAbility } from "../../../../lib/policy.ts";
import { type InventoryList, InventoryListQuery, type LocationListQuery } from "../schemas.ts";
import { AVAILABLE, inventoryRowsByIds, ON_STOCK_ITEM, presentAll, selectInventory, units } from "./query.ts";

const contains = (col: Column, text: string | undefined) =>
  text ? sql`${col} like ${likeContains(text)} escape '\\'` : undefined;

/**
 * The item filters as the ids of matching items, a look-up in the small items table. The unary `+`
 * keeps the planner from reading inventory by item: each sort's index is walked in order instead, and
 * the ids are checked on its entries (every list index ends with `item_id`). When the query joins
 * items anyway (the sorts on the item), the conditions are checked once per item instead.
 */
function itemsWhere(where: SQL | undefined, joined: boolean) {
  if (!where || joined) return where;
  return sql`+${inventory.item_id} in (${sql`select ${items.id} from ${items} where ${where}`})`;
}

/**
 * The filters both views share, on inventory's own columns and its item's (`itemsJoined`: the query
 * joins items, else they become the ids of matching items; `walkSerials`: the serial search is checked on
 * the rows a walk in the page's order reads, `walkFindsSoon`).
 */
export function inventoryFilters(
  q: InventoryListQuery | LocationListQuery,
  itemsJoined = false,
  walkSerials?: "serial" | "ids",
  /** with hidden rows included: one part of the merge, the rows shown (0) or those hidden (1) (`idsInOrder`) */
  hiddenPart?: 0 | 1,
): SQL | undefined {
  return and(
    itemsWhere(
      and(
        q.inventory_type ? eq(items.inventory_type, q.inventory_type) : undefined,
        contains(items.item_number, q.search_item_number),
      ),
      itemsJoined,
    ),
    // A literal, so each list index (hidden first) is read from its hidden = 0 part.
    q.include_hidden
      ? (hiddenPart === undefined ? undefined : sql`${inventory.hidden} = ${sql.raw(String(hiddenPart))}`)
      : sql`${inventory.hidden} = 0`,
    q.status ? eq(inventory.status, q.status) : undefined,
    q.business_unit_id ? eq(inventory.business_unit_id, q.business_unit_id) : undefined,
    // Through the serials' suffix index (migration 0020).
    serialContains(inventory.id, inventory.serial_number, q.search_serial_number, walkSerials),
    q.search_item_description
      ? or(
        itemsWhere(contains(items.item_description, q.search_item_description), itemsJoined),
        contains(inventory.inventory_description, q.search_item_description),
      )
      : undefined,
    contains(inventory.inventory_description, q.search_inventory_description),
  );
}

const nocase = (col: Column) => sql`${col} collate nocase`;
/** Ties on a sort key are broken by item, then row: the order the list indexes hold. */
const SORT = {
  serial_number: nocase(inventory.serial_number),
  item_number: nocase(items.item_number),
  item_description: nocase(items.item_description),
  business_unit: nocase(units.name),
  quantity: sql`${inventory.quantity}`,
  quantity_available: AVAILABLE,
  updated_at: sql`${inventory.updated_at}`,
};
export type Sort = keyof typeof SORT;

/**
 * The page's order: the item number (the default) and the item description walk items in that order
 * and each item's rows by serial number; the business unit walks units by name and each unit's rows
 * by serial number; the rest read one index of inventory in order.
 */
export function orderOf(sortBy: Sort | undefined, dir: typeof asc): SQL[] {
  return orderKeys(sortBy).map((key) => dir(key));
}

/** The page's order's keys (`orderOf`), each as its own expression. */
function orderKeys(sortBy: Sort | undefined): SQL[] {
  const serial = [SORT.serial_number, sql`${inventory.id}`];
  switch (sortBy ?? "item_number") {
    case "item_number":
      return [SORT.item_number, ...serial];
    case "item_description":
      return [SORT.item_description, sql`${items.id}`, ...serial];
    case "business_unit":
      return [
        SORT.business_unit,
        sql`${units.id}`,
        SORT.serial_number,
        sql`${inventory.item_id}`,
        sql`${inventory.id}`,
      ];
    default:
      return [SORT[sortBy!], sql`${inventory.item_id}`, sql`${inventory.id}`];
  }
}

/** The orders whose walk reads an index holding the serial (every list index of inventory by serial). */
const SERIAL_IN_INDEX = new Set<Sort>([
  "item_number",
  "item_description",
  "serial_number",
  "business_unit",
]);

/**
 * The ids of the rows the filters match, joined to what the order reads. Units are joined with their
 * model so the planner can walk business units by name through their (model, name) index. By the item,
 * items come first (a cross join keeps that order of the tables) unless a page is searched by serial.
 * `walk`: the serial search is checked on the rows walked in the order.
 */
function matchingIds(
  db: Ctx["db"],
  q: InventoryListQuery | LocationListQuery,
  by: Sort,
  walk: boolean,
  /** one part of the merge with hidden rows included, with the order's keys as columns (`idsInOrder`) */
  part?: { hidden: 0 | 1; keys: SQL[] },
) {
  const walkSerials = walk ? (SERIAL_IN_INDEX.has(by) ? "serial" : "ids") : undefined;
  const fields = { id: inventory.id, ...Object.fromEntries((part?.keys ?? []).map((k, i) => [`k${i}`, k])) };
  const ids = db.select(fields).from(inventory);
  if (by === "item_number" || by === "item_description") {
    const where = inventoryFilters(q, true, walkSerials, part?.hidden);
    // Items first unless a page is searched by serial (its suffix index finds few rows, then sorted): with no
    // type to filter items by, SQLite read every row of inventory and sorted them all (18 ms for page 1 of
    // 100,000 rows, 45 ms for page 2,000).
    return walk || !q.search_serial_number
      ? db.select(fields).from(items).crossJoin(inventory).where(and(ON_STOCK_ITEM, where))
      : ids.innerJoin(items, ON_STOCK_ITEM).where(where);
  }
  const where = inventoryFilters(q, false, walkSerials, part?.hidden);
  if (by !== "business_unit") return ids.where(where);
  return ids.innerJoin(units, and(eq(units.model, "Business Unit"), eq(units.id, inventory.business_unit_id)))
    .where(where);
}

/**
 * The ids of the rows the filters match, in the list's order (`orderOf`), to page (`limit`, `offset`) or to walk
 * (`getSQL`). With hidden rows included, the rows shown and those hidden are each read in the order of a list
 * index (every one starts with the hidden flag) and merged by SQLite (a compound select's ORDER BY: MERGE
 * (UNION ALL)): read as one, every match was sorted first (page 1 13-17 ms, page 2,000 22-50 ms of 100,000
 * rows). Its rows then carry the order's keys beside the id (`k0`...).
 */
export function idsInOrder(
  db: Ctx["db"],
  q: InventoryListQuery | LocationListQuery,
  by: Sort,
  walk: boolean,
  dir: typeof asc,
) {
  if (!q.include_hidden) return matchingIds(db, q, by, walk).orderBy(...orderOf(by, dir)).$dynamic();
  const keys = orderKeys(by);
  const part = (hidden: 0 | 1) => matchingIds(db, q, by, walk, { hidden, keys });
  const d = dir === desc ? "desc" : "asc";
  return part(0).unionAll(part(1)).orderBy(sql.raw(keys.map((_, i) => `${i + 2} ${d}`).join(", ")))
    .$dynamic();
}

/** The Totals row's figures with the count, cached like a list's total (cleared by any write). */
const TOTAL_KEYS = [
  "total",
  "quantity",
  "quantity_out",
  "quantity_out_location",
  "quantity_available",
] as const;

/** The query names no filter but those the kept figures are by. */
const onlyTypeFilters = onlyFilters<InventoryListQuery>(InventoryListQuery.shape, [
  "inventory_type",
  "include_hidden",
]);

/**
 * The Totals row's count and sums. With a type and the hidden flag alone (the page's defaults) they are the
 * figures kept by triggers (migration 0027): one lookup, where counting and summing 100,000 rows took about
 * 20 ms on the first read after every write. With other filters, items first, then each item's rows (a cross
 * join keeps that order). The statement, to run or to key a cache by.
 */
function figuresQuery(ctx: Ctx, q: InventoryListQuery | LocationListQuery) {
  const figures = () =>
    ctx.db.select({
      total: count(),
      quantity: sql<number>`coalesce(sum(${inventory.quantity}), 0)`,
      quantity_out: sql<number>`coalesce(sum(${inventory.quantity_out}), 0)`,
      quantity_out_location: sql<number>`coalesce(sum(${inventory.quantity_out_location}), 0)`,
    });
  // A type and whether hidden rows count, alone: the figures kept by triggers (migration 0027), one row a
  // type and flag. A serial search counts its matches from the serials' suffix index, row by row.
  return onlyTypeFilters(q as InventoryListQuery)
    ? ctx.db.select({
      total: sql<number>`coalesce(sum("rows"), 0)`,
      quantity: sql<number>`coalesce(sum("quantity"), 0)`,
      quantity_out: sql<number>`coalesce(sum("quantity_out"), 0)`,
      quantity_out_location: sql<number>`coalesce(sum("quantity_out_location"), 0)`,
    }).from(sql`"inventory_type_totals"`).where(and(
      q.inventory_type ? sql`"inventory_type" = ${q.inventory_type}` : undefined,
      q.include_hidden ? undefined : sql`"hidden" = 0`,
    ))
    : q.search_serial_number
    ? figures().from(inventory).where(inventoryFilters(q))
    : figures().from(items).crossJoin(inventory).where(and(ON_STOCK_ITEM, inventoryFilters(q, true)));
}

/** The Totals row's figures as a list answers them. */
async function figuresOf(
  query: ReturnType<typeof figuresQuery>,
): Promise<Record<(typeof TOTAL_KEYS)[number], number>> {
  const [row] = await query;
  const [quantity, out, atLocations] = [row.quantity, row.quantity_out, row.quantity_out_location].map(
    Number,
  );
  // Available (AVAILABLE per row) summed is the sums' difference: the quantities are integers, never null.
  return {
    total: Number(row.total),
    quantity,
    quantity_out: out,
    quantity_out_location: atLocations,
    quantity_available: quantity - out - atLocations,
  };
}

/** How many rows the filters match (the Totals row's count, `figuresQuery`), uncached. */
export async function matchingRowCount(ctx: Ctx, q: InventoryListQuery | LocationListQuery): Promise<number> {
  return (await figuresOf(figuresQuery(ctx, q))).total;
}

/** The Totals row's figures, cached until a write. */
async function cachedSums(
  ctx: Ctx,
  q: InventoryListQuery,
): Promise<Record<(typeof TOTAL_KEYS)[number], number>> {
  const query = figuresQuery(ctx, q);
  const { sql: text, params } = query.toSQL();
  // One cache entry for the five figures: one version read a page, where each figure read it again.
  return await ctx.tdb.cachedTotal(`${text}\u0000${JSON.stringify(params)}`, () => figuresOf(query));
}

/**
 * GET /api/sales/inventory: one page of rows, by item number and serial unless sorted otherwise,
 * and the Totals row over every row the filters match. A page's ids come first, from the indexes
 * alone (a deferred join): OFFSET skips index entries, and only the page's rows are joined.
 */
export async function listInventory(ctx: Ctx, q: InventoryListQuery): Promise<InventoryList> {
  requireAbility(ctx.user, "sales.read");
  const where = inventoryFilters(q);
  const order = orderOf(q.sortBy, q.descending ? desc : asc);
  const { limit, offset } = pageWindow(q);
  // A serial search's page walks the list's order when the matches are many enough (the count first).
  const counted = q.search_serial_number && limit !== -1 ? await cachedSums(ctx, q) : undefined;
  const walk = counted !== undefined && await walkFindsSoon(ctx, inventory, counted.total, offset + limit);
  const ids = idsInOrder(ctx.db, q, q.sortBy ?? "item_number", walk, q.descending ? desc : asc);
  const [rows, sums] = await Promise.all([
    limit === -1
      ? selectInventory(ctx.db).where(where).orderBy(...order)
      : (async () =>
        inventoryRowsByIds(ctx.db, await pageOfIds(ctx, ids, limit, offset, DEEP_OFFSET.stock)))(),
    counted ?? cachedSums(ctx, q),
  ]);
  const { total, ...totals } = sums;
  return { results: await presentAll(ctx.db, rows), total, totals };
}

export const INVENTORY_COLUMNS = [
  { header: "Serial Number", key: "serial_number", width: 18 },
  { header: "Item Number", key: "item_number", width: 16 },
  { header: "Item", key: "item_description", width: 30 },
  { header: "Inv. Description", key: "inventory_description", width: 30 },
  { header: "Business Unit", key: "business_unit", width: 20 },
  { header: "Category", key: "category", width: 18 },
  { header: "Status", key: "status", width: 10 },
  { header: "Calculated Inventory Status", key: "calculated_inventory_status", width: 12 },
  { header: "Quantity", key: "quantity", width: 10 },
  { header: "Quantity Out (Tickets)", key: "quantity_out", width: 12 },
  { header: "Quantity Out (Location)", key: "quantity_out_location", width: 12 },
  { header: "Quantity Available", key: "quantity_available", width: 12 },
  { header: "Locations", key: "locations", width: 28 },
  { header: "Purchase Date", key: "purchase_date", width: 12, date: true },
  { header: "Purchase Price", key: "purchase_price", width: 12, format: "money" as const },
  { header: "Manufacturer", key: "manufacturer", width: 18 },
  { header: "Location", key: "location", width: 18 },
  { header: "Hidden", key: "hidden", width: 8 },
  { header: "Last Updated By", key: "updated_by", width: 20 },
  { header: "Updated At", key: "updated_at", width: 20, instant: true },
];

/**
 * Every row in the list's order, for its download and its JSON of every row (`page=-1`): the ids are walked
 * once (`rowsOfWalk`; no order of the list has a key to read after: the serial may be null), or where they
 * cannot be, OFFSET pages.
 */
export async function everyInventoryRow<U>(ctx: Ctx, q: InventoryListQuery, map: (row: InventoryRow) => U) {
  requireAbility(ctx.user, "sales.read");
  return await rowsOfWalk(
    ctx,
    [idsInOrder(ctx.db, q, q.sortBy ?? "item_number", false, q.descending ? desc : asc).getSQL()],
    async (ids) => presentAll(ctx.db, await inventoryRowsByIds(ctx.db, ids)),
    map,
  ) ?? await everyRow((page, rowsPerPage) => listInventory(ctx, { ...q, page, rowsPerPage }), map);
}
type InventoryRow = InventoryList["results"][number];

/** GET /api/sales/inventory/download: the list's filters, every row, as Inventory-YYYY-MM-DD.xlsx. */
export async function downloadInventory(ctx: Ctx, q: InventoryListQuery, today = new Date()) {
  const row = (r: InventoryRow) => ({
    ...r,
    item_number: r.item.item_number,
    item_description: r.item.item_description,
    business_unit: r.business_unit.name,
    category: r.category?.name ?? "",
    locations: r.locations.map((l) => `${l.name}: ${l.quantity}`).join(", "),
    hidden: r.hidden ? "Yes" : "No",
    updated_by: r.updated_by?.name ?? "",
  });
  return xlsxResponse("Inventory", INVENTORY_COLUMNS, await everyInventoryRow(ctx, q, row), today, {
    timeZone: timeZoneOf(ctx.user.company.settings),
  });
}
