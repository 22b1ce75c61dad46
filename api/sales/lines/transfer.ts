import { and, eq, inArray, max } from "drizzle-orm";
import { timeZoneOf, today } from "../../../lib/format.ts";
import { z } from "zod";
import { sales, type Ticket, tickets } from "../../../db/schema/mod.ts";
import type { Tx } from "../../../db/client.ts";
import type { Ctx } from "../../lib/context.ts";
import { AppError, invalid } from "../../../lib/errors.ts";
import { parse } from "../../lib/validate.ts";
import { nowStamp } from "../../lib/db_helpers.ts";
import { requireAbility } from "../../../lib/policy.ts";
import { recordAudit } from "../inventory/audit.ts";
import { logTotals, ticketAuditExtra } from "./checkin.ts";
import { OTHER_UNIT_TARGET, sameUnit } from "./fit.ts";
import { nextNumber } from "../tickets/numbers.ts";
import { startDueLines } from "./start_due.ts";
import { inJson } from "../../../db/in_json.ts";

export const id = z.coerce.number({ error: "Must be a number" }).int().positive();
export const lineIds = z.array(id, { error: "Required" }).min(1, { error: "Select at least one line" }).max(
  1000,
)
  .refine((ids) => new Set(ids).size === ids.length, { error: "Listed twice" });

export const TransferInput = z.object({
  ticket_id: id,
  line_ids: lineIds,
  to_ticket_id: id.nullish(),
});

export interface MoveResult {
  message: string;
  ticket_id: number;
  ticket_number: string;
  line_ids: number[];
}

/** A new OPEN ticket with the source's header (customer, rep, tax, unit, product lines, location). */
export async function newTicketFrom(
  ctx: Ctx,
  tx: Tx,
  source: Ticket,
  kind: { isTransfer?: boolean; isBillBack?: boolean },
): Promise<Ticket> {
  const [made] = await tx.insert(tickets).values({
    company_id: source.company_id,
    created_by_id: ctx.user.id,
    ticket_number: await nextNumber(tx, "ticket", ctx.user.company.settings),
    ticket_date: today(new Date(), timeZoneOf(ctx.user.company.settings)),
    customer_id: source.customer_id,
    sales_rep_id: source.sales_rep_id,
    tax_id: source.tax_id,
    business_unit_id: source.business_unit_id,
    product_line_id: source.product_line_id,
    sub_product_line_id: source.sub_product_line_id,
    location: source.location,
    use_min_rate_logic: source.use_min_rate_logic,
    status: "OPEN",
    source_ticket_id: source.id,
    ...kind,
  }).returning();
  return made;
}

export async function loadTicket(tx: Tx, ticketId: number, path = "ticket_id"): Promise<Ticket> {
  const t = await tx.select().from(tickets).where(eq(tickets.id, ticketId)).get();
  if (!t) {
    throw new AppError("not_found", path === "ticket_id" ? "Ticket not found." : "Target ticket not found.");
  }
  return t;
}

export async function linesOf(tx: Tx, ticketId: number, ids: number[]) {
  const lines = await tx.select().from(sales).where(
    and(inJson(sales.id, ids), eq(sales.ticket_id, ticketId)),
  );
  const byId = new Map(lines.map((l) => [l.id, l]));
  const missing = ids.find((i) => !byId.has(i));
  if (missing) throw new AppError("not_found", `Line not found on this ticket: ${missing}`);
  return ids.map((i) => byId.get(i)!);
}

/**
 * POST /api/sales/tickets/transfer: moves the selected lines, with their log and what they hold, to
 * another OPEN ticket of the same customer and business unit (`to_ticket_id`) or to a new OPEN transfer
 * ticket. Lines
 * with anything sold stay (the sale belongs to the ticket that billed it); quotes and approved
 * invoices don't give lines away. No stock moves; an audit row 'Line Transferred' per line.
 */
export async function transferLines(ctx: Ctx, body: unknown): Promise<MoveResult> {
  requireAbility(ctx.user, "sales.read");
  const input = parse(TransferInput, body);
  const result = await ctx.tdb.write(async (tx) => {
    // Bookings whose start has come hold their stock before this change counts it (decision 028).
    await startDueLines(tx, ctx);
    const source = await loadTicket(tx, input.ticket_id);
    if (source.status === "APP") {
      throw new AppError("conflict", "Lines of an approved invoice can't be transferred.");
    }
    if (source.status === "QUOTE" || source.isQuote) {
      throw new AppError("conflict", "Quote lines are not transferred.");
    }
    const lines = await linesOf(tx, source.id, input.line_ids);
    const totals = await logTotals(tx, input.line_ids);
    const sold = lines.find((l) => l.isSold || totals.get(l.id)!.sold > 0);
    if (sold) throw new AppError("conflict", `A line with sold quantity stays on its ticket: ${sold.id}`);
    let target: Ticket;
    if (input.to_ticket_id) {
      target = await loadTicket(tx, input.to_ticket_id, "to_ticket_id");
      if (target.id === source.id) throw invalid("to_ticket_id", "Choose another ticket");
      if (target.status !== "OPEN" || target.isQuote) {
        throw invalid("to_ticket_id", "Lines go to an OPEN ticket");
      }
      if (target.customer_id !== source.customer_id) {
        throw invalid("to_ticket_id", "Choose a ticket of the same customer");
      }
      // The lines hold the source unit's stock: a ticket of another business unit cannot take them.
      if (!sameUnit(source, target)) throw invalid("to_ticket_id", OTHER_UNIT_TARGET);
    } else {
      target = await newTicketFrom(ctx, tx, source, { isTransfer: true });
    }
    const top = await tx.select({ m: max(sales.order) }).from(sales).where(eq(sales.ticket_id, target.id))
      .get();
    let order = (top?.m ?? -1) + 1;
    const extra = await ticketAuditExtra(tx, target);
    for (const line of lines) {
      await tx.update(sales).set({ ticket_id: target.id, order: order++, updated_at: nowStamp() })
        .where(eq(sales.id, line.id));
      await recordAudit(tx, ctx.user, line.inventory_id, "Line Transferred", 0, {
        ...extra,
        start_date: line.start_date,
      });
    }
    await tx.update(tickets).set({ updated_at: nowStamp() }).where(
      inArray(tickets.id, [source.id, target.id]),
    );
    return target;
  });
  const n = input.line_ids.length;
  return {
    message: `Transferred ${n} ${n === 1 ? "line" : "lines"} to ${result.ticket_number}`,
    ticket_id: result.id,
    ticket_number: result.ticket_number,
    line_ids: input.line_ids,
  };
}
