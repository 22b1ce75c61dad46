import { eq, sql } from "drizzle-orm";
import { inventory, inventory_log, items, type Sale, sales, taxes } from "../../../db/schema/mod.ts";
import { maxQuantity } from "../../../db/schema/enums.ts";
import type { Tx } from "../../../db/client.ts";
import type { Ctx } from "../../lib/context.ts";
import { AppError, type FieldError, invalid } from "../../lib/errors.ts";
import { parse } from "../../lib/validate.ts";
import { nowStamp } from "../../lib/db_helpers.ts";
import { requireAbility } from "../../lib/policy.ts";
import { recordAudit } from "../inventory/audit.ts";
import { hoursBetween } from "../tickets/rules.ts";
import {
  EDIT_LINE_MESSAGE,
  END_BEFORE_START,
  INVOICED_MESSAGE,
  LineInput,
  maxMessage,
  REQUIRED,
  UNKNOWN_INVENTORY,
  WHOLE_MESSAGE,
} from "./schemas.ts";
import { moveHold } from "./hold.ts";
import { newLineRates } from "./defaults.ts";
import { requireFit } from "./fit_check.ts";
import { requireUnbilled } from "../tickets/billed.ts";
import { auditExtra, getLine, type LineOut, ticketFor } from "./query.ts";

export const LOGGED_INVENTORY_MESSAGE = "A line with check-in history cannot change its inventory.";
export const OTHER_TICKET_MESSAGE = "A line cannot move to another ticket here: use Transfer.";

/** Today at 00:00 UTC, the default start of a new line. */
const todayStart = () => `${new Date().toISOString().slice(0, 10)}T00:00:00Z`;

async function inventoryFor(tx: Tx, id: number) {
  const row = await tx.select({
    id: inventory.id,
    minimum_rate: inventory.minimum_rate,
    additional_day: inventory.additional_day,
    rate: items.rate,
    isTaxable: items.isTaxable,
    type: items.inventory_type,
  }).from(inventory).innerJoin(items, eq(items.id, inventory.item_id)).where(eq(inventory.id, id)).get();
  if (!row) throw invalid("inventory_id", UNKNOWN_INVENTORY);
  return row;
}

const fail = (errors: FieldError[]) => {
  throw new AppError("invalid", `${errors[0].path}: ${errors[0].message}`, errors);
};

/**
 * POST /api/sales/sales (create on `ticket_id`, any sales user) and PUT /api/sales/sales (update `id`,
 * sales-admin only: the spec gives Edit on line rows to sales-admin; 403 otherwise).
 *
 * Defaults of a new line: quantity 1, duration 1 (0 when the ticket uses min-rate logic), discount 0,
 * start today 00:00Z, order after the last line, price and minimum rate from `newLineRates` (a row
 * without its own rates takes the item's rate, so a default line is priced), taxes from the ticket's
 * tax when the item is taxable. A field sent as null or "" that the form requires answers 422 'Required'.
 *
 * The row must be able to go out on the ticket (fit_check.ts): of the ticket's business unit, and
 * Available unless the ticket is a quote; otherwise 422 on inventory_id with a sentence naming it.
 *
 * Availability (non-quote tickets, not Charge Code): the line holds its quantity in the row's
 * quantity_out; a change moves it by new less old held with one guarded statement (409 with the
 * figures when short). No check when the quantity and inventory are unchanged. A line with
 * inventory-log rows holds its quantity less what was checked in, sold or removed: its quantity cannot
 * go below those, nor can its inventory change. Changing the inventory releases the old hold and takes
 * the new one. Everything, audit rows included, in one write transaction.
 */
