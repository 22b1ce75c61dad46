/**
 * Sales & Inventory demo data: business units with yard locations, categories, product lines, taxes,
 * an item catalogue of the three inventory types, stock in every unit, some of it moved to yard
 * locations, one business-unit transfer, and a template per unit. Every record goes through the
 * services a sales admin's requests use, so each quantity change has its audit row, written in the
 * same transaction. `large` is the benchmark volume: about 5,000 inventory rows.
 */
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { TenantDatabase, Tx } from "../db/client.ts";
import type { TenantDb } from "../db/tenants.ts";
import type { Config } from "../api/config.ts";
import type { Ctx } from "../api/lib/context.ts";
import { categories, type Company, inventory, items, users } from "../db/schema/mod.ts";
import { presentUser } from "../api/admin/users/present.ts";
import { saveCategory } from "../api/sales/categories/service.ts";
import { saveSubCategory } from "../api/sales/sub_categories/service.ts";
import { saveTax } from "../api/sales/taxes/service.ts";
import { saveItem } from "../api/sales/items/service.ts";
import {
  saveInventoryBatch,
  transferBusinessUnit,
  transferLocation,
} from "../api/sales/inventory/service.ts";
import { saveTemplate } from "../api/sales/templates/service.ts";
import type { DemoSize } from "./demo_pt.ts";

/** Name, code (serial prefix of its stock), yard locations. */
export const UNITS = [
  ["Midland", "MID", ["Yard A", "Yard B"]],
  ["Odessa", "ODE", ["North Yard", "South Yard", "Pipe Rack"]],
  ["Pecos", "PEC", ["Main Yard", "Rack 2"]],
] as const;

const INVENTORY_CATEGORIES = ["Rental Fleet", "Sales Stock", "Charges"] as const;
const ITEM_CATEGORIES = ["Flow Iron", "Valves", "Pumps", "Service Charges"] as const;
const PRODUCT_LINES = [
  ["Flowback", ["Iron Rental", "Well Testing"]],
  ["Frac Rentals", ["Ground Iron", "Pump Services", "Wireline Support"]],
] as const;
const TAXES = [
  ["Midland County", "Midland", "Midland", 1.5],
  ["Ector County", "Ector", "Odessa", 1.25],
  ["Reeves County", "Reeves", "Pecos", 1.5],
] as const;

type ItemType = "Serialized" | "Itemized" | "Charge Code";
/** Item number, description, inventory type, rate, units, item category, sold (not rented). */
const ITEMS: [string, string, ItemType, number, string, (typeof ITEM_CATEGORIES)[number], boolean?][] = [
  ["FI-2SW", "2in 1502 Chiksan swivel joint", "Itemized", 45, "Per Day", "Flow Iron"],
  ["FI-3SW", "3in 1502 swivel joint", "Itemized", 65, "Per Day", "Flow Iron"],
  ["FI-2PJ10", "2in x 10ft 1502 pup joint", "Itemized", 30, "Per Day", "Flow Iron"],
  ["FI-3TI20", "3in x 20ft treating iron", "Itemized", 55, "Per Day", "Flow Iron"],
  ["FI-2HU", "2in 1502 hammer union", "Itemized", 8, "Per Day", "Flow Iron"],
  ["FI-3TEE", "3in 1502 tee", "Itemized", 35, "Per Day", "Flow Iron"],
  ["FI-3X2", "3in x 2in 1502 crossover", "Itemized", 20, "Per Day", "Flow Iron"],
  ["FI-SEAL", "1502 seal ring", "Itemized", 12, "Per Item", "Flow Iron", true],
  ["PV-2", "2in 1502 plug valve, 15K", "Serialized", 150, "Per Day", "Valves"],
  ["PV-3", "3in 1502 plug valve, 15K", "Serialized", 210, "Per Day", "Valves"],
  ["GV-4", "4-1/16in 10K gate valve", "Serialized", 325, "Per Day", "Valves"],
  ["CV-2", "2in 1502 dart check valve", "Serialized", 95, "Per Day", "Valves"],
  ["CM-2", "2in 15K choke manifold", "Serialized", 850, "Per Day", "Valves"],
  ["PMP-TRX", "Triplex pump, 600 HP", "Serialized", 1400, "Per Day", "Pumps"],
  ["PMP-TRF", "Transfer pump, 4in", "Serialized", 275, "Per Day", "Pumps"],
  ["CC-MILE", "Mileage", "Charge Code", 4.5, "Per Item", "Service Charges"],
  ["CC-DEL", "Delivery", "Charge Code", 350, "Per Item", "Service Charges"],
  ["CC-PICK", "Pickup", "Charge Code", 350, "Per Item", "Service Charges"],
  ["CC-TECH", "Service Tech Hours", "Charge Code", 95, "Per Hour", "Service Charges"],
  ["CC-STBY", "Standby", "Charge Code", 75, "Per Hour", "Service Charges"],
  ["CC-PT", "Pressure test charge", "Charge Code", 450, "Per Item", "Service Charges"],
];
const MANUFACTURERS = ["SPM", "FMC", "Weir", "Kemper"];
/** Each unit's template: charge codes first, then the iron, in the order a ticket lists them. */
const TEMPLATE_ITEMS = ["CC-DEL", "CC-MILE", "CC-TECH", "FI-2SW", "FI-2PJ10", "FI-2HU", "CC-PICK"];
/**
 * Extra stock of each template's iron in every unit, beyond what the demo tickets and yards take, so
 * every template still makes tickets after the demo (a template line holds one of each).
 */
