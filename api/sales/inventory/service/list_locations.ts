import { timeZoneOf } from "../../../../lib/format.ts";
import { and, asc, count, desc, eq, exists, inArray, type SQL, sql, type SQLWrapper } from "drizzle-orm";
import { inventory, inventory_locations, items } from "../../../../db/schema/mod.ts";
import type { Ctx } from "../../../lib/context.ts";
import { everyRow, type ListResult, pageWindow } from "../../../lib/list_query.ts";
import { rowsOfWalk } from "../../../lib/db_helpers.ts";
import { inIdOrder, shaped } from "../../../../db/shaped.ts";
import { walkFindsSoon } from "../../../lib/indexed_search.ts";
import { xlsxResponse } from "../../../lib/xlsx.ts";
import { requireAbility } from "../../../../lib/policy.ts";
import { BASE, calculatedStatus, type InventoryLocationOut, type LocationListQuery } from "../schemas.ts";
import { AVAILABLE, ITEM_FIELDS, UNIT_FIELDS, unitLocations, units } from "./query.ts";
import { idsInOrder, inventoryFilters, matchingRowCount, orderOf } from "./list.ts";
import { inJson } from "../../../../db/in_json.ts";

/**
 * The rows of the location view: each inventory row at 'Base' (its available quantity: not on
 * tickets, not at a named location), only those `baseWhere` picks when given, and every named location
 * holding some stock. `ref` names a row of the view: a Base row by its inventory id, a named one by minus its
 * location row's id (a walk's key, `viewWalk`).
 */
function locationRows(db: Ctx["db"], baseWhere?: SQL, namedWhere?: SQL) {
  const base = db.select({
    inventory_id: sql<number>`${inventory.id}`.as("v_inventory_id"),
    location: sql<string>`${BASE}`.as("v_location"),
    quantity: sql<number>`${AVAILABLE}`.as("v_quantity"),
    ord: sql<number>`0`.as("v_ord"),
    ref: sql<number>`${inventory.id}`.as("v_ref"),
  }).from(inventory).where(baseWhere);
  const named = db.select({
    inventory_id: sql<number>`${inventory_locations.inventory_id}`.as("v_inventory_id"),
    location: sql<string>`${inventory_locations.name}`.as("v_location"),
    quantity: sql<number>`${inventory_locations.quantity}`.as("v_quantity"),
    ord: sql<number>`1`.as("v_ord"),
    ref: sql<number>`-${inventory_locations.id}`.as("v_ref"),
  }).from(inventory_locations).where(and(sql`${inventory_locations.quantity} > 0`, namedWhere));
  return base.unionAll(named).as("v");
}

type V = ReturnType<typeof locationRows>;

/**
 * The view's order: by an inventory column, each row's Base then its locations by name; by location,
 * every Base row (by row) then the named locations; by quantity, Base rows by what is available among
 * the named rows by theirs.
 */
function viewOrder(q: LocationListQuery, v: V): SQL[] {
  const dir = q.descending ? desc : asc;
  const place = [asc(v.ord), asc(sql`${v.location} collate nocase`)];
  if (q.sortBy === "location") return [dir(v.ord), dir(sql`${v.location} collate nocase`), dir(inventory.id)];
  if (q.sortBy === "quantity") return [dir(v.quantity), dir(inventory.item_id), dir(inventory.id), ...place];
  return [...orderOf(q.sortBy, dir), ...place];
}

/** The ids of `idsInOrder`'s rows alone (with hidden rows included they carry the order's keys too). */
const idColumn = (rows: SQLWrapper) => sql`(select "id" from ${rows})`;

/**
 * The ids of the Base rows in the view's order, from the inventory list's indexes. `walk`: a serial search's
 * page walks the order, checking each row (as the inventory list's, `walkFindsSoon`).
 */
function baseIdsInOrder(db: Ctx["db"], q: LocationListQuery, walk = false) {
  const dir = q.descending ? desc : asc;
  // In the table's own order: through an index of the filters' columns SQLite sorted every match by id first
  // (17 ms for page 1, 109 ms at row 50,000 of 100,000; the walk of every row one 15 ms step).
  if (q.sortBy === "location") {
    return db.select({ id: sql<number>`${inventory.id}` }).from(sql`${inventory} not indexed`)
      .where(inventoryFilters(q, false, walk ? "serial" : undefined))
      .orderBy(dir(inventory.id));
  }
  // By quantity: what is available, as the inventory list's sort by it.
  return idsInOrder(
    db,
    q,
    q.sortBy === "quantity" ? "quantity_available" : q.sortBy ?? "item_number",
    walk,
    dir,
  );
}

