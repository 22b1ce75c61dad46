import { and, asc, type Column, count, desc, eq, or, type SQL, sql } from "drizzle-orm";
import { inventory, inventory_locations, items } from "../../../../db/schema/mod.ts";
import type { Ctx } from "../../../lib/context.ts";
import { everyRow, likeContains, type ListResult, pageWindow } from "../../../lib/list_query.ts";
import { xlsxResponse } from "../../../lib/xlsx.ts";
import { requireSalesReader } from "../../access.ts";
import {
  BASE,
  type InventoryList,
  type InventoryListQuery,
  type InventoryLocationOut,
  type LocationListQuery,
} from "../schemas.ts";
import {
  AVAILABLE,
  ITEM_FIELDS,
  presentAll,
  selectInventory,
  UNIT_FIELDS,
  unitLocations,
  units,
} from "./query.ts";

const contains = (col: Column, text: string | undefined) =>
  text ? sql`${col} like ${likeContains(text)} escape '\\'` : undefined;

/** The filters both views share; they name inventory's and items' columns. */
function inventoryFilters(q: InventoryListQuery | LocationListQuery): SQL | undefined {
  return and(
    q.inventory_type ? eq(items.inventory_type, q.inventory_type) : undefined,
    q.include_hidden ? undefined : eq(inventory.hidden, false),
    q.status ? eq(inventory.status, q.status) : undefined,
    q.business_unit_id ? eq(inventory.business_unit_id, q.business_unit_id) : undefined,
    contains(inventory.serial_number, q.search_serial_number),
    q.search_item_description
      ? or(
        contains(items.item_description, q.search_item_description),
        contains(inventory.inventory_description, q.search_item_description),
      )
      : undefined,
    contains(items.item_number, q.search_item_number),
    contains(inventory.inventory_description, q.search_inventory_description),
  );
}

const nocase = (col: Column) => sql`${col} collate nocase`;
const SORT = {
  serial_number: nocase(inventory.serial_number),
  item_number: nocase(items.item_number),
  item_description: nocase(items.item_description),
  business_unit: nocase(units.name),
  quantity: sql`${inventory.quantity}`,
  quantity_available: AVAILABLE,
  updated_at: sql`${inventory.updated_at}`,
};
const DEFAULT_ORDER = [SORT.item_number, SORT.serial_number, sql`${inventory.id}`];

/**
 * GET /api/sales/inventory: one page of rows, by item number and serial unless sorted otherwise,
 * and the Totals row over every row the filters match.
 */
export async function listInventory(ctx: Ctx, q: InventoryListQuery): Promise<InventoryList> {
  requireSalesReader(ctx.user);
  const where = inventoryFilters(q);
  const dir = q.descending ? desc : asc;
  const order = q.sortBy ? [dir(SORT[q.sortBy]), dir(inventory.id)] : DEFAULT_ORDER;
  const { limit, offset } = pageWindow(q);
  const [rows, [sums]] = await Promise.all([
    selectInventory(ctx.db).where(where).orderBy(...order).limit(limit).offset(offset),
    ctx.db.select({
      total: count(),
      quantity: sql<number>`coalesce(sum(${inventory.quantity}), 0)`,
      quantity_out: sql<number>`coalesce(sum(${inventory.quantity_out}), 0)`,
      quantity_out_location: sql<number>`coalesce(sum(${inventory.quantity_out_location}), 0)`,
      quantity_available: sql<number>`coalesce(sum(${AVAILABLE}), 0)`,
    }).from(inventory).innerJoin(items, eq(items.id, inventory.item_id)).where(where),
  ]);
  const { total, ...totals } = sums;
  return { results: await presentAll(ctx.db, rows), total, totals };
}

/**
 * Each inventory row at 'Base' (its available quantity: not on tickets, not at a named location),
 * and at every named location holding some of it.
 */
function locationRows(db: Ctx["db"]) {
  const base = db.select({
    inventory_id: sql<number>`${inventory.id}`.as("v_inventory_id"),
    location: sql<string>`${BASE}`.as("v_location"),
    quantity: sql<number>`${AVAILABLE}`.as("v_quantity"),
    ord: sql<number>`0`.as("v_ord"),
  }).from(inventory);
  const named = db.select({
    inventory_id: sql<number>`${inventory_locations.inventory_id}`.as("v_inventory_id"),
    location: sql<string>`${inventory_locations.name}`.as("v_location"),
    quantity: sql<number>`${inventory_locations.quantity}`.as("v_quantity"),
    ord: sql<number>`1`.as("v_ord"),
  }).from(inventory_locations).where(sql`${inventory_locations.quantity} > 0`);
  return base.unionAll(named).as("v");
}

