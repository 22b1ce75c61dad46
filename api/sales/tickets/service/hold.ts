import { and, eq, sql } from "drizzle-orm";
import { inventory, items, type NewSale, sales, type Ticket } from "../../../../db/schema/mod.ts";
import type { Tx } from "../../../../db/client.ts";
import type { CurrentUser } from "../../../lib/context.ts";
import { AppError } from "../../../../lib/errors.ts";
import { nowStamp } from "../../../lib/db_helpers.ts";
import { recordAudit } from "../../inventory/audit.ts";
import { AvailabilityError, moveHold } from "../../lines/hold.ts";
import { inventoryLabel } from "../../inventory_rows/rules.ts";
import { requireFit } from "../../lines/fit_check.ts";
import { requireFree } from "../../lines/reservations.ts";
import { timeZoneOf } from "../../../../lib/format.ts";

export { EXCEEDS_MESSAGE as EXCEEDS_AVAILABLE } from "../../lines/schemas.ts";

/** The stock row with its item, or 404. */
export async function stockRow(tx: Tx, user: CurrentUser, inventoryId: number) {
  const row = await tx.select({ inv: inventory, item: items }).from(inventory)
    .innerJoin(items, eq(items.id, inventory.item_id))
    .where(and(eq(inventory.id, inventoryId), eq(inventory.company_id, user.company_id))).get();
  if (!row) throw new AppError("not_found", `Inventory not found: ${inventoryId}`);
  return row;
}

/**
 * Takes `quantity` of a stock row out on a ticket through the lines' guarded hold (the same refusal
 * with its five figures), so parallel saves can never take more than there is.
 * Quotes and charge codes hold nothing (answers 0).
 */
export async function holdQuantity(
  tx: Tx,
  user: CurrentUser,
  ticket: Pick<Ticket, "isQuote" | "ticket_number">,
  inventoryId: number,
  quantity: number,
): Promise<number> {
  const { item } = await stockRow(tx, user, inventoryId);
  if (ticket.isQuote || item.inventory_type === "Charge Code" || quantity <= 0) return 0;
  const held = Math.ceil(quantity);
  await moveHold(tx, inventoryId, held, quantity);
  // Like a line save's hold: the change of what is available (decision 039, the ledger's meaning).
  await recordAudit(tx, user, inventoryId, "Out on Ticket", -held, { ticket_number: ticket.ticket_number });
  return held;
}

/**
 * Inserts a line, holding its quantity first (the whole save fails when stock is short: the refusal
 * names the line, "Line {order}, {item number} | {serial} | {description}", and its five figures).
 * A row that cannot go out on the ticket (another unit's, or not Available) is refused by name (422),
 * and one booked on other tickets over its dates (409, reservations.ts).
 */
export async function insertLine(
  tx: Tx,
  user: CurrentUser,
  ticket: Ticket,
  line: Omit<NewSale, "ticket_id" | "company_id" | "quantity_held">,
): Promise<void> {
  const at = line.order ? `Line ${line.order}` : undefined;
  await requireFit(tx, line.inventory_id, ticket, at);
  let quantity_held: number;
  try {
    quantity_held = await holdQuantity(tx, user, ticket, line.inventory_id, line.quantity ?? 1);
  } catch (e) {
    if (!(e instanceof AvailabilityError) || e.line) throw e;
    const { inv, item } = await stockRow(tx, user, line.inventory_id);
    const name = inventoryLabel({ serial_number: inv.serial_number, item });
    throw new AvailabilityError(e.figures, line.order ? `Line ${line.order}, ${name}` : name);
  }
  // Its dates must not overlap another booking of the row beyond what it owns (decision 028).
  if (quantity_held > 0 && line.start_date) {
    await requireFree(tx, {
      inventoryId: line.inventory_id,
      start: line.start_date,
      end: line.end_date ?? null,
      quantity: quantity_held,
      timeZone: timeZoneOf(user.company.settings),
    });
  }
  await tx.insert(sales).values({
    ...line,
    ticket_id: ticket.id,
    company_id: user.company_id,
    created_by_id: user.id,
    quantity_held,
  });
}

/** Gives back what each line of a ticket still holds (deleting the ticket), audited per row. */
export async function releaseTicket(tx: Tx, user: CurrentUser, ticket: Ticket): Promise<void> {
  const lines = await tx.select({ inventory_id: sales.inventory_id, held: sales.quantity_held }).from(sales)
    .where(and(eq(sales.ticket_id, ticket.id), sql`${sales.quantity_held} > 0`));
  for (const l of lines) {
    const done = await tx.update(inventory)
      .set({ quantity_out: sql`${inventory.quantity_out} - ${l.held}`, updated_at: nowStamp() })
      .where(and(eq(inventory.id, l.inventory_id), sql`${inventory.quantity_out} >= ${l.held}`))
      .returning({ id: inventory.id });
    // A row already lower than the hold (changed outside the ticket flow) is set to zero out.
    if (!done.length) {
      await tx.update(inventory).set({ quantity_out: 0, updated_at: nowStamp() })
        .where(eq(inventory.id, l.inventory_id));
    }
    await recordAudit(tx, user, l.inventory_id, "Returned (Ticket Deleted)", l.held, {
      ticket_number: ticket.ticket_number,
    });
  }
}
