import { and, eq } from "drizzle-orm";
import { type NewTicket, type Ticket, tickets } from "../../../../db/schema/mod.ts";
import type { Tx } from "../../../../db/client.ts";
import type { Ctx, CurrentUser } from "../../../lib/context.ts";
import { AppError } from "../../../../lib/errors.ts";
import { nowStamp } from "../../../lib/db_helpers.ts";
import { timeZoneOf } from "../../../../lib/format.ts";
import { parse } from "../../../lib/validate.ts";
import { can, requireAbility } from "../../../../lib/policy.ts";
import { nextNumber } from "../numbers.ts";
import { type StatusChoice, transitionProblem } from "../rules.ts";
import { requireBilledUnchanged } from "../billed.ts";
import { TicketUpdateInput } from "../schemas.ts";
import { requireTicketFields } from "../required.ts";
import { checkParties, cloneQuote } from "./create_ticket.ts";
import { cancelIssue, issueInvoice } from "../../issued/issue.ts";
import { requireMatch } from "../../../lib/preconditions.ts";
import { findTicket, presentTicket, ticketFigures, type TicketOut, ticketScope, today } from "./query.ts";
import { settleStockOnStatus } from "./settle_on_invoice.ts";

const FIELDS = [
  "customer_id",
  "sales_rep_id",
  "tax_id",
  "business_unit_id",
  "product_line_id",
  "sub_product_line_id",
  "location",
  "notes",
  "ticket_date",
  "invoice_date",
  "use_min_rate_logic",
  "final_bill",
  "custom",
  "isSigned",
  "isBilled",
  "isPaid",
] as const;

/** The stored values of the fields the body names. */
function fieldValues(input: TicketUpdateInput): Partial<NewTicket> {
  const out: Record<string, unknown> = {};
  for (const k of FIELDS) if (input[k] !== undefined) out[k] = input[k];
  if (out.ticket_date === null) delete out.ticket_date;
  return out as Partial<NewTicket>;
}

/** What a status change writes besides the status: APP makes an invoice, leaving APP unmakes it. */
async function statusValues(
  tx: Tx,
  user: CurrentUser,
  t: Ticket,
  to: Ticket["status"],
  invoiceDate?: string | null,
) {
  if (to === "APP") {
    // A re-approved invoice keeps the number it had: invoice numbers are never reused or replaced.
    return {
      status: to,
      isInvoice: true,
      invoice_number: t.invoice_number ?? await nextNumber(tx, "invoice", user.company.settings),
      // The invoice is dated on the company's calendar: a late-evening approval is not tomorrow's.
      invoice_date: invoiceDate ?? t.invoice_date ?? today(timeZoneOf(user.company.settings)),
    };
  }
  return { status: to, isInvoice: false };
}

/**
 * PUT /api/sales/tickets: saves the fields given; a changed `status` is a transition checked
 * against the spec's rules (403 without the role, 409 when the ticket's state forbids it). On an
 * approved invoice only Signed, Billed and Paid change (409 naming any other changed field) unless
 * the same save re-opens it.
 * CLONEQUOTE on a quote answers the new OPEN copy.
 */
export async function updateTicket(ctx: Ctx, body: unknown): Promise<TicketOut & { message: string }> {
  requireAbility(ctx.user, "sales.read");
  const input = parse(TicketUpdateInput, body);
  requireTicketFields(ctx.user.company.settings, input, true);
  let message = "Ticket updated";
  const out = await ctx.tdb.write(async (tx) => {
    const t = await findTicket(tx, ctx.user, input.id);
    // A stale If-Match is refused before anything is checked or written (decision 038).
    await requireMatch(ctx, t.version, () => presentTicket(tx, ctx.user, t.id));
    const to = (input.status ?? t.status) as StatusChoice;
    if (to !== t.status) {
      const complete = to === "RFA" ? (await ticketFigures(tx, [t])).get(t.id)!.lines_complete : true;
      const problem = transitionProblem(t.status, to, { approver: can(ctx.user, "sales.approve"), complete });
      if (problem) throw new AppError(problem.code, problem.message);
    }
    const fields = fieldValues(input);
    // An approved invoice keeps what it billed: only its invoice state moves, unless this re-opens it.
    requireBilledUnchanged(t, fields, to === "OPEN" && t.status === "APP");
    await checkParties(tx, ctx.user, input);
    const values: Partial<NewTicket> = { ...fields, updated_at: nowStamp() };
    if (to !== t.status && to !== "CLONEQUOTE") {
      Object.assign(values, await statusValues(tx, ctx.user, t, to, input.invoice_date));
      if (to === "APP") message = "Invoice created";
    } else if (t.status === "APP") message = "Invoice updated";
    await tx.update(tickets).set(values).where(and(ticketScope(ctx.user), eq(tickets.id, t.id)));
    await settleStockOnStatus(tx, ctx.user, t, to); // approving uses up expendables (decision 039)
    // What the customer is sent is kept as issued; re-opening cancels it, never changes it (decision 040).
    if (t.status === "APP" && to === "OPEN") await cancelIssue(tx, t.id, ctx.user.name);
    if (t.status !== "APP" && to === "APP") {
      await issueInvoice(tx, ctx.user, t.id, ctx.user.name, today(timeZoneOf(ctx.user.company.settings)));
    }
    if (to === "CLONEQUOTE") {
      message = "Quote cloned";
      const saved = await findTicket(tx, ctx.user, t.id);
      return await presentTicket(tx, ctx.user, await cloneQuote(tx, ctx.user, saved));
    }
    return await presentTicket(tx, ctx.user, t.id);
  });
  return { ...out, message };
}
