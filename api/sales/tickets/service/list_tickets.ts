import {
  and,
  asc,
  count,
  desc,
  eq,
  gt,
  inArray,
  isNotNull,
  isNull,
  lt,
  ne,
  type SQL,
  sql,
} from "drizzle-orm";
import { alias, integer, type SQLiteColumn, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { companies, rejections, tickets, users } from "../../../../db/schema/mod.ts";
import { drivenByIds, idsValue, rowsInIdOrder, shaped } from "../../../../db/shaped.ts";
import type { Ctx } from "../../../lib/context.ts";
import {
  everyRow,
  likeContains,
  type ListResult,
  listTotal,
  onlyFilters,
  pageWindow,
} from "../../../lib/list_query.ts";
import { DEEP_OFFSET, pageOfIds, rowsOfWalk } from "../../../lib/db_helpers.ts";
import { indexedContains } from "../../../lib/indexed_search.ts";
import { requireAbility } from "../../../../lib/policy.ts";
import { type Named, type TICKET_SORTS, TicketListQuery, type TicketTotals } from "../schemas.ts";
import { asIssuedTicket, ticketScope, ticketTotalsOf } from "./query.ts";
import { currentIssues } from "../../issued/read.ts";
import { isDisputed, mayBeDisputed } from "../rules.ts";

const reps = alias(users, "sales_rep");

const like = (column: SQL | typeof tickets.ticket_number, text: string | undefined) =>
  text ? sql`${column} like ${likeContains(text)} escape '\\'` : undefined;

/** Sorts on the ticket's own columns; each has an index behind the company and stage (migration 0007). */
const OWN_SORT: Record<Exclude<(typeof TICKET_SORTS)[number], "customer" | "sales_rep">, SQL> = {
  ticket_number: sql`${tickets.ticket_number}`,
  invoice_number: sql`${tickets.invoice_number}`,
  ticket_date: sql`${tickets.ticket_date}`,
  invoice_date: sql`${tickets.invoice_date}`,
  status: sql`${tickets.status}`,
  created_at: sql`${tickets.created_at}`,
};

/**
 * The statuses a list shows: its flow (one stage; none or ALL for every stage). Invoices (APP) stay
 * off the working lists unless Show Invoiced adds them, or the list is the invoices' own. `status`: the column
 * it is checked on (the tickets', or the kept counts').
 */
function statusWhere(q: TicketListQuery, status: SQLiteColumn = tickets.status): SQL | undefined {
  const flow = q.ticketFlowFilter === "ALL" ? undefined : q.ticketFlowFilter;
  if (flow === "APP") return eq(status, "APP");
  if (flow) return q.showInvoiced ? inArray(status, [flow, "APP"]) : eq(status, flow);
  return q.showInvoiced ? undefined : ne(status, "APP");
}

/** The list's filters on the ticket's company, status and flags: the ones its kept counts are by. */
function flagWhere(
  ctx: Ctx,
  q: TicketListQuery,
  t: {
    company_id: SQLiteColumn;
    status: SQLiteColumn;
    isQuote: SQLiteColumn;
    isPaid: SQLiteColumn;
    isSigned: SQLiteColumn;
  },
): SQL | undefined {
  return and(
    ticketScope(ctx.user, t.company_id),
    statusWhere(q, t.status),
    q.isQuote === undefined ? undefined : eq(t.isQuote, q.isQuote),
    q.hidePaid ? eq(t.isPaid, false) : undefined,
    q.hideSigned ? eq(t.isSigned, false) : undefined,
  );
}

/**
 * The tickets of each company, status and flags, kept by triggers (migration 0028; not in the schema that
 * drizzle-kit reads: only this list reads it).
 */
const flagCounts = sqliteTable("ticket_flag_counts", {
  company_id: integer("company_id").notNull(),
  status: text("status").notNull(),
  isQuote: integer("is_quote", { mode: "boolean" }).notNull(),
  isPaid: integer("is_paid", { mode: "boolean" }).notNull(),
  isSigned: integer("is_signed", { mode: "boolean" }).notNull(),
  tickets: integer("tickets").notNull(),
});

/** The query names no filter but those the kept counts are by (no search). */
const onlyFlags = onlyFilters<TicketListQuery>(TicketListQuery.shape, [
  "ticketFlowFilter",
  "showInvoiced",
  "isQuote",
  "hidePaid",
  "hideSigned",
]);

/**
 * How many tickets the list's filters match. Without a search: the counts kept by triggers, summed over the
 * statuses and flags the filters pick (a lookup, where counting 50,000 tickets took 6-10 ms on the first read
 * after every write). With one: counted, cached until a write.
 */
async function ticketTotal(ctx: Ctx, q: TicketListQuery, where: SQL | undefined): Promise<number> {
  if (!onlyFlags(q)) {
    return await listTotal(ctx, ctx.db.select({ total: count() }).from(tickets).where(where));
  }
  const [row] = await ctx.db.select({ total: sql<number>`coalesce(sum(${flagCounts.tickets}), 0)` })
    .from(flagCounts).where(flagWhere(ctx, q, flagCounts));
  return Number(row.total);
}

/**
 * The list's filters on the tickets table alone: the customer and sales-rep searches become id sets
 * from those small tables, so counting and paging need no join.
 */
function listWhere(ctx: Ctx, q: TicketListQuery): SQL | undefined {
  const named = (table: typeof companies | typeof users, text: string | undefined) =>
    text ? ctx.db.select({ id: table.id }).from(table).where(like(sql`${table.name}`, text)) : undefined;
  const customers = named(companies, q.search_customer);
  const salesReps = named(users, q.search_sales_rep);
  return and(
    flagWhere(ctx, q, tickets),
    // Through the FTS5 trigram index `tickets_fts` (a null invoice number matches no term, as with LIKE).
    indexedContains("tickets_fts", tickets.id, tickets.ticket_number, q.search_ticket_number),
    indexedContains("tickets_fts", tickets.id, tickets.invoice_number, q.search_invoice_number),
    customers ? inArray(tickets.customer_id, customers) : undefined,
    salesReps ? inArray(tickets.sales_rep_id, salesReps) : undefined,
  );
}

type Dir = typeof asc;

/** The list's order over the joined rows (All rows, one query): the same order pageIds walks. */
function fullOrder(q: TicketListQuery, dir: Dir): SQL[] {
  if (q.sortBy === "customer") {
    return [dir(sql`${companies.name} collate nocase`), dir(companies.id), dir(tickets.id)];
  }
  if (q.sortBy === "sales_rep") return [dir(sql`${reps.name} collate nocase`), dir(reps.id), dir(tickets.id)];
  return [dir(q.sortBy ? OWN_SORT[q.sortBy] : sql`${tickets.id}`), dir(tickets.id)];
}

/**
 * The list's ids in its order, as the statements that walk it, from the indexes. A customer sort walks
 * companies by name (then id), each company's tickets by id; a sales-rep sort does the same over users, with the
 * tickets without a rep (a null name) first ascending and last descending, as SQL orders nulls: two walks.
 * `cross join` keeps the named table the outer loop: SQLite 3.53 otherwise read every matching ticket and
 * sorted them.
 */
function idWalks(ctx: Ctx, where: SQL | undefined, q: TicketListQuery, dir: Dir) {
  const ids = () => ctx.db.select({ id: tickets.id });
  if (q.sortBy === "customer") {
    return [
      ids().from(companies).crossJoin(tickets).where(and(eq(tickets.customer_id, companies.id), where))
        .orderBy(dir(sql`${companies.name} collate nocase`), dir(companies.id), dir(tickets.id)).$dynamic(),
    ];
  }
  if (q.sortBy === "sales_rep") {
    const withoutRep = ids().from(tickets).where(and(where, isNull(tickets.sales_rep_id)))
      .orderBy(dir(tickets.id)).$dynamic();
    const withRep = ids().from(users).crossJoin(tickets).where(and(eq(tickets.sales_rep_id, users.id), where))
      .orderBy(dir(sql`${users.name} collate nocase`), dir(users.id), dir(tickets.id)).$dynamic();
    return dir === asc ? [withoutRep, withRep] : [withRep, withoutRep];
  }
  const column = q.sortBy ? OWN_SORT[q.sortBy] : sql`${tickets.id}`;
  return [ids().from(tickets).where(where).orderBy(dir(column), dir(tickets.id)).$dynamic()];
}

/**
 * One page's ids in the list's order (`idWalks`), from the indexes (a deferred join): OFFSET skips index
 * entries, and only the page's rows are read in full.
 */
async function pageIds(
  ctx: Ctx,
  where: SQL | undefined,
  q: TicketListQuery,
  dir: Dir,
  limit: number,
  offset: number,
) {
  const [first, second] = idWalks(ctx, where, q, dir);
  const head = await pageOfIds(ctx, first, limit, offset, DEEP_OFFSET.indexed);
  if (!second || head.length === limit) return head;
  // The first walk (by sales rep: the tickets without one, ascending) ended inside this page (or before it):
  // its size says where the second starts.
  const firstCount = head.length ? offset + head.length : (await ctx.db.select({ n: count() }).from(tickets)
    .where(and(where, dir === asc ? isNull(tickets.sales_rep_id) : isNotNull(tickets.sales_rep_id))))[0].n;
  return [
    ...head,
    ...await pageOfIds(
      ctx,
      second,
      limit - head.length,
      Math.max(0, offset - firstCount),
      DEEP_OFFSET.indexed,
    ),
  ];
}

export interface TicketListRow {
  id: number;
  customer: Named;
  sales_rep: Named | null;
  totals: TicketTotals;
  disputed: boolean;
  [k: string]: unknown;
}

/** Join conditions made once: a statement's joins are built once per condition (db/query_building.ts). */
const ON_CUSTOMER = eq(companies.id, tickets.customer_id);
const ON_REP = eq(reps.id, tickets.sales_rep_id);

/** What a ticket list row selects: one object, so its flat order and row mapper are worked out once. */
const TICKET_ROW_FIELDS = {
  t: tickets,
  customer: { id: companies.id, name: companies.name },
  rep: { id: reps.id, name: reps.name },
};

/** Tickets with their customer and sales rep. */
const joined = (db: Ctx["db"]) =>
  db.select(TICKET_ROW_FIELDS).from(tickets).innerJoin(companies, ON_CUSTOMER).leftJoin(reps, ON_REP);

/** A page's tickets by their ids as one JSON array: one statement for every page, built once (db/shaped.ts). */
const ROWS_BY_IDS = shaped((db) => drivenByIds(joined(db), tickets.id));

/** The rejections of the tickets given as one JSON array, newest first: one statement built once. */
const REJECTIONS_OF = shaped((db) =>
  drivenByIds(
    db.select({ ticket_id: rejections.ticket_id, resolved: rejections.resolved }).from(rejections),
    rejections.ticket_id,
  ).orderBy(desc(rejections.created_at), desc(rejections.id))
);

/** Every row (`page=-1`) is read after the last row in the default order (by id); other orders are walked. */
const ticketsReadAfterLast = (q: TicketListQuery) => !q.sortBy;

/**
 * GET /api/sales/tickets: the five stage lists. Newest first unless sorted; each row with its
 * customer, sales rep, totals and whether it is disputed (latest rejection unresolved in RFB/RFA).
 */
export async function listTickets(
  ctx: Ctx,
  q: TicketListQuery,
  /** a walk of every row (`page=-1`): the page starts after this row where the order allows it */
  last?: { id: number },
): Promise<ListResult<TicketListRow>> {
  requireAbility(ctx.user, "sales.read");
  const where = listWhere(ctx, q);
  const dir = q.descending === false ? asc : desc;
  // After the last row read, by id (the default order; never null); other orders page by OFFSET.
  const after = last && ticketsReadAfterLast(q)
    ? (dir === asc ? gt(tickets.id, last.id) : lt(tickets.id, last.id))
    : undefined;
  const { limit, offset } = pageWindow(q, after !== undefined);
  const [rows, total] = await Promise.all([
    limit === -1 ? joined(ctx.db).where(where).orderBy(...fullOrder(q, dir)) : (async () =>
      rowsInIdOrder(
        ROWS_BY_IDS,
        ctx.db,
        await pageIds(ctx, and(where, after), q, dir, limit, offset),
        (r) => r.t.id,
      ))(),
    ticketTotal(ctx, q, where),
  ]);
  return { total, results: await presented(ctx, rows) };
}

type JoinedTicket = Awaited<ReturnType<ReturnType<typeof joined>["all"]>>[number];

/** Tickets as the list answers them: each with its totals and whether it is disputed. */
async function presented(ctx: Ctx, rows: JoinedTicket[]): Promise<TicketListRow[]> {
  // The others' rejections are not read: they cannot make a ticket disputed.
  const awaiting = rows.filter((r) => mayBeDisputed(r.t.status)).map((r) => r.t.id);
  // An issued invoice is listed as it was sent: its names and totals as issued (decision 040).
  const invoices = rows.filter((r) => r.t.isInvoice).map((r) => r.t.id);
  const [totals, rejected, issues] = await Promise.all([
    ticketTotalsOf(ctx.db, rows.map((r) => r.t)),
    awaiting.length ? REJECTIONS_OF.all(ctx.db, idsValue(awaiting)) : [],
    currentIssues(ctx.db, invoices),
  ]);
  const latest = new Map<number, boolean>();
  for (const r of rejected) if (!latest.has(r.ticket_id)) latest.set(r.ticket_id, r.resolved);
  return rows.map(({ t, customer, rep }) => {
    const row = {
      ...t,
      customer,
      sales_rep: rep?.id ? rep as Named : null,
      totals: totals.get(t.id)!,
      disputed: isDisputed(t.status, latest.get(t.id)),
      invoice_revision: null as number | null,
    };
    const issue = issues.get(t.id);
    return issue ? { ...asIssuedTicket(row, issue), invoice_revision: issue.revision } : row;
  });
}

/**
 * Every ticket of the list in its order, for its JSON of every row (`page=-1`, the screens' "All"): in the
 * default order (by id) each read starts after the last row; in another the ids are walked once (`idWalks`,
 * `rowsOfWalk`) and read by id, where OFFSET pages of 1,000 each held the thread 25-78 ms for 50,000
 * tickets; where the walk cannot be stepped (a remote database), OFFSET pages.
 */
export async function everyTicket(ctx: Ctx, q: TicketListQuery): Promise<AsyncIterable<TicketListRow>> {
  requireAbility(ctx.user, "sales.read");
  const list = (page: number, rowsPerPage: number, last?: { id: number }) =>
    listTickets(ctx, { ...q, page, rowsPerPage }, last);
  if (ticketsReadAfterLast(q)) return await everyRow(list, undefined, true);
  const dir = q.descending === false ? asc : desc;
  return await rowsOfWalk(
    ctx,
    idWalks(ctx, listWhere(ctx, q), q, dir).map((walk) => walk.getSQL()),
    async (ids: number[]) => presented(ctx, await rowsInIdOrder(ROWS_BY_IDS, ctx.db, ids, (r) => r.t.id)),
    (row: TicketListRow) => row,
  ) ?? await everyRow(list);
}