export async function saveLine(ctx: Ctx, body: unknown, opts: { update?: boolean } = {}): Promise<LineOut> {
  // Adding a line is any sales user's; editing one (Edit on line rows) is sales-admin's.
  if (opts.update) requireAbility(ctx.user, "sales.admin", EDIT_LINE_MESSAGE);
  else requireAbility(ctx.user, "sales.read");
  const input = parse(LineInput, body);
  if (opts.update && !input.id) throw invalid("id", REQUIRED);
  return await ctx.tdb.write(async (tx) => {
    let before: Sale | undefined;
    if (opts.update) {
      before = await tx.select().from(sales).where(eq(sales.id, input.id!)).get();
      if (!before) throw new AppError("not_found", "Line item not found.");
      if (input.ticket_id && input.ticket_id !== before.ticket_id) {
        throw invalid("ticket_id", OTHER_TICKET_MESSAGE);
      }
    } else if (!input.ticket_id) throw invalid("ticket_id", REQUIRED);
    const t = await ticketFor(tx, before?.ticket_id ?? input.ticket_id!);
    requireUnbilled(t.ticket, INVOICED_MESSAGE);
    const ticket = t.ticket;
    const isQuote = ticket.status === "QUOTE" || ticket.isQuote;
    const minRate = ticket.use_min_rate_logic;

    const inventoryId = input.inventory_id === undefined ? before?.inventory_id : input.inventory_id;
    if (!inventoryId) throw invalid("inventory_id", REQUIRED);
    const inv = await inventoryFor(tx, inventoryId);
    const tax = !before && inv.isTaxable && ticket.tax_id
      ? await tx.select().from(taxes).where(eq(taxes.id, ticket.tax_id)).get()
      : undefined;

    /** The sent value, else the stored one (update), else the default (create). */
    const pick = <K extends keyof LineInput & keyof Sale>(key: K, dflt: Sale[K] | null): Sale[K] | null => {
      const v = input[key];
      if (v !== undefined) return v as Sale[K] | null;
      return before ? before[key] : dflt;
    };
    const errors: FieldError[] = [];
    const quantity = pick("quantity", 1);
    if (quantity === null) errors.push({ path: "quantity", message: REQUIRED });
    else if (inv.type !== "Charge Code" && !Number.isInteger(quantity)) {
      errors.push({ path: "quantity", message: WHOLE_MESSAGE });
    } else if (quantity > maxQuantity(inv.type)) {
      errors.push({ path: "quantity", message: maxMessage(maxQuantity(inv.type)) });
    }
    const start = isQuote ? null : pick("start_date", todayStart());
    const end = isQuote ? null : pick("end_date", null);
    if (!isQuote && start === null) errors.push({ path: "start_date", message: REQUIRED });
    if (start && end && end < start) errors.push({ path: "end_date", message: END_BEFORE_START });
    const rates = newLineRates(inv, minRate);
    const price = pick("price", rates.price);
    if (price === null) errors.push({ path: "price", message: REQUIRED });
    // A line stored without a minimum rate (added before the ticket turned min-rate logic on, or
    // from a template row without one) counts it as 0; an edit that leaves the field out keeps 0
    // rather than answering 'Required' for a field the user did not touch.
    const minimum = input.minimum_rate === undefined && before?.minimum_rate === null && minRate
      ? 0
      : pick("minimum_rate", rates.minimum_rate);
    if (minRate && minimum === null) errors.push({ path: "minimum_rate", message: REQUIRED });
    if (errors.length) fail(errors);

    const inventoryChanged = !!before && before.inventory_id !== inventoryId;
    // A row put on the line (new, or changed) must be one that can go out on this ticket.
    if (!before || inventoryChanged) await requireFit(tx, inventoryId, ticket);
    const logged = before
      ? !!(await tx.select({ id: inventory_log.id }).from(inventory_log)
        .where(eq(inventory_log.sale_id, before.id)).limit(1).get())
      : false;
    if (logged && inventoryChanged) throw new AppError("conflict", LOGGED_INVENTORY_MESSAGE);
    const holds = !isQuote && inv.type !== "Charge Code";
    // Units already checked in, sold or removed are no longer held: a logged line's hold is its
    // quantity less those, so an edit moves the hold by the change and cannot go below them.
    const accounted = logged ? before!.quantity - before!.quantity_held : 0;
    if (logged && holds && quantity! < accounted) {
      fail([{
        path: "quantity",
        message: `Cannot be less than the ${accounted} already checked in or sold`,
      }]);
    }
    const held = !before
      ? (holds ? quantity! : 0)
      : logged
      ? (holds ? quantity! - accounted : before.quantity_held)
      : !inventoryChanged && quantity === before.quantity
      ? before.quantity_held
      : (holds ? quantity! : 0);

    let order = pick("order", null);
    if (order === null) {
      const last = await tx.select({ max: sql<number | null>`max(${sales.order})` }).from(sales)
        .where(eq(sales.ticket_id, ticket.id)).get();
      order = (last?.max ?? 0) + 1;
    }
    const values = {
      inventory_id: inventoryId,
      order,
      start_date: start,
      end_date: end,
      duration: pick("duration", minRate ? 0 : 1) ?? (minRate ? 0 : 1),
      quantity: quantity!,
      price: price!,
      minimum_rate: minimum,
      use_min_rate_logic: minRate,
      discount: pick("discount", 0),
      markup: pick("markup", null),
      state_tax: pick("state_tax", tax?.state_rate ?? null),
      county_tax: pick("county_tax", tax?.county_rate ?? null),
      city_tax: pick("city_tax", tax?.city_rate ?? null),
      hours: hoursBetween(start, end),
      notes: pick("notes", "") ?? "",
      doc: pick("doc", null),
      custom: input.custom === undefined ? before?.custom ?? {} : input.custom ?? {},
      quantity_held: held,
    };

    // Holds first: a refusal leaves nothing written.
    const moves: { inventoryId: number; delta: number; action: string }[] = [];
    const action = before ? "Line Updated" : "Line Added";
    if (inventoryChanged) {
      moves.push({ inventoryId: before!.inventory_id, delta: -before!.quantity_held, action });
      moves.push({ inventoryId, delta: held, action });
    } else moves.push({ inventoryId, delta: held - (before?.quantity_held ?? 0), action });
    for (const m of moves) await moveHold(tx, m.inventoryId, m.delta, quantity!);

    let id: number;
    if (before) {
      id = before.id;
      await tx.update(sales).set({ ...values, updated_at: nowStamp() }).where(eq(sales.id, id));
    } else {
      const [row] = await tx.insert(sales).values({
        ...values,
        ticket_id: ticket.id,
        company_id: ticket.company_id,
        created_by_id: ctx.user.id,
      }).returning({ id: sales.id });
      id = row.id;
    }
    const extra = auditExtra(t, start);
    for (const m of moves) {
      if (m.delta !== 0) await recordAudit(tx, ctx.user, m.inventoryId, m.action, -m.delta, extra);
    }
    return await getLine(tx, id);
  });
}