/**
 * GET /api/sales/inventory-locations: the location view, with the inventory list's filters.
 *
 * Named locations hold few rows; Base rows are one per inventory row. A page at `offset` starts at
 * most `h` (the named rows) rows after Base row `offset - h`, so only the Base rows from there (their
 * ids from an index, as the inventory list's) and the named rows are merged and sorted, whatever the
 * page: positions in that merge are positions in the view from its first Base row on.
 */
export async function listInventoryLocations(
  ctx: Ctx,
  q: LocationListQuery,
): Promise<ListResult<InventoryLocationOut>> {
  requireAbility(ctx.user, "sales.read");
  const { limit, offset } = pageWindow(q);
  const { stock, held } = await viewCounts(ctx, q);
  const from = limit === -1 ? 0 : Math.max(0, offset - held);
  // A broad serial search's page walks the order (reading every match and sorting them: 27 ms for page 2 of
  // "12" in 100,000 serials).
  const walk = !!q.search_serial_number && limit !== -1 &&
    await walkFindsSoon(ctx, inventory, stock, offset + limit);
  if (limit === -1) {
    const v = locationRows(ctx.db, inventoryFilters(q), heldBy(ctx.db, q));
    return {
      results: (await viewRowsWithRefs(ctx, v, viewOrder(q, v))).map((r) => r.row),
      total: stock + held,
    };
  }
  const rows = await pageStatementOf(q, walk).all(ctx.db, {
    baseLimit: offset + limit - from,
    baseOffset: from,
    limit,
    offset: offset - from,
  });
  return { results: presentView(rows).map((r) => r.row), total: stock + held };
}

/** The view's fields that filter it (every field but the page's own): what its counts are cached by. */
function filtersKey(q: LocationListQuery): string {
  const { page: _p, rowsPerPage: _r, sortBy: _s, descending: _d, ...filters } = q;
  return JSON.stringify(filters);
}

/**
 * How many Base rows (`stock`) and named rows (`held`) the filters match, cached like a list's total by the
 * filters themselves: keyed by their statements' text, both were built on every page only to be looked up.
 */
function viewCounts(ctx: Ctx, q: LocationListQuery): Promise<{ stock: number; held: number }> {
  return ctx.tdb.cachedTotal(`inventory-locations\u0000${filtersKey(q)}`, async () => {
    // The Base rows are the inventory list's rows: under its default filters, the figures kept by triggers. The
    // named rows by the same condition a page merges them by (`heldBy`): a page's place is counted from them.
    const [stock, [{ held }]] = await Promise.all([
      matchingRowCount(ctx, q),
      ctx.db.select({ held: count() }).from(inventory_locations)
        .where(and(sql`${inventory_locations.quantity} > 0`, heldBy(ctx.db, q))),
    ]);
    return { stock, held };
  });
}

/**
 * The named locations whose rows the filters match: each checked on its row (the serial by LIKE), as they are
 * few beside the Base rows.
 */
function heldBy(db: Ctx["db"], q: LocationListQuery): SQL {
  return exists(
    db.select({ one: sql`1` }).from(inventory)
      .where(and(eq(inventory.id, inventory_locations.inventory_id), inventoryFilters(q, false, "serial"))),
  );
}

/**
 * The view's rows from `v` (some or all of its Base and named rows, each part already filtered), in `order`, as
 * the API shows them, each with its `ref` (as `locationRows` names it).
 */
async function viewRowsWithRefs(
  ctx: Ctx,
  v: V,
  order: SQL[],
): Promise<{ ref: number; row: InventoryLocationOut }[]> {
  return presentView(await viewSelect(ctx.db, v, order));
}

/** The view's rows from `v` joined to what the API shows of them, in `order`. */
function viewSelect(db: Ctx["db"], v: V, order: SQL[]) {
  return db.select({
    v: { location: v.location, quantity: v.quantity, ref: v.ref },
    inv: inventory,
    item: ITEM_FIELDS,
    unit: UNIT_FIELDS,
  })
    // The view's rows first (`cross join` keeps that order): joined as an inner join, SQLite walked every
    // inventory row the filters match and looked each up in the view (70-140 ms a page of 100,000 rows).
    .from(v)
    .crossJoin(inventory)
    .innerJoin(items, eq(items.id, inventory.item_id))
    .innerJoin(units, eq(units.id, inventory.business_unit_id))
    .where(eq(inventory.id, v.inventory_id)).orderBy(...order).$dynamic();
}

