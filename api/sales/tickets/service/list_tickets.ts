import { and, asc, count, desc, eq, inArray, ne, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { companies, rejections, tickets, users } from "../../../../db/schema/mod.ts";
import type { Ctx } from "../../../lib/context.ts";
import { likeContains, type ListResult, pageWindow } from "../../../lib/list_query.ts";
import { requireAbility } from "../../../lib/policy.ts";
import type { Named, TICKET_SORTS, TicketListQuery, TicketTotals } from "../schemas.ts";
import { ticketFigures, ticketScope } from "./query.ts";
import { isDisputed } from "../rules.ts";

const reps = alias(users, "sales_rep");

const like = (column: SQL | typeof tickets.ticket_number, text: string | undefined) =>
  text ? sql`${column} like ${likeContains(text)} escape '\\'` : undefined;

const SORT: Record<(typeof TICKET_SORTS)[number], SQL> = {
  ticket_number: sql`${tickets.ticket_number}`,
  invoice_number: sql`${tickets.invoice_number}`,
  ticket_date: sql`${tickets.ticket_date}`,
  invoice_date: sql`${tickets.invoice_date}`,
  status: sql`${tickets.status}`,
  customer: sql`${companies.name} collate nocase`,
  sales_rep: sql`${reps.name} collate nocase`,
  created_at: sql`${tickets.created_at}`,
};

/**
 * The statuses a list shows: its flow (one stage; none or ALL for every stage). Invoices (APP) stay
 * off the working lists unless Show Invoiced adds them, or the list is the invoices' own.
 */
function statusWhere(q: TicketListQuery): SQL | undefined {
  const flow = q.ticketFlowFilter === "ALL" ? undefined : q.ticketFlowFilter;
  if (flow === "APP") return eq(tickets.status, "APP");
  if (flow) return q.showInvoiced ? inArray(tickets.status, [flow, "APP"]) : eq(tickets.status, flow);
  return q.showInvoiced ? undefined : ne(tickets.status, "APP");
}

function listWhere(ctx: Ctx, q: TicketListQuery): SQL | undefined {
  return and(
    ticketScope(ctx.user),
    statusWhere(q),
    q.isQuote === undefined ? undefined : eq(tickets.isQuote, q.isQuote),
    q.hidePaid ? eq(tickets.isPaid, false) : undefined,
    q.hideSigned ? eq(tickets.isSigned, false) : undefined,
    like(tickets.ticket_number, q.search_ticket_number),
    like(sql`coalesce(${tickets.invoice_number}, '')`, q.search_invoice_number),
    like(sql`${companies.name}`, q.search_customer),
    like(sql`coalesce(${reps.name}, '')`, q.search_sales_rep),
  );
}

export interface TicketListRow {
  customer: Named;
  sales_rep: Named | null;
  totals: TicketTotals;
  disputed: boolean;
  [k: string]: unknown;
}

/**
 * GET /api/sales/tickets: the five stage lists. Newest first unless sorted; each row with its
 * customer, sales rep, totals and whether it is disputed (latest rejection unresolved in RFB/RFA).
 */
export async function listTickets(ctx: Ctx, q: TicketListQuery): Promise<ListResult<TicketListRow>> {
  requireAbility(ctx.user, "sales.read");
  const where = listWhere(ctx, q);
  const dir = q.descending === false ? asc : desc;
  const { limit, offset } = pageWindow(q);
  const base = () =>
    ctx.db.select({
      t: tickets,
      customer: { id: companies.id, name: companies.name },
      rep: { id: reps.id, name: reps.name },
    })
      .from(tickets).innerJoin(companies, eq(companies.id, tickets.customer_id))
      .leftJoin(reps, eq(reps.id, tickets.sales_rep_id));
  const [rows, [{ total }]] = await Promise.all([
    base().where(where).orderBy(dir(q.sortBy ? SORT[q.sortBy] : sql`${tickets.id}`), dir(tickets.id))
      .limit(limit).offset(offset),
    ctx.db.select({ total: count() }).from(tickets).innerJoin(
      companies,
      eq(companies.id, tickets.customer_id),
    )
      .leftJoin(reps, eq(reps.id, tickets.sales_rep_id)).where(where),
  ]);
  const ids = rows.map((r) => r.t.id);
  const [figures, rejected] = await Promise.all([
    ticketFigures(ctx.db, rows.map((r) => r.t)),
    ids.length
      ? ctx.db.select({ ticket_id: rejections.ticket_id, resolved: rejections.resolved }).from(rejections)
        .where(inArray(rejections.ticket_id, ids)).orderBy(desc(rejections.created_at), desc(rejections.id))
      : [],
  ]);
  const latest = new Map<number, boolean>();
  for (const r of rejected) if (!latest.has(r.ticket_id)) latest.set(r.ticket_id, r.resolved);
  return {
    total,
    results: rows.map(({ t, customer, rep }) => ({
      ...t,
      customer,
      sales_rep: rep?.id ? rep as Named : null,
      totals: figures.get(t.id)!.totals,
      disputed: isDisputed(t.status, latest.get(t.id)),
    })),
  };
}
