import { and, eq, sql } from "drizzle-orm";
import { inventory, inventory_locations } from "../../../../db/schema/mod.ts";
import type { Ctx } from "../../../lib/context.ts";
import { AppError } from "../../../../lib/errors.ts";
import { isForeignKeyError } from "../../../lib/db_helpers.ts";
import { requireAbility } from "../../../../lib/policy.ts";
import { recordAudit } from "../audit.ts";
import { requireMatch } from "../../../lib/preconditions.ts";
import { getInventory } from "./query.ts";

/**
 * DELETE /api/sales/inventory/{id}: sales-admin only, and only stock nobody holds: none out on
 * tickets, none at a named location. The "Deleted" audit row is written first (it copies the row's
 * names); the foreign key then clears its inventory_id.
 */
export async function deleteInventory(ctx: Ctx, id: number): Promise<{ message: string }> {
  requireAbility(ctx.user, "sales.admin");
  await ctx.tdb.write(async (tx) => {
    const row = await tx.select().from(inventory).where(eq(inventory.id, id)).get();
    if (!row) throw new AppError("not_found", "Inventory not found.");
    await requireMatch(ctx, row.version, () => getInventory(tx, id));
    if (row.quantity_out > 0) {
      throw new AppError("conflict", `This inventory has ${row.quantity_out} out on tickets.`);
    }
    const held = await tx.select({ id: inventory_locations.id }).from(inventory_locations)
      .where(and(eq(inventory_locations.inventory_id, id), sql`${inventory_locations.quantity} > 0`)).get();
    if (held || row.quantity_out_location > 0) {
      throw new AppError("conflict", "This inventory has stock at locations: move it back to Base first.");
    }
    await recordAudit(tx, ctx.user, id, "Deleted", -row.quantity);
    try {
      await tx.delete(inventory).where(eq(inventory.id, id));
    } catch (e) {
      if (isForeignKeyError(e)) throw new AppError("conflict", "This inventory is used by ticket lines.");
      throw e;
    }
  });
  return { message: "Inventory deleted" };
}