type ViewRow = Awaited<ReturnType<ReturnType<typeof viewSelect>["all"]>>[number];

/** The view's rows as the API shows them, each with its `ref`. */
function presentView(rows: ViewRow[]): { ref: number; row: InventoryLocationOut }[] {
  return rows.map((r) => ({
    ref: Number(r.v.ref),
    row: {
      key: `${r.inv.id}:${r.v.location}`,
      inventory_id: r.inv.id,
      serial_number: r.inv.serial_number,
      inventory_description: r.inv.inventory_description,
      status: r.inv.status,
      calculated_inventory_status: calculatedStatus(r.inv),
      held_for_inspection: r.inv.held_for_inspection,
      hidden: r.inv.hidden,
      item: r.item,
      business_unit: { id: r.unit.id, name: r.unit.name, locations: unitLocations(r.unit) },
      location: r.v.location,
      quantity: Number(r.v.quantity),
    },
  }));
}

/**
 * A page of the view under one set of filters, order and walk, built once (db/shaped.ts) with the page's window
 * as placeholders: the statement (two parts, a subquery, four joins) took a third of the page's time to build
 * on every request. The last 64 sets are kept.
 */
const pageStatements = new Map<string, ReturnType<typeof pageStatement>>();

function pageStatement(q: LocationListQuery, walk: boolean) {
  // Each part of the view filtered where its rows are chosen: filtered again over the joined rows, a serial
  // search listed every match for it (9 ms a page of "12" in 100,000 serials).
  return shaped((db) => {
    const v = locationRows(
      db,
      inArray(
        inventory.id,
        idColumn(
          baseIdsInOrder(db, q, walk).limit(sql.placeholder("baseLimit")).offset(
            sql.placeholder("baseOffset"),
          ),
        ),
      ),
      heldBy(db, q),
    );
    return viewSelect(db, v, viewOrder(q, v)).limit(sql.placeholder("limit")).offset(
      sql.placeholder("offset"),
    );
  });
}

function pageStatementOf(q: LocationListQuery, walk: boolean) {
  const key = `${filtersKey(q)}\u0000${q.sortBy}\u0000${q.descending}\u0000${walk}`;
  let made = pageStatements.get(key);
  if (made) pageStatements.delete(key);
  else if (pageStatements.size >= 64) pageStatements.delete(pageStatements.keys().next().value!);
  made ??= pageStatement(q, walk);
  pageStatements.set(key, made);
  return made;
}

/**
 * The view's refs (`locationRows`) in its order by location or by quantity, every one, as the statements of a
 * walk (`rowsOfWalk`), each stepped from its first row on with no sort of every row first. By location: the
 * Base rows by id (all one place, first ascending), and the named rows by name. By quantity Base and named
 * rows interleave: one statement whose two parts SQLite merges (a compound select's ORDER BY: MERGE (UNION
 * ALL)), the Base rows from the list's index of what is available; its columns 2-6 are the view's order
 * (`viewOrder`): quantity, item, inventory row, place (Base first), location.
 */
export function viewWalk(ctx: Ctx, q: LocationListQuery): SQL[] {
  const where = inventoryFilters(q);
  const dir = q.descending ? desc : asc;
  const held = and(sql`${inventory_locations.quantity} > 0`, where);
  const onRow = eq(inventory.id, inventory_locations.inventory_id);
  const ref = sql<number>`-${inventory_locations.id}`.as("w_ref");
  if (q.sortBy === "location") {
    const base = baseIdsInOrder(ctx.db, q).getSQL();
    const named = ctx.db.select({ ref }).from(inventory_locations).innerJoin(inventory, onRow).where(held)
      .orderBy(dir(sql`${inventory_locations.name} collate nocase`), dir(inventory.id)).getSQL();
    return q.descending ? [named, base] : [base, named];
  }
  const base = ctx.db.select({
    ref: sql<number>`${inventory.id}`.as("w_ref"),
    quantity: sql<number>`${AVAILABLE}`.as("w_quantity"),
    item_id: sql<number>`${inventory.item_id}`.as("w_item_id"),
    inventory_id: sql<number>`${inventory.id}`.as("w_inventory_id"),
    ord: sql<number>`0`.as("w_ord"),
    location: sql<string>`${BASE}`.as("w_location"),
  }).from(inventory).where(where);
  const named = ctx.db.select({
    ref,
    quantity: sql<number>`${inventory_locations.quantity}`.as("w_quantity"),
    item_id: sql<number>`${inventory.item_id}`.as("w_item_id"),
    inventory_id: sql<number>`${inventory.id}`.as("w_inventory_id"),
    ord: sql<number>`1`.as("w_ord"),
    location: sql<string>`${inventory_locations.name}`.as("w_location"),
  }).from(inventory_locations).innerJoin(inventory, onRow).where(held);
  const d = q.descending ? "desc" : "asc";
  return [
    base.unionAll(named).orderBy(sql.raw(`2 ${d}, 3 ${d}, 4 ${d}, 5 asc, 6 collate nocase asc`)).getSQL(),
  ];
}

