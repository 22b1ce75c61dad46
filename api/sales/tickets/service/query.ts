import { and, asc, count, desc, eq, sql } from "drizzle-orm";
import { alias, type SQLiteColumn } from "drizzle-orm/sqlite-core";
import {
  categories,
  companies,
  inventory,
  inventory_log,
  items,
  rejections,
  sales,
  sub_categories,
  taxes,
  type Ticket,
  tickets,
  users,
} from "../../../../db/schema/mod.ts";
import type { TenantDatabase, Tx } from "../../../../db/client.ts";
import { drivenByIds, idsValue, inIdOrder, shaped } from "../../../../db/shaped.ts";
import type { CurrentUser } from "../../../lib/context.ts";
import { AppError } from "../../../../lib/errors.ts";
import { DEFAULT_TIME_ZONE, today as todayIn } from "../../../../lib/format.ts";
import {
  isDisputed,
  type LineMoney,
  type LineTotals,
  lineTotals,
  ticketComplete,
  type TicketTotals,
  ticketTotals,
} from "../rules.ts";
import { readTurns } from "../../../lib/list_query.ts";
import {
  type CurrentIssue,
  currentIssues,
  type IssuedNames,
  type IssuedSummary,
  revisionsOf,
  withIssuedNames,
} from "../../issued/read.ts";

export type Db = TenantDatabase | Tx;
/** Whose tickets are read: the caller's company (or, for the server's own work, the ticket's). */
export type Viewer = Pick<CurrentUser, "company_id">;

/** THE scoping rule of tickets: the caller's company (`companyId`: the column it is checked on). */
export const ticketScope = (user: Viewer, companyId: SQLiteColumn = tickets.company_id) =>
  eq(companyId, user.company_id);
/** Today as YYYY-MM-DD on the company's clock (settings.timeZone; UTC when none is given). */
export const today = (timeZone = DEFAULT_TIME_ZONE) => todayIn(new Date(), timeZone);

/** The ticket of the caller's company, or 404. */
export async function findTicket(db: Db, user: Viewer, id: number): Promise<Ticket> {
  const row = await db.select().from(tickets).where(and(ticketScope(user), eq(tickets.id, id))).get();
  if (!row) throw new AppError("not_found", "Ticket not found.");
  return row;
}

/** A line's ticket and the fields its money depends on (`LineMoney`). */
const LINE_MONEY = {
  ticket_id: sales.ticket_id,
  quantity: sales.quantity,
  price: sales.price,
  duration: sales.duration,
  minimum_rate: sales.minimum_rate,
  markup: sales.markup,
  discount: sales.discount,
  state_tax: sales.state_tax,
  county_tax: sales.county_tax,
  city_tax: sales.city_tax,
};

/** The money fields of the lines of the tickets given as one JSON array: one statement built once. */
const LINE_MONEY_OF = shaped((db) => drivenByIds(db.select(LINE_MONEY).from(sales), sales.ticket_id));
/** How many lines the tickets given as one JSON array have: their (ticket, order) index alone, built once. */
const LINE_COUNT_OF = shaped((db) => drivenByIds(db.select({ n: count() }).from(sales), sales.ticket_id));

/**
 * Lines a list page's totals read in one statement (about 1 ms of the thread): a page of tickets with more is
 * read a ticket at a time, with turns for other requests between them. A page of ten tickets of 4,000 lines
 * each was one read of 40,000 lines, the longest turn of issue 30's load.
 */
const TOTALS_READ = 2_000;

/**
 * The totals of each ticket, from the money fields of its lines alone: what a list row shows. A list page
 * needs neither the lines' items nor their logs (completeness), so it reads neither. Read outside a
 * transaction (a list page): a page of long tickets yields the thread between its tickets (`TOTALS_READ`).
 */
export async function ticketTotalsOf(
  db: Db,
  list: Pick<Ticket, "id" | "use_min_rate_logic" | "rounding">[],
): Promise<Map<number, TicketTotals>> {
  if (!list.length) return new Map();
  const ids = idsValue(list.map((t) => t.id));
  const totalsOf = (t: (typeof list)[number], lines: LineMoney[]) =>
    ticketTotals(lines.map((l) => lineTotals(l, t)), t.rounding);
  if ((await LINE_COUNT_OF.get(db, ids))!.n <= TOTALS_READ) {
    const byTicket = Map.groupBy(await LINE_MONEY_OF.all(db, ids), (l) => l.ticket_id);
    return new Map(list.map((t) => [t.id, totalsOf(t, byTicket.get(t.id) ?? [])]));
  }
  const out = new Map<number, TicketTotals>();
  const turn = readTurns();
  for (const t of list) {
    await turn();
    out.set(t.id, totalsOf(t, await LINE_MONEY_OF.all(db, idsValue([t.id]))));
  }
  return out;
}

