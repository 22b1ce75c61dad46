import { and, eq, gt, sql } from "drizzle-orm";
import { inventory, inventory_log, items, sales, type Ticket, tickets } from "../../../../db/schema/mod.ts";
import type { Tx } from "../../../../db/client.ts";
import type { CurrentUser } from "../../../lib/context.ts";
import { AppError } from "../../../../lib/errors.ts";
import { nowStamp } from "../../../lib/db_helpers.ts";
import { recordAudit } from "../../inventory/audit.ts";
import { moveHold } from "../../lines/hold.ts";
import { ticketAuditExtra } from "../../lines/checkin.ts";
import { inJson } from "../../../../db/in_json.ts";

/**
 * Decision 039: an expendable consumed on a ticket leaves stock when its invoice is approved, as a line
 * sold at check-in does (checkin.ts): the row's `quantity` and `quantity_out` fall together by what the
 * line held, the line then holds nothing, its inventory log gets a "Used on Invoice" entry (quantity
 * sold), and an audit row "Used on Invoice" (quantity change -n, the row's quantity after) is written in
 * the same transaction. Re-opening the invoice (APP -> OPEN) puts the ticket back as it was before the
 * approval: each such use not billed back is undone ("Invoice Re-opened", +n), the line holds it again
 * and its log entry goes; approving again uses it up again.
 */
export const USED_ON_INVOICE = "Used on Invoice";
export const INVOICE_REOPENED = "Invoice Re-opened";

/**
 * The stock side of a status change, called by updateTicket after it saved the new status, in its
 * transaction: approving uses up the ticket's expendables; leaving APP gives them back to their lines.
 */
export async function settleStockOnStatus(
  tx: Tx,
  user: CurrentUser,
  before: Pick<Ticket, "id" | "status">,
  to: string,
): Promise<void> {
  if (to === before.status) return;
  if (to === "APP") await useExpendables(tx, user, before.id);
  else if (before.status === "APP" && to !== "CLONEQUOTE") await returnExpendables(tx, user, before.id);
}

/** The saved ticket (its invoice number is on the audit rows). */
async function savedTicket(tx: Tx, ticketId: number): Promise<Ticket> {
  const t = await tx.select().from(tickets).where(eq(tickets.id, ticketId)).get();
  if (!t) throw new AppError("not_found", "Ticket not found.");
  return t;
}

/**
 * Every expendable line of the ticket still holding (or booked to hold) stock leaves stock. A booking
 * that has not started (`quantity_pending`, decision 028) is started first with the lines' guarded hold
 * (409 with the five figures when the row no longer has it), so what leaves was out.
 */
async function useExpendables(tx: Tx, user: CurrentUser, ticketId: number): Promise<void> {
  const lines = await tx.select({ line: sales, description: items.item_description }).from(sales)
    .innerJoin(inventory, eq(inventory.id, sales.inventory_id))
    .innerJoin(items, eq(items.id, inventory.item_id))
    .where(and(
      eq(sales.ticket_id, ticketId),
      eq(items.isExpendable, true),
      sql`${items.inventory_type} <> 'Charge Code'`,
      sql`${sales.quantity_held} + ${sales.quantity_pending} > 0`,
    ))
    .orderBy(sales.order, sales.id);
  if (!lines.length) return;
  const ticket = await savedTicket(tx, ticketId);
  const extra = await ticketAuditExtra(tx, ticket);
  const stamp = nowStamp();
  for (const { line, description } of lines) {
    const auditExtra = { ...extra, start_date: line.start_date };
    if (line.quantity_pending > 0) {
      await moveHold(tx, line.inventory_id, line.quantity_pending, line.quantity);
      await recordAudit(tx, user, line.inventory_id, "Line Started", -line.quantity_pending, auditExtra);
    }
    const n = line.quantity_held + line.quantity_pending;
    const held = await tx.update(sales)
      .set({ quantity_held: 0, quantity_pending: 0, updated_at: stamp })
      .where(and(eq(sales.id, line.id), eq(sales.quantity_held, line.quantity_held)))
      .returning({ id: sales.id });
    if (!held.length) throw new AppError("conflict", `The line changed meanwhile: ${description}`);
    const before = await tx.select({ quantity: inventory.quantity }).from(inventory)
      .where(eq(inventory.id, line.inventory_id)).get();
    const done = await tx.update(inventory)
      .set({
        quantity: sql`${inventory.quantity} - ${n}`,
        quantity_out: sql`${inventory.quantity_out} - ${n}`,
        updated_by_id: user.id,
        updated_at: stamp,
      })
      .where(and(eq(inventory.id, line.inventory_id), sql`${inventory.quantity_out} >= ${n}`))
      .returning({ quantity: inventory.quantity });
    if (!done.length) throw new AppError("conflict", `Less is out than the line holds: ${description}`);
    await tx.insert(inventory_log).values({
      sale_id: line.id,
      inventory_id: line.inventory_id,
      date: stamp,
      quantity_sold: n,
      starting_quantity: before!.quantity,
      ending_quantity: done[0].quantity,
      action: USED_ON_INVOICE,
      user_id: user.id,
      user_name: user.name,
    });
    await recordAudit(tx, user, line.inventory_id, USED_ON_INVOICE, -n, auditExtra);
  }
}

/**
 * Undoes each use of the ticket's approval that was not billed back: the row owns it again and it is out
 * on its line again (quantity and quantity_out rise together, so what is available does not change and no
 * guard is needed), the line holds it, and the "Used on Invoice" log entry goes. A use billed back to
 * another ticket stays used.
 */
async function returnExpendables(tx: Tx, user: CurrentUser, ticketId: number): Promise<void> {
  const ids = (await tx.select({ id: sales.id }).from(sales).where(eq(sales.ticket_id, ticketId)))
    .map((l) => l.id);
  if (!ids.length) return;
  const uses = await tx.select({ entry: inventory_log, line: sales }).from(inventory_log)
    .innerJoin(sales, eq(sales.id, inventory_log.sale_id))
    .where(and(
      inJson(inventory_log.sale_id, ids),
      eq(inventory_log.action, USED_ON_INVOICE),
      eq(inventory_log.billed, false),
      gt(inventory_log.quantity_sold, 0),
    ))
    .orderBy(inventory_log.id);
  if (!uses.length) return;
  const ticket = await savedTicket(tx, ticketId);
  const extra = await ticketAuditExtra(tx, ticket);
  const stamp = nowStamp();
  for (const { entry, line } of uses) {
    const n = entry.quantity_sold;
    await tx.update(inventory)
      .set({
        quantity: sql`${inventory.quantity} + ${n}`,
        quantity_out: sql`${inventory.quantity_out} + ${n}`,
        updated_by_id: user.id,
        updated_at: stamp,
      })
      .where(eq(inventory.id, line.inventory_id));
    await tx.update(sales)
      .set({ quantity_held: sql`${sales.quantity_held} + ${n}`, updated_at: stamp })
      .where(eq(sales.id, line.id));
    await tx.delete(inventory_log).where(eq(inventory_log.id, entry.id));
    await recordAudit(tx, user, line.inventory_id, INVOICE_REOPENED, n, {
      ...extra,
      start_date: line.start_date,
    });
  }
}