const TEMPLATE_SPARE = 40;

export interface SeedSalesResult {
  businessUnits: number;
  items: number;
  inventory: number;
  templates: number;
}

/**
 * A service context for the seeding user: writes run in plain transactions, one at a time, each a write
 * group of its own (with its own notes, as TenantDb makes them for every group).
 */
export function contextFor(db: TenantDatabase, user: Ctx["user"]): Ctx {
  const tdb = {
    db,
    groupNotes: new Map<string, unknown>(),
    write: <T>(fn: (tx: Tx) => Promise<T>) =>
      db.transaction((tx) => {
        tdb.groupNotes = new Map();
        return fn(tx);
      }),
  };
  // The sales services read no configuration.
  return { tdb: tdb as unknown as TenantDb, db, user, config: {} as Config };
}

/** The owner's first sales admin (the tenant's own admin), as the services see a signed-in user. */
export async function salesAdmin(db: TenantDatabase, owner: Company): Promise<Ctx["user"] | undefined> {
  const staff = await db.select().from(users)
    .where(and(eq(users.company_id, owner.id), eq(users.active, true))).orderBy(asc(users.id));
  const admin = staff.find((u) => u.permissions.includes("sales-admin"));
  return admin && presentUser(admin, owner);
}

/** Reference data: units, categories, product lines and their sub lines, taxes. Unit ids by name. */
async function seedReference(ctx: Ctx): Promise<Map<string, number>> {
  const unitIds = new Map<string, number>();
  for (const [name, , locations] of UNITS) {
    const unit = await saveCategory(ctx, {
      model: "Business Unit",
      name,
      custom: { locations: [...locations] },
    });
    unitIds.set(name, unit.id);
  }
  for (const name of INVENTORY_CATEGORIES) await saveCategory(ctx, { model: "Inventory Category", name });
  for (const name of ITEM_CATEGORIES) await saveCategory(ctx, { model: "Item Category", name });
  for (const [name, subs] of PRODUCT_LINES) {
    const line = await saveCategory(ctx, { model: "Product Line", name });
    for (const sub of subs) await saveSubCategory(ctx, { category_id: line.id, name: sub });
  }
  for (const [name, county, city, city_rate] of TAXES) {
    await saveTax(ctx, { name, state: "TX", county, city, state_rate: 6.25, county_rate: 0.5, city_rate });
  }
  return unitIds;
}

/** The catalogue; an item number already there is kept as it is. */
async function seedItems(ctx: Ctx): Promise<number> {
  const cats = new Map(
    (await ctx.db.select().from(categories).where(eq(categories.model, "Item Category")))
      .map((c) => [c.name, c.id]),
  );
  const known = new Set(
    (await ctx.db.select({ n: items.item_number }).from(items)
      .where(inArray(items.item_number, ITEMS.map((i) => i[0])))).map((i) => i.n),
  );
  let made = 0;
  for (const [item_number, item_description, inventory_type, rate, units, category, sold] of ITEMS) {
    if (known.has(item_number)) continue;
    await saveItem(ctx, {
      item_number,
      item_description,
      inventory_type,
      rate,
      units,
      item_type: sold || inventory_type === "Charge Code" ? "Sales" : "Rental",
      isTaxable: inventory_type !== "Charge Code",
      isExpendable: !!sold,
      isService: inventory_type === "Charge Code",
      category_id: cats.get(category),
    });
    made++;
  }
  return made;
}

