import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { inventory_log, sales } from "../../../db/schema/mod.ts";
import type { Ctx } from "../../lib/context.ts";
import { AppError, invalid } from "../../../lib/errors.ts";
import { parse } from "../../lib/validate.ts";
import { requireAbility } from "../../../lib/policy.ts";
import { recordAudit } from "../inventory/audit.ts";
import { logTotals, ticketAuditExtra } from "./checkin.ts";
import { id, lineIds, linesOf, loadTicket, type MoveResult, newTicketFrom } from "./transfer.ts";

export const BillBackInput = z.object({ ticket_id: id, line_ids: lineIds });

/**
 * POST /api/sales/tickets/bill-back: from an approved invoice, a new OPEN bill-back ticket with one
 * sold line per selected line that has sold quantity not yet billed back (same inventory, price, rates
 * and taxes; quantity = that sold quantity; quantity_held 0, the stock already left). The source
 * log's Sold entries are flagged billed, so the same sale is never billed back twice.
 */
export async function billBack(ctx: Ctx, body: unknown): Promise<MoveResult> {
  requireAbility(ctx.user, "sales.read");
  const input = parse(BillBackInput, body);
  const result = await ctx.tdb.write(async (tx) => {
    const source = await loadTicket(tx, input.ticket_id);
    if (source.status !== "APP") {
      throw new AppError("conflict", "Bill back is for sold items of an approved invoice.");
    }
    const lines = await linesOf(tx, source.id, input.line_ids);
    const totals = await logTotals(tx, input.line_ids);
    for (const [i, l] of lines.entries()) {
      const t = totals.get(l.id)!;
      if (t.sold === 0) throw invalid(`line_ids.${i}`, "Nothing sold on this line");
      if (t.sold_unbilled === 0) throw new AppError("conflict", `Already billed back: line ${l.id}`);
    }
    const target = await newTicketFrom(ctx, tx, source, { isBillBack: true });
    const extra = await ticketAuditExtra(tx, target);
    const made: number[] = [];
    for (const [order, l] of lines.entries()) {
      const qty = totals.get(l.id)!.sold_unbilled;
      const [line] = await tx.insert(sales).values({
        ticket_id: target.id,
        company_id: l.company_id,
        created_by_id: ctx.user.id,
        inventory_id: l.inventory_id,
        order,
        start_date: l.start_date,
        end_date: l.end_date,
        duration: l.duration,
        quantity: qty,
        price: l.price,
        minimum_rate: l.minimum_rate,
        use_min_rate_logic: l.use_min_rate_logic,
        discount: l.discount,
        markup: l.markup,
        state_tax: l.state_tax,
        county_tax: l.county_tax,
        city_tax: l.city_tax,
        hours: l.hours,
        notes: l.notes,
        isSold: true,
        quantity_held: 0,
      }).returning({ id: sales.id });
      made.push(line.id);
      await tx.update(inventory_log).set({
        billed: true,
        updated_at: sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`,
      })
        .where(
          and(
            eq(inventory_log.sale_id, l.id),
            sql`${inventory_log.quantity_sold} > 0`,
            eq(inventory_log.billed, false),
          ),
        );
      await recordAudit(tx, ctx.user, l.inventory_id, "Bill Back", 0, { ...extra, start_date: l.start_date });
    }
    return { target, made };
  });
  const n = result.made.length;
  return {
    message: `Billed back ${n} ${n === 1 ? "line" : "lines"} on ${result.target.ticket_number}`,
    ticket_id: result.target.id,
    ticket_number: result.target.ticket_number,
    line_ids: result.made,
  };
}