/** The view's rows of some refs (`locationRows`), in the refs' order. */
async function rowsOfRefs(ctx: Ctx, refs: number[]) {
  const baseIds = refs.filter((r) => r > 0);
  const namedIds = refs.filter((r) => r < 0).map((r) => -r);
  const v = locationRows(
    ctx.db,
    baseIds.length ? inJson(inventory.id, baseIds) : sql`0`,
    namedIds.length ? inJson(inventory_locations.id, namedIds) : sql`0`,
  );
  return inIdOrder(await viewRowsWithRefs(ctx, v, []), refs, (r) => r.ref).map((r) => r.row);
}

/**
 * Every row of the view, for its download and its JSON of every row (`page=-1`), walked once by its rows' ids
 * (`rowsOfWalk`), never by OFFSET pages (by location, 100,000 rows took 12.6 s with 144-173 ms turns). In the
 * orders on an inventory column each inventory row's Base and named locations come together: the inventory
 * ids are walked and a read of some ids is their rows in the view's order. By location or quantity Base and
 * named rows interleave: the view's own refs are walked (`viewWalk`). Where the walk cannot be stepped (a
 * remote database): OFFSET pages.
 */
export async function everyLocationRow<U>(
  ctx: Ctx,
  q: LocationListQuery,
  map: (row: InventoryLocationOut) => U,
) {
  requireAbility(ctx.user, "sales.read");
  const walked = q.sortBy === "location" || q.sortBy === "quantity"
    ? await rowsOfWalk(ctx, viewWalk(ctx, q), (refs) => rowsOfRefs(ctx, refs), map)
    : await rowsOfWalk(
      ctx,
      [baseIdsInOrder(ctx.db, q).getSQL()],
      async (ids) => {
        const v = locationRows(
          ctx.db,
          inJson(inventory.id, ids),
          inJson(inventory_locations.inventory_id, ids),
        );
        // Each row's places in order (Base, then its locations by name) from SQL; the rows in the walk's order
        // here (a stable sort): ordered by the view's columns SQLite walked every inventory row for each read.
        const rows = (await viewRowsWithRefs(ctx, v, [asc(v.ord), asc(sql`${v.location} collate nocase`)]))
          .map((r) => r.row);
        return inIdOrder(rows, ids, (r) => r.inventory_id);
      },
      map,
    );
  return walked ??
    await everyRow((page, rowsPerPage) => listInventoryLocations(ctx, { ...q, page, rowsPerPage }), map);
}

export const LOCATION_COLUMNS = [
  { header: "Serial Number", key: "serial_number", width: 18 },
  { header: "Item Number", key: "item_number", width: 16 },
  { header: "Item", key: "item_description", width: 30 },
  { header: "Business Unit", key: "business_unit", width: 20 },
  { header: "Location", key: "location", width: 18 },
  { header: "Quantity", key: "quantity", width: 10 },
];

/** GET /api/sales/inventory-locations/download: the location view as Inventory-YYYY-MM-DD.xlsx. */
export async function downloadInventoryLocations(ctx: Ctx, q: LocationListQuery, today = new Date()) {
  const row = (r: InventoryLocationOut) => ({
    ...r,
    item_number: r.item.item_number,
    item_description: r.item.item_description,
    business_unit: r.business_unit.name,
  });
  return xlsxResponse(
    "Inventory",
    LOCATION_COLUMNS,
    await everyLocationRow(ctx, q, row),
    today,
    { timeZone: timeZoneOf(ctx.user.company.settings) },
  );
}
