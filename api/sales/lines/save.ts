import { eq, sql } from "drizzle-orm";
import { inventory_log, type Sale, sales, taxes } from "../../../db/schema/mod.ts";
import type { Ctx } from "../../lib/context.ts";
import { AppError, invalid } from "../../../lib/errors.ts";
import { parse } from "../../lib/validate.ts";
import { nowStamp } from "../../lib/db_helpers.ts";
import { requireAbility } from "../../../lib/policy.ts";
import { recordAudit } from "../inventory/audit.ts";
import { EDIT_LINE_MESSAGE, INVOICED_MESSAGE, LineInput, REQUIRED } from "./schemas.ts";
import { moveHold } from "./hold.ts";
import { refuseUnfit } from "./fit_check.ts";
import { inventoryFor, lineFields } from "./save_fields.ts";
import { shaped } from "../../../db/shaped.ts";
import { holdPlan } from "./save_hold.ts";
import { checkBooking } from "./reservations.ts";
import { startDueLines } from "./start_due.ts";
import { requireUnbilled } from "../tickets/billed.ts";
import { auditExtra, getLine, type LineOut, presentLine, ticketFor } from "./query.ts";
import { timeZoneOf } from "../../../lib/format.ts";
import { requireMatch } from "../../lib/preconditions.ts";

export { LOGGED_INVENTORY_MESSAGE } from "./save_hold.ts";
export const OTHER_TICKET_MESSAGE = "A line cannot move to another ticket here: use Transfer.";

const ph = sql.placeholder;

/** A line's order, or when it has none, after its ticket's last: counted in the statement that writes it. */
const orderOrLast = (order: unknown, ticketId: unknown) =>
  sql<
    number
  >`coalesce(${order}, (select coalesce(max(${sales.order}), 0) + 1 from ${sales} where ${sales.ticket_id} = ${ticketId}))`;

/**
 * A new line's insert, built once (db/shaped.ts): every value is a placeholder, so each column of the line is
 * written as sent, and a line without an order goes after its ticket's last, counted in the statement that
 * writes it.
 */
const INSERT_LINE = shaped((db) =>
  db.insert(sales).values({
    ticket_id: ph("ticket_id"),
    company_id: ph("company_id"),
    created_by_id: ph("created_by_id"),
    inventory_id: ph("inventory_id"),
    order: orderOrLast(ph("order"), ph("ticket_id")),
    start_date: ph("start_date"),
    end_date: ph("end_date"),
    duration: ph("duration"),
    quantity: ph("quantity"),
    price: ph("price"),
    minimum_rate: ph("minimum_rate"),
    use_min_rate_logic: ph("use_min_rate_logic"),
    discount: ph("discount"),
    markup: ph("markup"),
    state_tax: ph("state_tax"),
    county_tax: ph("county_tax"),
    city_tax: ph("city_tax"),
    hours: ph("hours"),
    notes: ph("notes"),
    doc: ph("doc"),
    custom: ph("custom"),
    quantity_held: ph("quantity_held"),
    quantity_pending: ph("quantity_pending"),
  }).returning()
);

/**
 * POST /api/sales/sales (create on `ticket_id`, any sales user) and PUT /api/sales/sales (update `id`,
 * sales-admin only: the spec gives Edit on line rows to sales-admin; 403 otherwise).
 *
 * The fields, their defaults and checks are `lineFields` (save_fields.ts); a new line goes after the
 * last. A field sent as null or "" that the form requires answers 422 'Required'.
 *
 * The row must be able to go out on the ticket (fit_check.ts): of the ticket's business unit, and
 * Available unless the ticket is a quote; otherwise 422 on inventory_id with a sentence naming it.
 *
 * Availability (non-quote tickets, not Charge Code): the line holds its quantity in the row's
 * quantity_out (`holdPlan`, save_hold.ts); a change moves it by new less old held with one guarded
 * statement (409 with the figures when short). Everything, audit rows included, in one write
 * transaction.
 *
 * Rental dates (decision 028): the line also reserves that quantity over [start, end); when its row,
 * dates or quantity change, the row's other reservations at every moment of the range plus this one
 * must fit (`requireFree`, 409 naming the clashing tickets). A line starting later holds nothing yet
 * (quantity_pending) and so does not block today's stock.
 */
