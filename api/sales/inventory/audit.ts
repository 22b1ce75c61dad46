import { eq } from "drizzle-orm";
import type { Tx } from "../../../db/client.ts";
import {
  categories,
  inventory,
  inventory_audit,
  inventory_locations,
  items,
} from "../../../db/schema/mod.ts";
import type { CurrentUser } from "../../lib/context.ts";

export interface AuditExtra {
  ticket_number?: string;
  invoice_number?: string;
  customer_name?: string;
  sales_rep_name?: string;
  start_date?: string | null;
  calculated_inventory_status?: string;
}

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
  const [row] = await tx.select({ inv: inventory, item: items, unit: categories.name }).from(inventory)
    .innerJoin(items, eq(items.id, inventory.item_id))
    .innerJoin(categories, eq(categories.id, inventory.business_unit_id))
    .where(eq(inventory.id, inventoryId));
  if (!row) throw new Error(`recordAudit: inventory ${inventoryId} not found`);
  const category = row.inv.category_id
    ? (await tx.select({ name: categories.name }).from(categories).where(
      eq(categories.id, row.inv.category_id),
    ))[0]
      ?.name ?? ""
    : "";
  const locations = await tx.select().from(inventory_locations)
    .where(eq(inventory_locations.inventory_id, inventoryId)).orderBy(inventory_locations.name);
  await tx.insert(inventory_audit).values({
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
    category,
    business_unit: row.unit,
    locations: locations.filter((l) => l.quantity > 0).map((l) => `${l.name}: ${l.quantity}`).join(", "),
    ...extra,
    calculated_inventory_status: extra.calculated_inventory_status ?? "",
  });
}