/** A ticket's line ids, in the lines' order: its (ticket, order) index alone, built once. */
const LINE_IDS_OF = shaped((db) =>
  db.select({ id: sales.id }).from(sales).where(eq(sales.ticket_id, sql.placeholder("ticket")))
    .orderBy(asc(sales.order), asc(sales.id))
);

/** What the money and completeness of the lines given as one JSON array need (not the whole lines), built once. */
const FIGURE_LINES_OF = shaped((db) =>
  drivenByIds(
    db.select({
      line: { id: sales.id, ...LINE_MONEY, isSold: sales.isSold },
      isExpendable: items.isExpendable,
      inventory_type: items.inventory_type,
    })
      .from(sales)
      .innerJoin(inventory, eq(inventory.id, sales.inventory_id))
      .innerJoin(items, eq(items.id, inventory.item_id)),
    sales.id,
  )
);

/** The quantities of the logs of the lines given as one JSON array, built once. */
const LOG_QUANTITIES_OF = shaped((db) =>
  drivenByIds(
    db.select({
      sale_id: inventory_log.sale_id,
      quantity_in: inventory_log.quantity_in,
      quantity_sold: inventory_log.quantity_sold,
      remove_quantity: inventory_log.remove_quantity,
    }).from(inventory_log),
    inventory_log.sale_id,
  )
);

/**
 * Lines read for a ticket's figures at once: about 1 ms of the thread (2-5 µs a line, 2026-11-28:
 * decision 043a).
 */
const FIGURES_READ = 250;

/**
 * Totals and completeness of each ticket, from its lines, their items and their logs, read by the ticket's
 * line ids `FIGURES_READ` at a time. With `turns` (a read outside a transaction), other requests get the thread
 * between those reads every 2 ms of its work (`readTurns`): a ticket of 4,000 lines read at once was one turn of 9-30
 * ms (issue 30). The totals are summed in the lines' order, as one read of them all would.
 */
export async function ticketFigures(
  db: Db,
  list: Pick<Ticket, "id" | "use_min_rate_logic" | "rounding">[],
  turns = false,
): Promise<Map<number, { totals: TicketTotals; lines_complete: boolean }>> {
  const out = new Map<number, { totals: TicketTotals; lines_complete: boolean }>();
  const turn = turns ? readTurns() : undefined;
  for (const t of list) {
    const ids = (await LINE_IDS_OF.all(db, { ticket: t.id })).map((r) => r.id);
    const totals: LineTotals[] = [];
    let complete = true;
    for (let i = 0; i < ids.length; i += FIGURES_READ) {
      await turn?.();
      const pageIds = ids.slice(i, i + FIGURES_READ);
      const page = idsValue(pageIds);
      const lines = inIdOrder(await FIGURE_LINES_OF.all(db, page), pageIds, (l) => l.line.id);
      const logs = Map.groupBy(await LOG_QUANTITIES_OF.all(db, page), (g) => g.sale_id);
      // Hidden lines (custom.hide) only stay off the printout: they still count here.
      for (const l of lines) totals.push(lineTotals(l.line, t));
      complete &&= ticketComplete(lines.map((l) => ({
        line: l.line,
        item: { isExpendable: l.isExpendable, inventory_type: l.inventory_type },
        logs: logs.get(l.line.id) ?? [],
      })));
    }
    out.set(t.id, { totals: ticketTotals(totals, t.rounding), lines_complete: complete });
  }
  return out;
}

/** A ticket's rejections, newest first, each with the name of who wrote it. */
export async function rejectionsOf(db: Db, ticketId: number) {
  const rows = await db.select({ r: rejections, name: users.name }).from(rejections)
    .leftJoin(users, eq(users.id, rejections.created_by_id))
    .where(eq(rejections.ticket_id, ticketId))
    .orderBy(desc(rejections.created_at), desc(rejections.id));
  return rows.map(({ r, name }) => ({ ...r, created_by: { id: r.created_by_id, name: name ?? "" } }));
}

