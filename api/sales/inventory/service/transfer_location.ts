import { and, eq, sql } from "drizzle-orm";
import { categories, inventory, inventory_locations } from "../../../../db/schema/mod.ts";
import type { Tx } from "../../../../db/client.ts";
import type { Ctx } from "../../../lib/context.ts";
import { AppError, invalid } from "../../../../lib/errors.ts";
import { parse } from "../../../lib/validate.ts";
import { nowStamp } from "../../../lib/db_helpers.ts";
import { requireAbility } from "../../../../lib/policy.ts";
import { recordAudit } from "../audit.ts";
import {
  BASE,
  exceedsMessage,
  type InventoryOut,
  LocationTransferInput,
  UNKNOWN_LOCATION,
} from "../schemas.ts";
import { AVAILABLE, getInventory, unitLocations } from "./query.ts";
import { startDueLines } from "../../lines/start_due.ts";
import { timeZoneOf } from "../../../../lib/format.ts";
import { requireBookingsFit } from "../../lines/reservations.ts";

export interface LocationTransferResult {
  message: string;
  inventory: InventoryOut;
}

const at = (id: number, name: string) =>
  and(eq(inventory_locations.inventory_id, id), eq(inventory_locations.name, name));

/** Takes stock off a named location only while it holds that much; empty locations are removed. */
async function takeFromLocation(tx: Tx, id: number, name: string, quantity: number): Promise<boolean> {
  const done = await tx.update(inventory_locations)
    .set({ quantity: sql`${inventory_locations.quantity} - ${quantity}` })
    .where(and(at(id, name), sql`${inventory_locations.quantity} >= ${quantity}`))
    .returning({ id: inventory_locations.id });
  await tx.delete(inventory_locations).where(and(at(id, name), eq(inventory_locations.quantity, 0)));
  return done.length > 0;
}

async function addToLocation(tx: Tx, id: number, name: string, quantity: number) {
  await tx.insert(inventory_locations).values({ inventory_id: id, name, quantity }).onConflictDoUpdate({
    target: [inventory_locations.inventory_id, inventory_locations.name],
    set: { quantity: sql`${inventory_locations.quantity} + excluded.quantity` },
  });
}

/**
 * Base → location takes from the available quantity; location → Base gives it back. Both keep
 * `quantity_out_location` equal to the locations' sum, and the guard is in each statement.
 */
async function moveOutLocation(tx: Tx, id: number, delta: number, userId: number): Promise<boolean> {
  const guard = delta > 0
    ? sql`${AVAILABLE} >= ${delta}`
    : sql`${inventory.quantity_out_location} >= ${-delta}`;
  const done = await tx.update(inventory)
    .set({
      quantity_out_location: sql`${inventory.quantity_out_location} + ${delta}`,
      updated_by_id: userId,
      updated_at: nowStamp(),
    })
    .where(and(eq(inventory.id, id), guard))
    .returning({ id: inventory.id });
  return done.length > 0;
}

/** The canonical spelling of a location the row may use, or undefined. */
function resolve(name: string, names: string[]): string | undefined {
  if (name.toLowerCase() === BASE.toLowerCase()) return BASE;
  return names.find((n) => n.toLowerCase() === name.toLowerCase());
}

/**
 * POST /api/sales/inventory/location-transfer: moves stock between 'Base' and the yard locations of
 * the row's business unit (or between two of them). Stock left at a location since removed from the
 * unit may still be moved out of it. One audit row, "Location Transfer".
 */
export async function transferLocation(ctx: Ctx, body: unknown): Promise<LocationTransferResult> {
  requireAbility(ctx.user, "sales.admin");
  const input = parse(LocationTransferInput, body);
  const { from, to } = await ctx.tdb.write(async (tx) => {
    // Bookings whose start has come hold their stock before this change counts it (decision 028).
    await startDueLines(tx, ctx);
    const row = await tx.select({ inv: inventory, custom: categories.custom }).from(inventory)
      .innerJoin(categories, eq(categories.id, inventory.business_unit_id))
      .where(eq(inventory.id, input.inventory_id)).get();
    if (!row) throw new AppError("not_found", "Inventory not found.");
    const id = row.inv.id;
    const configured = unitLocations({ custom: row.custom });
    const held = (await tx.select({ name: inventory_locations.name }).from(inventory_locations)
      .where(eq(inventory_locations.inventory_id, id))).map((l) => l.name);
    const from = resolve(input.fromLocation, [...configured, ...held]);
    if (!from) throw invalid("fromLocation", UNKNOWN_LOCATION);
    const to = resolve(input.toLocation, configured);
    if (!to) throw invalid("toLocation", UNKNOWN_LOCATION);
    if (from === to) throw invalid("toLocation", "Choose a location other than the source");
    const inv = row.inv;
    const there = from === BASE
      ? inv.quantity - inv.quantity_out - inv.quantity_out_location
      : (await tx.select({ q: inventory_locations.quantity }).from(inventory_locations).where(at(id, from))
        .get())?.q ?? 0;
    if (input.quantity > there) throw invalid("quantity", exceedsMessage(there));
    const moved = from === BASE
      ? await moveOutLocation(tx, id, input.quantity, ctx.user.id)
      : await takeFromLocation(tx, id, from, input.quantity) &&
        (to !== BASE || await moveOutLocation(tx, id, -input.quantity, ctx.user.id));
    if (!moved) throw invalid("quantity", exceedsMessage(there));
    if (to !== BASE) await addToLocation(tx, id, to, input.quantity);
    if (from !== BASE && to !== BASE) {
      await tx.update(inventory).set({ updated_by_id: ctx.user.id, updated_at: nowStamp() })
        .where(eq(inventory.id, id));
    }
    await recordAudit(tx, ctx.user, id, "Location Transfer", 0);
    // stock at a named location cannot go out on a booking
    await requireBookingsFit(tx, [id], timeZoneOf(ctx.user.company.settings));
    return { from, to };
  });
  return {
    message: `Moved ${input.quantity} from ${from} to ${to}`,
    inventory: await getInventory(ctx.db, input.inventory_id),
  };
}