/** GET /api/sales/inventory-locations: the location view, with the inventory list's filters. */
export async function listInventoryLocations(
  ctx: Ctx,
  q: LocationListQuery,
): Promise<ListResult<InventoryLocationOut>> {
  requireSalesReader(ctx.user);
  const v = locationRows(ctx.db);
  const where = inventoryFilters(q);
  const place = [sql`${v.ord}`, sql`${v.location} collate nocase`];
  const sorts: Record<NonNullable<LocationListQuery["sortBy"]>, SQL[]> = {
    serial_number: [SORT.serial_number],
    item_number: [SORT.item_number],
    item_description: [SORT.item_description],
    business_unit: [SORT.business_unit],
    location: place,
    quantity: [sql`${v.quantity}`],
  };
  const dir = q.descending ? desc : asc;
  const order = q.sortBy
    ? [...sorts[q.sortBy].map((s) => dir(s)), asc(inventory.id), ...place]
    : [...DEFAULT_ORDER, ...place];
  const { limit, offset } = pageWindow(q);
  const [rows, [{ total }]] = await Promise.all([
    ctx.db.select({
      v: { location: v.location, quantity: v.quantity },
      inv: inventory,
      item: ITEM_FIELDS,
      unit: UNIT_FIELDS,
    })
      .from(v)
      .innerJoin(inventory, eq(inventory.id, v.inventory_id))
      .innerJoin(items, eq(items.id, inventory.item_id))
      .innerJoin(units, eq(units.id, inventory.business_unit_id))
      .where(where).orderBy(...order).limit(limit).offset(offset),
    ctx.db.select({ total: count() }).from(v)
      .innerJoin(inventory, eq(inventory.id, v.inventory_id))
      .innerJoin(items, eq(items.id, inventory.item_id))
      .where(where),
  ]);
  return {
    results: rows.map((r) => ({
      key: `${r.inv.id}:${r.v.location}`,
      inventory_id: r.inv.id,
      serial_number: r.inv.serial_number,
      inventory_description: r.inv.inventory_description,
      status: r.inv.status,
      hidden: r.inv.hidden,
      item: r.item,
      business_unit: { id: r.unit.id, name: r.unit.name, locations: unitLocations(r.unit) },
      location: r.v.location,
      quantity: Number(r.v.quantity),
    })),
    total,
  };
}

export const INVENTORY_COLUMNS = [
  { header: "Serial Number", key: "serial_number", width: 18 },
  { header: "Item Number", key: "item_number", width: 16 },
  { header: "Item", key: "item_description", width: 30 },
  { header: "Inv. Description", key: "inventory_description", width: 30 },
  { header: "Business Unit", key: "business_unit", width: 20 },
  { header: "Category", key: "category", width: 18 },
  { header: "Status", key: "status", width: 10 },
  { header: "Quantity", key: "quantity", width: 10 },
  { header: "Quantity Out (Tickets)", key: "quantity_out", width: 12 },
  { header: "Quantity Out (Location)", key: "quantity_out_location", width: 12 },
  { header: "Quantity Available", key: "quantity_available", width: 12 },
  { header: "Locations", key: "locations", width: 28 },
  { header: "Purchase Date", key: "purchase_date", width: 12 },
  { header: "Purchase Price", key: "purchase_price", width: 12 },
  { header: "Manufacturer", key: "manufacturer", width: 18 },
  { header: "Location", key: "location", width: 18 },
  { header: "Hidden", key: "hidden", width: 8 },
  { header: "Last Updated By", key: "updated_by", width: 20 },
  { header: "Updated At", key: "updated_at", width: 20 },
];

/** GET /api/sales/inventory/download: the list's filters, every row, as Inventory-YYYY-MM-DD.xlsx. */
export async function downloadInventory(ctx: Ctx, q: InventoryListQuery, today = new Date()) {
  return xlsxResponse(
    "Inventory",
    INVENTORY_COLUMNS,
    await everyRow((page, rowsPerPage) => listInventory(ctx, { ...q, page, rowsPerPage }), (r) => ({
      ...r,
      item_number: r.item.item_number,
      item_description: r.item.item_description,
      business_unit: r.business_unit.name,
      category: r.category?.name ?? "",
      locations: r.locations.map((l) => `${l.name}: ${l.quantity}`).join(", "),
      hidden: r.hidden ? "Yes" : "No",
      updated_by: r.updated_by?.name ?? "",
    })),
    today,
  );
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
  return xlsxResponse(
    "Inventory",
    LOCATION_COLUMNS,
    await everyRow((page, rowsPerPage) => listInventoryLocations(ctx, { ...q, page, rowsPerPage }), (r) => ({
      ...r,
      item_number: r.item.item_number,
      item_description: r.item.item_description,
      business_unit: r.business_unit.name,
    })),
    today,
  );
}
