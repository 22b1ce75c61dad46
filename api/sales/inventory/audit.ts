import { and, eq, gt } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { Tx } from "../../../db/client.ts";
import {
  categories,
  inventory,
  inventory_audit,
  inventory_locations,
  items,
} from "../../../db/schema/mod.ts";
import type { CurrentUser } from "../../lib/context.ts";
import { calculatedStatus } from "./schemas.ts";
import { inJson } from "../../../db/in_json.ts";

export interface AuditExtra {
  ticket_number?: string;
  invoice_number?: string;
  customer_name?: string;
  sales_rep_name?: string;
  start_date?: string | null;
  calculated_inventory_status?: string;
}

/** One change to audit: which row, what happened, how much its quantity moved. */
export interface AuditEntry {
  inventoryId: number;
  action: string;
  quantityChange: number;
  extra?: AuditExtra;
}

const units = alias(categories, "audit_unit");
const rowCategories = alias(categories, "audit_category");
/** Rows read per statement; audit rows written per INSERT (about 20 parameters each). */
const READ_CHUNK = 400;
const WRITE_CHUNK = 50;

/**
 * Writes the audit row of a change to one inventory row, inside the change's own transaction: the
 * row as it now stands (names copied, locations as "Name: qty" text) and how much its quantity moved.
 * Call it after the change, with the same `tx`.
 */
export async function recordAudit(
  tx: Tx,
  user: Pick<CurrentUser, "id" | "name">,
  inventoryId: number,
  action: string,
  quantityChange: number,
  extra: AuditExtra = {},
): Promise<void> {
  await recordAudits(tx, user, [{ inventoryId, action, quantityChange, extra }]);
}

/** recordAudit for many changes at once (a batch upload): a few statements per 400 rows, not four per row. */
export async function recordAudits(
  tx: Tx,
  user: Pick<CurrentUser, "id" | "name">,
  entries: AuditEntry[],
): Promise<void> {
  for (let i = 0; i < entries.length; i += READ_CHUNK) {
    const chunk = entries.slice(i, i + READ_CHUNK);
    const ids = [...new Set(chunk.map((e) => e.inventoryId))];
    const rows = await tx.select({
      inv: inventory,
      item: { item_number: items.item_number, item_description: items.item_description },
      unit: units.name,
      category: rowCategories.name,
    }).from(inventory)
      .innerJoin(items, eq(items.id, inventory.item_id))
      .innerJoin(units, eq(units.id, inventory.business_unit_id))
      .leftJoin(rowCategories, eq(rowCategories.id, inventory.category_id))
      .where(inJson(inventory.id, ids));
    const byId = new Map(rows.map((r) => [r.inv.id, r]));
    const locations = new Map<number, string[]>();
    const held = await tx.select().from(inventory_locations)
      .where(and(inJson(inventory_locations.inventory_id, ids), gt(inventory_locations.quantity, 0)))
      .orderBy(inventory_locations.name);
    for (const l of held) {
      locations.set(l.inventory_id, [...locations.get(l.inventory_id) ?? [], `${l.name}: ${l.quantity}`]);
    }
    const values = chunk.map(({ inventoryId, action, quantityChange, extra = {} }) => {
      const row = byId.get(inventoryId);
      if (!row) throw new Error(`recordAudit: inventory ${inventoryId} not found`);
      return {
        action,
        updated_by_id: user.id,
        updated_by_name: user.name,
        inventory_id: inventoryId,
        serial_number: row.inv.serial_number,
        item_number: row.item.item_number,
        item_description: row.item.item_description,
        status: row.inv.status,
        quantity: row.inv.quantity,
        quantity_change: quantityChange,
        category: row.category ?? "",
        business_unit: row.unit,
        locations: (locations.get(inventoryId) ?? []).join(", "),
        ...extra,
        calculated_inventory_status: extra.calculated_inventory_status ?? calculatedStatus(row.inv),
      };
    });
    for (let j = 0; j < values.length; j += WRITE_CHUNK) {
      await tx.insert(inventory_audit).values(values.slice(j, j + WRITE_CHUNK));
    }
  }
}
