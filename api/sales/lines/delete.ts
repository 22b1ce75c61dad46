import { eq } from "drizzle-orm";
import { sales } from "../../../db/schema/mod.ts";
import type { Ctx } from "../../lib/context.ts";
import { AppError } from "../../../lib/errors.ts";
import { requireAbility } from "../../../lib/policy.ts";
import { recordAudit } from "../inventory/audit.ts";
import { moveHold } from "./hold.ts";
import { requireUnbilled } from "../tickets/billed.ts";
import { auditExtra, getLine, ticketFor } from "./query.ts";
import { requireMatch } from "../../lib/preconditions.ts";
import { INVOICED_MESSAGE } from "./schemas.ts";

/**
 * DELETE /api/sales/sales/{id}: removes the line (its inventory log goes with it) and releases what
 * it still holds, audited as "Line Deleted", in one transaction. Invoice lines cannot go (409).
 */
export async function deleteLine(ctx: Ctx, id: number): Promise<{ message: string }> {
  requireAbility(ctx.user, "sales.admin");
  await ctx.tdb.write(async (tx) => {
    const line = await tx.select().from(sales).where(eq(sales.id, id)).get();
    if (!line) throw new AppError("not_found", "Line item not found.");
    await requireMatch(ctx, line.version, () => getLine(tx, id));
    const t = await ticketFor(tx, line.ticket_id);
    requireUnbilled(t.ticket, INVOICED_MESSAGE);
    await moveHold(tx, line.inventory_id, -line.quantity_held, line.quantity);
    await tx.delete(sales).where(eq(sales.id, id));
    if (line.quantity_held) {
      await recordAudit(
        tx,
        ctx.user,
        line.inventory_id,
        "Line Deleted",
        line.quantity_held,
        auditExtra(t, line.start_date),
      );
    }
  });
  return { message: "Line item deleted" };
}