export async function saveLine(ctx: Ctx, body: unknown, opts: { update?: boolean } = {}): Promise<LineOut> {
  // Adding a line is any sales user's; editing one (Edit on line rows) is sales-admin's.
  if (opts.update) requireAbility(ctx.user, "sales.admin", EDIT_LINE_MESSAGE);
  else requireAbility(ctx.user, "sales.read");
  const input = parse(LineInput, body);
  if (opts.update && !input.id) throw invalid("id", REQUIRED);
  const timeZone = timeZoneOf(ctx.user.company.settings);
  return await ctx.tdb.write(async (tx) => {
    await startDueLines(tx, ctx);
    let before: Sale | undefined;
    if (opts.update) {
      before = await tx.select().from(sales).where(eq(sales.id, input.id!)).get();
      if (!before) throw new AppError("not_found", "Line item not found.");
      // A stale If-Match is refused before anything is checked or written (decision 038).
      await requireMatch(ctx, before.version, () => getLine(tx, before!.id));
      if (input.ticket_id && input.ticket_id !== before.ticket_id) {
        throw invalid("ticket_id", OTHER_TICKET_MESSAGE);
      }
    } else if (!input.ticket_id) throw invalid("ticket_id", REQUIRED);
    const t = await ticketFor(tx, before?.ticket_id ?? input.ticket_id!);
    requireUnbilled(t.ticket, INVOICED_MESSAGE);
    const ticket = t.ticket;
    const isQuote = ticket.status === "QUOTE" || ticket.isQuote;

    const inventoryId = input.inventory_id === undefined ? before?.inventory_id : input.inventory_id;
    if (!inventoryId) throw invalid("inventory_id", REQUIRED);
    const inv = await inventoryFor(tx, inventoryId);
    const tax = !before && inv.isTaxable && ticket.tax_id
      ? await tx.select().from(taxes).where(eq(taxes.id, ticket.tax_id)).get()
      : undefined;
    const fields = lineFields(input, before, inv, ticket, tax, timeZone);

    // A row put on the line (new, or changed) must be one that can go out on this ticket.
    if (!before || before.inventory_id !== inventoryId) await refuseUnfit(tx, inv, ticket);
    const logged = before
      ? !!(await tx.select({ id: inventory_log.id }).from(inventory_log)
        .where(eq(inventory_log.sale_id, before.id)).limit(1).get())
      : false;
    const holds = !isQuote && inv.type !== "Charge Code";
    const future = !!fields.start_date && fields.start_date > nowStamp();
    const plan = holdPlan({ before, inventoryId, quantity: fields.quantity, logged, holds, future });
    const { held, pending, moves } = plan;
    const values = {
      ...fields,
      inventory_id: inventoryId,
      quantity_held: held,
      quantity_pending: pending,
    };

    // Holds first (the spec's refusal with its five figures when short today), then the dates; a
    // refusal undoes the write's savepoint, so nothing of it stays.
    for (const m of moves) await moveHold(tx, m.inventoryId, m.delta, fields.quantity);
    await checkBooking(tx, before, {
      inventoryId,
      start: fields.start_date,
      end: fields.end_date,
      quantity: held + pending,
      timeZone,
    });
    const extra = auditExtra(t, fields.start_date);
    const audit = async () => {
      for (const m of moves) {
        if (m.delta !== 0) await recordAudit(tx, ctx.user, m.inventoryId, m.action, -m.delta, extra);
      }
    };
    if (before) {
      await tx.update(sales).set({
        ...values,
        order: orderOrLast(fields.order, ticket.id),
        updated_at: nowStamp(),
      })
        .where(eq(sales.id, before.id));
      await audit();
      return await getLine(tx, before.id);
    }
    // A new line: its answer is the row as stored (RETURNING) with the stock row read above; it has no logs.
    const row = (await INSERT_LINE.get(tx, {
      ...values,
      ticket_id: ticket.id,
      company_id: ticket.company_id,
      created_by_id: ctx.user.id,
    }))!;
    await audit();
    return presentLine(row, inv, inv.item, ticket, []);
  });
}