const productLines = alias(categories, "product_line");
const customerTax = alias(taxes, "customer_tax");

/** GET /api/sales/tickets/{id}'s shape: the ticket with its parties, totals and rejections. */
export async function presentTicket(
  db: Db,
  user: Viewer,
  id: number,
  /** a read outside a transaction: a long ticket's figures are read in several turns (`ticketFigures`) */
  turns = false,
) {
  const t = await findTicket(db, user, id);
  const one = async <T>(q: Promise<T | undefined>) => (await q) ?? null;
  const named = { id: categories.id, name: categories.name };
  const [customer, tax, business_unit, product_line, sub_product_line, rep, figures, rejected] = await Promise
    .all([
      one(
        db.select({ c: companies, tax: customerTax }).from(companies)
          .leftJoin(customerTax, eq(customerTax.id, companies.tax_id))
          .where(eq(companies.id, t.customer_id)).get(),
      ),
      t.tax_id ? one(db.select().from(taxes).where(eq(taxes.id, t.tax_id)).get()) : null,
      t.business_unit_id
        ? one(db.select(named).from(categories).where(eq(categories.id, t.business_unit_id)).get())
        : null,
      t.product_line_id
        ? one(
          db.select({ id: productLines.id, name: productLines.name }).from(productLines)
            .where(eq(productLines.id, t.product_line_id)).get(),
        )
        : null,
      t.sub_product_line_id
        ? one(
          db.select({ id: sub_categories.id, name: sub_categories.name }).from(sub_categories)
            .where(eq(sub_categories.id, t.sub_product_line_id)).get(),
        )
        : null,
      t.sales_rep_id
        ? one(
          db.select({ id: users.id, name: users.name, email: users.email }).from(users)
            .where(eq(users.id, t.sales_rep_id)).get(),
        )
        : null,
      ticketFigures(db, [t], turns),
      rejectionsOf(db, t.id),
    ]);
  const [issue, revisions] = t.invoice_number
    ? await Promise.all([currentIssues(db, [t.id]).then((m) => m.get(t.id)), revisionsOf(db, t.id)])
    : [undefined, []];
  const live = {
    ...t,
    customer: customer
      ? { id: customer.c.id, name: customer.c.name, tax_id: customer.c.tax_id, tax: customer.tax }
      : null,
    tax,
    business_unit,
    product_line,
    sub_product_line,
    sales_rep: rep,
    ...figures.get(t.id)!,
    rejections: rejected,
    disputed: isDisputed(t.status, rejected[0]?.resolved),
    /** the invoice's current revision as issued (null for drafts), and every revision ever issued */
    issued: issue ? revisionSummary(issue) : null,
    revisions: revisions.map(revisionSummary),
  };
  return issue ? asIssuedTicket(live, issue) : live;
}

/** A revision as the screen and the API list it. */
export const revisionSummary = (r: IssuedSummary) => ({
  revision: r.revision,
  number: r.number,
  document_date: r.document_date,
  issued_at: r.issued_at,
  issued_by: r.issued_by,
  origin: r.origin,
  cancelled_at: r.cancelled_at,
  cancelled_by: r.cancelled_by,
  grandtotal: r.grandtotal,
});

/**
 * An issued invoice shows what was sent: its parties' names and its totals as issued, whatever has been
 * renamed or re-ruled since (decision 040).
 */
export function asIssuedTicket<T extends IssuedNames & { totals: TicketTotals }>(
  t: T,
  issue: CurrentIssue,
): T {
  return {
    ...withIssuedNames(t, issue),
    totals: {
      subtotal: issue.subtotal,
      markup: issue.markup,
      discount: issue.discount,
      state_tax: issue.state_tax,
      county_tax: issue.county_tax,
      city_tax: issue.city_tax,
      grandtotal: issue.grandtotal,
    },
  };
}
export type TicketOut = Awaited<ReturnType<typeof presentTicket>>;

/** The lines of a ticket in order, for copying. */
export function linesOf(db: Db, ticketId: number) {
  return db.select().from(sales).where(eq(sales.ticket_id, ticketId)).orderBy(
    asc(sales.order),
    asc(sales.id),
  );
}
