import { and, eq, sql } from "drizzle-orm";
import { inventory, type InventoryRow, items } from "../../../../db/schema/mod.ts";
import type { Tx } from "../../../../db/client.ts";
import type { Ctx } from "../../../lib/context.ts";
import { AppError, invalid } from "../../../../lib/errors.ts";
import { parse } from "../../../lib/validate.ts";
import { nowStamp } from "../../../lib/db_helpers.ts";
import { requireAbility } from "../../../../lib/policy.ts";
import { recordAudit } from "../audit.ts";
import { BusinessUnitTransferInput, exceedsMessage, type InventoryOut, maxQuantity } from "../schemas.ts";
import { AVAILABLE, getInventory, requireBusinessUnit, sameStock } from "./query.ts";
import { startDueLines } from "../../lines/start_due.ts";
import { timeZoneOf } from "../../../../lib/format.ts";
import { requireBookingsFit } from "../../lines/reservations.ts";

const overLimit = (max: number) => `The target row cannot hold more than ${max}`;

export interface UnitTransferResult {
  message: string;
  from: InventoryOut;
  to: InventoryOut;
}

/** The same item and serial in the target unit; made with no stock when absent, like the source. */
async function targetRow(
  tx: Tx,
  source: InventoryRow,
  unitId: number,
  userId: number,
): Promise<InventoryRow> {
  const found = await tx.select().from(inventory)
    .where(sameStock(source.item_id, unitId, source.serial_number)).get();
  if (found) return found;
  const [made] = await tx.insert(inventory).values({
    company_id: source.company_id,
    item_id: source.item_id,
    business_unit_id: unitId,
    serial_number: source.serial_number,
    inventory_description: source.inventory_description,
    category_id: source.category_id,
    status: source.status,
    quantity: 0,
    purchase_date: source.purchase_date,
    purchase_price: source.purchase_price,
    manufacturer: source.manufacturer,
    minimum_rate: source.minimum_rate,
    additional_day: source.additional_day,
    updated_by_id: userId,
  }).returning();
  return made;
}

/** Takes `quantity` off the source only while that much is available, in the statement itself. */
async function takeFrom(tx: Tx, id: number, quantity: number, userId: number): Promise<boolean> {
  const done = await tx.update(inventory)
    .set({
      quantity: sql`${inventory.quantity} - ${quantity}`,
      updated_by_id: userId,
      updated_at: nowStamp(),
    })
    .where(and(eq(inventory.id, id), sql`${AVAILABLE} >= ${quantity}`))
    .returning({ id: inventory.id });
  return done.length > 0;
}

/** Adds `quantity` to the target only while it stays within the item type's limit. */
async function addTo(tx: Tx, id: number, quantity: number, max: number, userId: number): Promise<boolean> {
  const done = await tx.update(inventory)
    .set({
      quantity: sql`${inventory.quantity} + ${quantity}`,
      updated_by_id: userId,
      updated_at: nowStamp(),
    })
    .where(and(eq(inventory.id, id), sql`${inventory.quantity} + ${quantity} <= ${max}`))
    .returning({ id: inventory.id });
  return done.length > 0;
}

/**
 * POST /api/sales/inventory/business-unit-transfer: moves available stock to the same item and
 * serial in another business unit, in one write transaction with guarded UPDATEs and an audit row
 * for each side. Above what is available: 422 'Cannot exceed current quantity: N'.
 */
export async function transferBusinessUnit(ctx: Ctx, body: unknown): Promise<UnitTransferResult> {
  requireAbility(ctx.user, "sales.admin");
  const input = parse(BusinessUnitTransferInput, body);
  const result = await ctx.tdb.write(async (tx) => {
    // Bookings whose start has come hold their stock before this change counts it (decision 028).
    await startDueLines(tx, ctx);
    const source = await tx.select().from(inventory).where(eq(inventory.id, input.inventory_id)).get();
    if (!source) throw new AppError("not_found", "Inventory not found.");
    const unit = await requireBusinessUnit(tx, input.to_business_unit_id, "to_business_unit_id");
    if (unit.id === source.business_unit_id) {
      throw invalid("to_business_unit_id", "Choose a business unit other than the row's own");
    }
    const available = source.quantity - source.quantity_out - source.quantity_out_location;
    if (input.quantity > available) throw invalid("quantity", exceedsMessage(available));
    const item = await tx.select({ type: items.inventory_type }).from(items)
      .where(eq(items.id, source.item_id)).get();
    const max = maxQuantity(item!.type);
    const target = await targetRow(tx, source, unit.id, ctx.user.id);
    if (target.quantity + input.quantity > max) throw invalid("quantity", overLimit(max));
    if (!await takeFrom(tx, source.id, input.quantity, ctx.user.id)) {
      throw invalid("quantity", exceedsMessage(available));
    }
    if (!await addTo(tx, target.id, input.quantity, max, ctx.user.id)) {
      throw invalid("quantity", overLimit(max));
    }
    await recordAudit(tx, ctx.user, source.id, "Business Unit Transfer Out", -input.quantity);
    await recordAudit(tx, ctx.user, target.id, "Business Unit Transfer In", input.quantity);
    await requireBookingsFit(tx, [source.id], timeZoneOf(ctx.user.company.settings));
    return { from: source.id, to: target.id, unit: unit.name };
  });
  return {
    message: `Transferred ${input.quantity} to ${result.unit}`,
    from: await getInventory(ctx.db, result.from),
    to: await getInventory(ctx.db, result.to),
  };
}
