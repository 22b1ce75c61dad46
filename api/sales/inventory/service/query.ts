import { and, eq, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import {
  categories,
  type Category,
  inventory,
  inventory_locations,
  items,
  users,
} from "../../../../db/schema/mod.ts";
import type { TenantDatabase, Tx } from "../../../../db/client.ts";
import { drivenByIds, idsValue, rowsInIdOrder, shaped } from "../../../../db/shaped.ts";
import { AppError, invalid } from "../../../../lib/errors.ts";
import {
  BASE,
  calculatedStatus,
  type InventoryOut,
  type LocationQuantity,
  UNKNOWN_BUSINESS_UNIT,
  UNKNOWN_CATEGORY,
} from "../schemas.ts";

type Db = TenantDatabase | Tx;

export const units = alias(categories, "business_unit");
const inventoryCategories = alias(categories, "inventory_category");

/** quantity − out on tickets − out at locations, as SQL. */
export const AVAILABLE = sql<
  number
>`(${inventory.quantity} - ${inventory.quantity_out} - ${inventory.quantity_out_location})`;

export const ITEM_FIELDS = {
  id: items.id,
  item_number: items.item_number,
  item_description: items.item_description,
  rate: items.rate,
  isTaxable: items.isTaxable,
  isExpendable: items.isExpendable,
  inventory_type: items.inventory_type,
};
export const UNIT_FIELDS = { id: units.id, name: units.name, custom: units.custom };

/**
 * Join conditions made once: a statement's joins are built once per condition (db/query_building.ts). A stock
 * row's item and business unit are joined by the lists and the line saves too.
 */
export const ON_STOCK_ITEM = eq(items.id, inventory.item_id);
export const ON_STOCK_UNIT = eq(units.id, inventory.business_unit_id);
const ON_CATEGORY = eq(inventoryCategories.id, inventory.category_id);
const ON_UPDATED_BY = eq(users.id, inventory.updated_by_id);

const FIELDS = {
  inv: inventory,
  item: ITEM_FIELDS,
  unit: UNIT_FIELDS,
  category: { id: inventoryCategories.id, name: inventoryCategories.name },
  updated_by: { id: users.id, name: users.name },
};

/** Inventory rows with their item, business unit, category and last editor. */
export function selectInventory(db: Db) {
  return db.select(FIELDS).from(inventory)
    .innerJoin(items, ON_STOCK_ITEM)
    .innerJoin(units, ON_STOCK_UNIT)
    .leftJoin(inventoryCategories, ON_CATEGORY)
    .leftJoin(users, ON_UPDATED_BY);
}

type Row = Awaited<ReturnType<ReturnType<typeof selectInventory>["all"]>>[number];

/** Rows by their ids as one JSON array: one statement for every page, built once (db/shaped.ts). */
const ROWS_BY_IDS = shaped((db) => drivenByIds(selectInventory(db), inventory.id));

/** The rows of these ids, in the ids' order (a list page's). */
export const inventoryRowsByIds = (db: Db, ids: number[]) =>
  rowsInIdOrder(ROWS_BY_IDS, db, ids, (r) => r.inv.id);

/** A business unit's yard locations: trimmed, without blanks, repeats or the reserved 'Base'. */
export function unitLocations(unit: Pick<Category, "custom">): string[] {
  const raw = Array.isArray(unit.custom?.locations) ? unit.custom.locations : [];
  const seen = new Map<string, string>();
  for (const v of raw) {
    const name = typeof v === "string" ? v.trim() : "";
    if (name && name.toLowerCase() !== BASE.toLowerCase() && !seen.has(name.toLowerCase())) {
      seen.set(name.toLowerCase(), name);
    }
  }
  return [...seen.values()];
}

const CHUNK = 400;

/** The non-zero location rows of the stock rows given as one JSON array, built once. */
const LOCATIONS_OF = shaped((db) =>
  drivenByIds(
    db.select({
      inventory_id: inventory_locations.inventory_id,
      name: inventory_locations.name,
      quantity: inventory_locations.quantity,
    }).from(inventory_locations).where(sql`${inventory_locations.quantity} > 0`),
    inventory_locations.inventory_id,
  ).orderBy(sql`${inventory_locations.name} collate nocase`)
);

/** The non-zero location quantities of these rows, by name. */
export async function loadLocations(db: Db, rowIds: number[]): Promise<Map<number, LocationQuantity[]>> {
  const found = new Map<number, LocationQuantity[]>();
  const ids = [...new Set(rowIds)];
  for (let i = 0; i < ids.length; i += CHUNK) {
    const rows = await LOCATIONS_OF.all(db, idsValue(ids.slice(i, i + CHUNK)));
    for (const r of rows) {
      const list = found.get(r.inventory_id) ?? [];
      list.push({ name: r.name, quantity: r.quantity });
      found.set(r.inventory_id, list);
    }
  }
  return found;
}

/** The one wire shape of an inventory row. */
export function presentInventory(r: Row, locations: LocationQuantity[] = []): InventoryOut {
  const { inv } = r;
  return {
    ...inv,
    custom: inv.custom ?? {},
    quantity_available: inv.quantity - inv.quantity_out - inv.quantity_out_location,
    calculated_inventory_status: calculatedStatus(inv),
    item: r.item,
    business_unit: { id: r.unit.id, name: r.unit.name, locations: unitLocations(r.unit) },
    category: r.category,
    locations,
    updated_by: r.updated_by,
  };
}

/** Rows in their wire shape, locations loaded in one query per 400 rows. */
export async function presentAll(db: Db, rows: Row[]): Promise<InventoryOut[]> {
  const locations = await loadLocations(db, rows.map((r) => r.inv.id));
  return rows.map((r) => presentInventory(r, locations.get(r.inv.id)));
}

/** One row in its wire shape; 404 when it does not exist. */
export async function getInventory(db: Db, id: number): Promise<InventoryOut> {
  const row = await selectInventory(db).where(eq(inventory.id, id)).get();
  if (!row) throw new AppError("not_found", "Inventory not found.");
  return (await presentAll(db, [row]))[0];
}

/** A category of one model, or a 422 naming the field. */
async function categoryOf(db: Db, id: number, model: Category["model"], path: string, message: string) {
  const row = await db.select().from(categories)
    .where(and(eq(categories.id, id), eq(categories.model, model))).get();
  if (!row) throw invalid(path, message);
  return row;
}

export const requireBusinessUnit = (db: Db, id: number, path = "business_unit_id") =>
  categoryOf(db, id, "Business Unit", path, UNKNOWN_BUSINESS_UNIT);

export const requireInventoryCategory = (db: Db, id: number) =>
  categoryOf(db, id, "Inventory Category", "category_id", UNKNOWN_CATEGORY);

/** Same item, unit and serial number (ignoring case): the row's identity. */
export function sameStock(itemId: number, unitId: number, serial: string): SQL {
  return and(
    eq(inventory.item_id, itemId),
    eq(inventory.business_unit_id, unitId),
    sql`${inventory.serial_number} = ${serial} collate nocase`,
  )!;
}