/** One unit's stock as batch-upload rows: serialized units of one, iron by the tens, charge codes. */
function stockRows(code: string, unitIndex: number, serialsPerItem: number) {
  const rows: Record<string, unknown>[] = [];
  ITEMS.forEach(([number, , type, , , , sold], k) => {
    if (type === "Serialized") {
      for (let s = 0; s < serialsPerItem; s++) {
        const n = (unitIndex * serialsPerItem + s) * ITEMS.length + k;
        rows.push({
          serial_number: `${number}-${String(10001 + unitIndex * serialsPerItem + s)}`,
          item_number: number,
          status: n % 13 === 5 ? "Repair" : "Available",
          quantity: 1,
          category: "Rental Fleet",
          purchase_date: `20${String(18 + (n % 6)).padStart(2, "0")}-${
            String(1 + (n % 12)).padStart(2, "0")
          }-15`,
          purchase_price: 1000 + (n % 9) * 650,
          manufacturer: MANUFACTURERS[n % MANUFACTURERS.length],
        });
      }
    } else {
      rows.push({
        serial_number: `${code}-${number}`,
        item_number: number,
        quantity: type === "Charge Code"
          ? 0
          : sold
          ? 200 + 25 * k
          : 12 + ((k * 7 + unitIndex * 11) % 49) + (TEMPLATE_ITEMS.includes(number) ? TEMPLATE_SPARE : 0),
        category: type === "Charge Code" ? "Charges" : sold ? "Sales Stock" : "Rental Fleet",
      });
    }
  });
  return rows;
}

/** Rows of a unit by serial number. */
async function rowsOf(db: TenantDatabase, unitId: number) {
  const rows = await db.select({
    id: inventory.id,
    serial: inventory.serial_number,
    quantity: inventory.quantity,
  })
    .from(inventory).where(eq(inventory.business_unit_id, unitId));
  return new Map(rows.map((r) => [r.serial, r]));
}

/** Some iron out in each unit's yards, a valve at a rack, and iron lent from Midland to Odessa. */
async function seedMoves(ctx: Ctx, unitIds: Map<string, number>, serialsPerItem: number) {
  const iron = ITEMS.filter(([, , type, , , , sold]) => type === "Itemized" && !sold).slice(0, 4);
  for (const [i, [name, code, locations]] of UNITS.entries()) {
    const stock = await rowsOf(ctx.db, unitIds.get(name)!);
    const moves = iron.map(([number], k) => {
      const row = stock.get(`${code}-${number}`)!;
      return { row, to: locations[k % locations.length], quantity: Math.floor(row.quantity / 3) };
    });
    const valve = stock.get(`PV-2-${10001 + i * serialsPerItem}`)!;
    moves.push({ row: valve, to: locations[locations.length - 1], quantity: 1 });
    for (const { row, to, quantity } of moves) {
      await transferLocation(ctx, { inventory_id: row.id, fromLocation: "Base", toLocation: to, quantity });
    }
  }
  const lent = (await rowsOf(ctx.db, unitIds.get("Midland")!)).get("MID-FI-3SW")!;
  await transferBusinessUnit(ctx, {
    inventory_id: lent.id,
    to_business_unit_id: unitIds.get("Odessa"),
    quantity: 6,
  });
}

/** A template per unit, of that unit's charge codes and iron. */
async function seedTemplates(ctx: Ctx, unitIds: Map<string, number>) {
  for (const [name, code] of UNITS) {
    const stock = await rowsOf(ctx.db, unitIds.get(name)!);
    await saveTemplate(ctx, {
      name: `${name} flowback rig-up`,
      business_unit_id: unitIds.get(name),
      inventory_ids: TEMPLATE_ITEMS.map((n) => stock.get(`${code}-${n}`)!.id),
    });
  }
}

/**
 * Adds the Sales & Inventory demo unless the tenant already has business units (a second run, or a
 * tenant in use): then it does nothing and answers undefined. Needs a sales admin of the owner.
 */
export async function seedSales(
  db: TenantDatabase,
  owner: Company,
  size: DemoSize = "small",
  log: (line: string) => void = () => {},
): Promise<SeedSalesResult | undefined> {
  const has = await db.select({ id: categories.id }).from(categories)
    .where(eq(categories.model, "Business Unit")).limit(1).get();
  if (has) return undefined;
  const user = await salesAdmin(db, owner);
  if (!user) return undefined;
  const ctx = contextFor(db, user);

  const unitIds = await seedReference(ctx);
  const made = await seedItems(ctx);
  const serialsPerItem = size === "large" ? 236 : 3;
  for (const [i, [name, code]] of UNITS.entries()) {
    const result = await saveInventoryBatch(ctx, {
      business_unit_id: unitIds.get(name),
      rows: stockRows(code, i, serialsPerItem),
    });
    log(`inventory ${name}: ${result.message}`);
  }

  await seedMoves(ctx, unitIds, serialsPerItem);
  await seedTemplates(ctx, unitIds);
  const [{ n }] = await db.select({ n: sql<number>`count(*)` }).from(inventory);
  log(`sales: ${UNITS.length} business units, ${made} items, ${n} inventory rows`);
  return { businessUnits: UNITS.length, items: made, inventory: n, templates: UNITS.length };
}
