import { and, eq, sql } from "drizzle-orm";
import { inventory } from "../../../db/schema/mod.ts";
import type { Tx } from "../../../db/client.ts";
import { AppError } from "../../../lib/errors.ts";
import { AVAILABLE } from "../inventory/service/query.ts";
import { type AvailabilityFigures, EXCEEDS_MESSAGE, shortageSentence } from "./schemas.ts";

/**
 * The availability refusal: a 409 whose body also carries the five figures (see routes.ts). With
 * `line` (which line of several, e.g. "Line 4, FI-2SW | MID-FI-2SW | 2in swivel") the message names it
 * and states the figures, for screens that show only the message.
 */
export class AvailabilityError extends AppError {
  constructor(readonly figures: AvailabilityFigures, readonly line?: string) {
    super(
      "conflict",
      line ? shortageSentence(line, figures) : EXCEEDS_MESSAGE,
      [{ path: "quantity", message: EXCEEDS_MESSAGE }],
      undefined,
      line ? { figures, line } : { figures },
    );
  }
}

/**
 * Moves an inventory row's quantity_out by `delta` (what a line holds, new less old) with one
 * statement. Taking more is guarded: the row must have `delta` available, else nothing changes and
 * the refusal names the row's figures and `lineQuantity`. Releasing needs no guard (floored at 0 so
 * an inconsistent row cannot turn a release into a CHECK failure).
 */
export async function moveHold(
  tx: Tx,
  inventoryId: number,
  delta: number,
  lineQuantity: number,
): Promise<void> {
  if (delta === 0) return;
  if (delta < 0) {
    await tx.update(inventory)
      .set({ quantity_out: sql`max(${inventory.quantity_out} + ${delta}, 0)` })
      .where(eq(inventory.id, inventoryId));
    return;
  }
  const done = await tx.update(inventory)
    .set({ quantity_out: sql`${inventory.quantity_out} + ${delta}` })
    .where(and(eq(inventory.id, inventoryId), sql`${AVAILABLE} >= ${delta}`))
    .returning({ id: inventory.id });
  if (done.length) return;
  const row = await tx.select().from(inventory).where(eq(inventory.id, inventoryId)).get();
  if (!row) throw new AppError("not_found", "Inventory not found.");
  throw new AvailabilityError({
    inventory_quantity: row.quantity,
    quantity_out_tickets: row.quantity_out,
    quantity_out_location: row.quantity_out_location,
    available: row.quantity - row.quantity_out - row.quantity_out_location,
    line_quantity: lineQuantity,
  });
}
