import { and, eq } from "drizzle-orm";
import { tickets } from "../../../../db/schema/mod.ts";
import type { Ctx } from "../../../lib/context.ts";
import { AppError } from "../../../../lib/errors.ts";
import { requireAbility } from "../../../../lib/policy.ts";
import { releaseTicket } from "./hold.ts";
import { findTicket, presentTicket, ticketScope } from "./query.ts";
import { requireMatch } from "../../../lib/preconditions.ts";

export const INVOICE_NOT_DELETABLE =
  "This ticket was issued as an invoice: it is kept with its revisions and cannot be deleted.";

/**
 * DELETE /api/sales/tickets/{id}: sales-admin only. Gives back the stock its lines hold (audited)
 * and removes the ticket with its lines, logs and rejections. Its number is not reused.
 */
export async function deleteTicket(ctx: Ctx, id: number): Promise<{ message: string }> {
  requireAbility(ctx.user, "sales.admin");
  await ctx.tdb.write(async (tx) => {
    const t = await findTicket(tx, ctx.user, id);
    await requireMatch(ctx, t.version, () => presentTicket(tx, ctx.user, id));
    // An invoice once issued stays retrievable as issued (decision 040), also after re-opening.
    if (t.isInvoice || t.invoice_number) throw new AppError("conflict", INVOICE_NOT_DELETABLE);
    await releaseTicket(tx, ctx.user, t);
    await tx.delete(tickets).where(and(ticketScope(ctx.user), eq(tickets.id, id)));
  });
  return { message: "Ticket deleted" };
}
