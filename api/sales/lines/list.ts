import { and, asc, type Column, count, desc, eq, inArray, type SQL, sql } from "drizzle-orm";
import { addDays, timeZoneOf } from "../../../lib/format.ts";
import { DEEP_OFFSET, onDays, pageOfIds, rowsAfter, rowsOfWalk } from "../../lib/db_helpers.ts";
import { inventory, items, sales, sub_categories, tickets } from "../../../db/schema/mod.ts";
import {
  CHAINS,
  customers,
  isOptionalSort,
  nocase,
  OPTIONAL,
  optionalIds,
  productLines,
  reps,
  units,
  walkIds,
  walkQuery,
  walksOf,
} from "./list_order.ts";
import type { Ctx } from "../../lib/context.ts";
import {
  everyRow,
  jsonRowsMade,
  likeContains,
  type ListResult,
  listTotal,
  onlyFilters,
  pageWindow,
  readTurns,
} from "../../lib/list_query.ts";
import { serialContains, serialMatches, walkFindsSoon } from "../../lib/indexed_search.ts";
import { ON_STOCK_ITEM } from "../inventory/service/query.ts";
import { type XlsxColumn, xlsxResponse } from "../../lib/xlsx.ts";
import { drivenByIds, rowsInIdOrder, shaped } from "../../../db/shaped.ts";
import { requireAbility } from "../../../lib/policy.ts";
import { SalesListQuery, TicketLinesQuery } from "./schemas.ts";
import {
  calculated,
  getLine,
  LINE_ITEM_FIELDS,
  lineIdsOf,
  type LineOut,
  linesOfIds,
  logsOf,
  ON_STOCK,
  ON_TICKET,
} from "./query.ts";
import { isHandledStatus } from "./rules.ts";
import { parse } from "../../lib/validate.ts";
import { asIssued, currentIssues, issuedLinesOf, withIssuedNames } from "../issued/read.ts";
import { invoiceNumber } from "../tickets/rules.ts";
import { AppError } from "../../../lib/errors.ts";
import { timeSlices, yieldToEventLoop } from "../../../lib/event_loop.ts";

/** Join conditions made once: a statement's joins are built once per condition (db/query_building.ts). */
const ON_CUSTOMER = eq(customers.id, tickets.customer_id);
const ON_REP = eq(reps.id, tickets.sales_rep_id);
const ON_UNIT = eq(units.id, tickets.business_unit_id);
const ON_PRODUCT_LINE = eq(productLines.id, tickets.product_line_id);
const ON_SUB_PRODUCT_LINE = eq(sub_categories.id, tickets.sub_product_line_id);

/**
 * Lines of a ticket read, made into their wire shape and serialized in one turn at most: a ticket of 4,000
 * lines (issue 30) read and serialized at once held the thread 150-320 ms under load (its rows 60-130 ms,
 * their JSON 35-45 ms and its text's encoding twice 20-30 ms each), every other request and tenant waiting.
 */
const LINES_READ = 50;

/** Every line of the ticket by order (never paginated), as `{results, total}`, at once (the ticket page's render). */
export async function ticketLines(ctx: Ctx, query: unknown): Promise<ListResult<LineOut>> {
  const results = await ticketLinesOf(ctx, await ticketLineIds(ctx, query));
  return { results, total: results.length };
}

/** The ids of the ticket's lines in order, after the caller's right and the ticket are checked. */
async function ticketLineIds(ctx: Ctx, query: unknown): Promise<number[]> {
  requireAbility(ctx.user, "sales.read");
  const q = parse(TicketLinesQuery, query);
  const found = await ctx.db.select({ id: tickets.id }).from(tickets).where(eq(tickets.id, q.ticket_id))
    .get();
  if (!found) throw new AppError("not_found", "Ticket not found.");
  return await lineIdsOf(ctx.db, q.ticket_id);
}

/**
 * GET /api/sales/sales/ticket?ticket_id=: `ticketLines`' answer. The ticket's line ids are read first, in one
 * statement (its index alone); a ticket of more than `LINES_READ` lines is then read by their ids `LINES_READ`
 * at a time and serialized, with a turn for other requests every 2 ms of its work (`readTurns`), as downloads are
 * (decision 012), and answered as a stream of its pieces (`jsonRowsMade`: made in the request's turn of the
 * gate). A line deleted meanwhile is left out (`total` counts the lines answered); each line is as one read
 * found it.
 */
export async function ticketLinesResponse(ctx: Ctx, query: unknown): Promise<Response> {
  const ids = await ticketLineIds(ctx, query);
  if (ids.length <= LINES_READ) {
    const results = await ticketLinesOf(ctx, ids);
    return Response.json({ results, total: results.length } satisfies ListResult<LineOut>);
  }
  let total = 0;
  const rows = (async function* () {
    const turn = readTurns();
    for (let i = 0; i < ids.length; i += LINES_READ) {
      for (const line of await ticketLinesOf(ctx, ids.slice(i, i + LINES_READ))) {
        total++;
        yield line;
        await turn();
      }
    }
  })();
  return await jsonRowsMade(`{"results":[`, rows, () => `],"total":${total}}`);
}

/** These lines of a ticket in their wire shape: an issued invoice's as they were sent (decision 040). */
async function ticketLinesOf(ctx: Ctx, ids: number[]): Promise<LineOut[]> {
  const lines = await linesOfIds(ctx.db, ids);
  const issued = await issuedLinesOf(ctx.db, lines.map((l) => l.id));
  return issued.size ? lines.map((l) => asIssued(l, issued.get(l.id))) : lines;
}

/** GET /api/sales/sales/{id}: one line in the wire shape of the ticket's lines, with its version (ETag). */
export async function lineById(ctx: Ctx, id: number): Promise<LineOut> {
  requireAbility(ctx.user, "sales.read");
  return await getLine(ctx.db, id);
}

const contains = (col: Column, text: string | undefined) =>
  text ? sql`${col} like ${likeContains(text)} escape '\\'` : undefined;

/**
 * The filters as conditions on the line's own columns: what they ask of the ticket (and its customer and
 * rep) or of the stock row (and its item) becomes the set of those ids, found in the small tables. The
 * lines are then read by their own indexes in the page's order, never joined just to be filtered.
 */
function filters(
  ctx: Ctx,
  q: SalesListQuery,
  mode: "in" | "exists" | "joined" = "in",
  /** the stock rows found are checked on each line walked in the page's order, not read line by line */
  walkStock = false,
  /** the lines are read in start order (or counted): the default filters' flags are read through their index */
  startOrder = true,
): SQL | undefined {
  const ticket = and(
    contains(customers.name, q.search_customer_name),
    contains(reps.name, q.search_sales_rep_name),
    contains(tickets.ticket_number, q.ticket_number),
    contains(tickets.invoice_number, q.invoice_number),
    // A calendar date (no zone): compared as stored, so its index serves; the end day is included.
    q.invoice_date_begin ? sql`${tickets.invoice_date} >= ${q.invoice_date_begin}` : undefined,
    q.invoice_date_end ? sql`${tickets.invoice_date} < ${addDays(q.invoice_date_end, 1)}` : undefined,
    q.isInvoice ? eq(tickets.isInvoice, true) : undefined,
    q.hideQuotes ? and(eq(tickets.isQuote, false), sql`${tickets.status} <> 'QUOTE'`) : undefined,
  );
  const stock = and(
    contains(items.item_description, q.search_item_description),
    contains(inventory.inventory_description, q.search_inventory_description),
    serialContains(inventory.id, inventory.serial_number, q.serial_number),
    contains(items.item_number, q.item_number),
  );
  // Only what the conditions name is joined (a flag on the ticket reads the tickets alone); made only when
  // used (the default filters are flags on the line).
  const matchingTickets = (where: SQL) => {
    const ticketIds = ctx.db.select({ id: tickets.id }).from(tickets);
    const withCustomer = q.search_customer_name ? ticketIds.innerJoin(customers, ON_CUSTOMER) : ticketIds;
    return (q.search_sales_rep_name ? withCustomer.leftJoin(reps, ON_REP) : withCustomer).where(where);
  };
  // A broad condition (invoices, no quotes: most tickets) is checked line by line while the lines are
  // walked in the page's order (`+` keeps SQLite from reading them by ticket and sorting them all); a
  // search by name or number reads the few matching tickets' lines through the ticket index.
  const broad = !q.search_customer_name && !q.search_sales_rep_name && !q.ticket_number &&
    !q.invoice_number &&
    !q.invoice_date_begin && !q.invoice_date_end;
  // Invoices without quotes (the page's default filters) are flags on the line itself (migration 0021), kept
  // in step with its ticket by triggers: read in start order from their index, or checked on each line a
  // walk in another order reads (`+`: that sort's own index keeps the order).
  const flags = broad && q.isInvoice && q.hideQuotes && mode !== "joined"
    ? sql.raw(
      startOrder
        ? `"sales"."ticket_invoice" = 1 and "sales"."ticket_quote" = 0`
        : `+"sales"."ticket_invoice" = 1 and +"sales"."ticket_quote" = 0`,
    )
    : undefined;
  const onTicket = !ticket
    ? undefined
    : flags
    ? flags
    : !broad
    ? inArray(sales.ticket_id, matchingTickets(ticket))
    : mode === "joined"
    // The walk reads the tickets table itself (ticket, then its lines): the flags are checked once per
    // ticket, on its row, and a ticket that fails them is passed over without reading its lines.
    ? ticket
    : mode === "exists"
    // A short walk (an early page, a download's next page): each line's ticket is looked up by its key,
    // rather than first listing every matching ticket (tens of thousands, ~10 ms a call). `limit 1` keeps it
    // a probe per line: without it SQLite 3.53 turns the EXISTS into a join and first builds a Bloom filter
    // over every matching ticket (page 1: 8.5 ms, with it 0.05 ms; decision 012a, the figure is
    // commit 77e2b5e's).
    ? sql`exists (select 1 from ${tickets} where ${tickets.id} = ${sales.ticket_id} and ${ticket} limit 1)`
    : sql`+${sales.ticket_id} in ${matchingTickets(ticket)}`;
  // The stock rows matching, their item joined only when a condition names it; a serial alone is the serials'
  // suffix index alone (no stock row read).
  const onItem = !!(q.search_item_description || q.item_number);
  const stockIds = (where: SQL) => {
    const rows = ctx.db.select({ id: inventory.id }).from(inventory);
    return onItem ? rows.innerJoin(items, ON_STOCK_ITEM).where(where) : rows.where(where);
  };
  const ids = !stock
    ? undefined
    : q.serial_number && !onItem && !q.search_inventory_description
    ? sql`(${serialMatches(q.serial_number)})`
    : sql`${stockIds(stock)}`; // a select in a template is put in parentheses
  return and(
    onTicket,
    ids && sql`${walkStock ? sql`+` : sql``}${sales.inventory_id} in ${ids}`,
    // The From/To days are the company's: the stored UTC start is compared with that day's UTC bounds.
    onDays(sales.start_date, q.start_date_begin, q.start_date_end, timeZoneOf(ctx.user.company.settings)),
    q.id ? eq(sales.inventory_id, q.id) : undefined,
  );
}

const SORT: Record<NonNullable<SalesListQuery["sortBy"]>, SQL> = {
  start_date: sql`${sales.start_date}`,
  end_date: sql`${sales.end_date}`,
  ticket_number: sql`${tickets.ticket_number}`,
  invoice_number: sql`${tickets.invoice_number}`,
  invoice_date: sql`${tickets.invoice_date}`,
  customer: nocase(customers.name),
  serial_number: nocase(inventory.serial_number),
  item_number: nocase(items.item_number),
  item_description: nocase(items.item_description),
  business_unit: nocase(units.name),
  product_line: nocase(productLines.name),
  sub_product_line: nocase(sub_categories.name),
  sales_rep: nocase(reps.name),
  quantity: sql`${sales.quantity}`,
  minimum_rate: sql`${sales.minimum_rate}`,
  price: sql`${sales.price}`,
  discount: sql`${sales.discount}`,
  duration: sql`${sales.duration}`,
};

/** What a Sales Data row selects: one object, so its flat order and row mapper are worked out once. */
const ROW_FIELDS = {
  sale: sales,
  ticket: {
    id: tickets.id,
    ticket_number: tickets.ticket_number,
    invoice_number: tickets.invoice_number,
    invoice_date: tickets.invoice_date,
    status: tickets.status,
    isQuote: tickets.isQuote,
    isInvoice: tickets.isInvoice,
    use_min_rate_logic: tickets.use_min_rate_logic,
    rounding: tickets.rounding,
  },
  customer: { id: customers.id, name: customers.name },
  sales_rep: { id: reps.id, name: reps.name },
  inv: {
    id: inventory.id,
    serial_number: inventory.serial_number,
    inventory_description: inventory.inventory_description,
  },
  item: LINE_ITEM_FIELDS,
  business_unit: { id: units.id, name: units.name },
  product_line: { id: productLines.id, name: productLines.name },
  sub_product_line: { id: sub_categories.id, name: sub_categories.name },
};

function base(db: Ctx["db"]) {
  return db.select(ROW_FIELDS).from(sales)
    .innerJoin(tickets, ON_TICKET)
    .innerJoin(customers, ON_CUSTOMER)
    .leftJoin(reps, ON_REP)
    .innerJoin(inventory, ON_STOCK)
    .innerJoin(items, ON_STOCK_ITEM)
    .leftJoin(units, ON_UNIT)
    .leftJoin(productLines, ON_PRODUCT_LINE)
    .leftJoin(sub_categories, ON_SUB_PRODUCT_LINE);
}
type Row = Awaited<ReturnType<ReturnType<typeof base>["all"]>>[number];

/**
 * A page's rows by their ids (found first: `pageIds`, `walkIds`, `optionalIds`), given as one JSON array: one
 * statement for every page of every sort and filter, built once (db/shaped.ts). Building the eight joins and
 * the row's fields for each page was a sixth of the thread under load (2026-11-27).
 */
const ROWS_BY_IDS = shaped((db) => drivenByIds(base(db), sales.id));

/** The rows of these line ids, in the ids' order. */
const rowsOf = (ctx: Ctx, ids: number[]) => rowsInIdOrder(ROWS_BY_IDS, ctx.db, ids, (r) => r.sale.id);

/** One Sales Data row: the line, its ticket and the names the table shows, with the calculated fields. */
export type SalesDataRow =
  & Omit<Row, "inv" | "item" | "sale" | "ticket">
  & Row["sale"]
  & ReturnType<typeof calculated>
  & {
    ticket: Omit<Row["ticket"], "rounding"> & { invoice_revision?: number };
    sales_inventory: Row["inv"] & { item: Row["item"] };
    handled: boolean;
  };

/** Sorts on the line's own columns (each with an index): the page's ids come from the lines alone. */
const OWN_SORTS = {
  start_date: sales.start_date,
  end_date: sales.end_date,
  quantity: sales.quantity,
  minimum_rate: sales.minimum_rate,
  price: sales.price,
  discount: sales.discount,
  duration: sales.duration,
} as const;
type OwnSort = keyof typeof OWN_SORTS;
const isOwnSort = (s: string | undefined): s is OwnSort => s !== undefined && Object.hasOwn(OWN_SORTS, s);

/**
 * A page's line ids first (a deferred join): OFFSET skips index entries, and only the page is joined. The
 * sorts on the ticket's or the stock's names walk their own way (`walkIds`, `optionalIds`) but the item
 * number, which joins the line's stock row and item for its order: every line has both (NOT NULL foreign
 * keys), so the inner joins keep each line once.
 */
async function pageIds(
  ctx: Ctx,
  q: SalesListQuery,
  where: SQL | undefined,
  order: SQL[],
  limit: number,
  offset: number,
): Promise<number[]> {
  // By item number each line's stock row and item are joined; the line's own columns are one index each.
  const from = q.sortBy === "item_number" ? DEEP_OFFSET.joined : DEEP_OFFSET.indexed;
  return await pageOfIds(ctx, idsInOrder(ctx, q, where, order), limit, offset, from);
}

/** Every line id the filters match, in the order (`pageIds` without the page). */
function idsInOrder(ctx: Ctx, q: SalesListQuery, where: SQL | undefined, order: SQL[]) {
  const lines = ctx.db.select({ id: sales.id }).from(sales);
  const sorted = !q.sortBy || isOwnSort(q.sortBy)
    ? lines
    : lines.innerJoin(inventory, ON_STOCK).innerJoin(items, ON_STOCK_ITEM);
  return sorted.where(where).orderBy(...order);
}

const hasStockFilter = (q: SalesListQuery) =>
  !!(q.search_item_description || q.search_inventory_description || q.serial_number || q.item_number);

/** The query names no filter but those the kept figures are by. */
const onlyFlags = onlyFilters<SalesListQuery>(SalesListQuery.shape, ["isInvoice", "hideQuotes"]);

/**
 * The total when the only filters are the flags (the page's defaults: invoices, no quotes) or none: the lines
 * of each pair of flags are counted by triggers (migration 0026), where a count walked 200,000 lines' index
 * (12.7-17 ms) on the first read after every write.
 */
async function flagTotal(ctx: Ctx, q: SalesListQuery): Promise<number> {
  const [row] = await ctx.db.all<{ total: number }>(
    sql`select coalesce(sum("lines"), 0) as total from "sales_flag_counts" where ${
      q.isInvoice ? sql.raw(`"ticket_invoice" = 1`) : sql.raw("1")
    } and ${q.hideQuotes ? sql.raw(`"ticket_quote" = 0`) : sql.raw("1")}`,
  );
  return Number(row.total);
}

/**
 * GET /api/sales/sales: the Sales Data table, newest start first unless sorted otherwise. The
 * business unit, product line and sub product line are the ticket's.
 */
export async function listSales(
  ctx: Ctx,
  q: SalesListQuery,
  /** a condition on the page only, not the total (a download's place in the list: `salesInOrder`) */
  after?: SQL,
): Promise<ListResult<SalesDataRow>> {
  requireAbility(ctx.user, "sales.read");
  const where = filters(ctx, q);
  const { limit, offset } = pageWindow(q);
  // An early page or a download's keyset page walks few lines: their tickets are checked one by one.
  const few = after !== undefined || (limit !== -1 && offset + limit <= 5_000);
  const dir = q.descending ? desc : asc;
  const chain = q.sortBy ? CHAINS[q.sortBy as keyof typeof CHAINS] : undefined;
  const optional = isOptionalSort(q.sortBy) ? q.sortBy : undefined;
  // A walk through the tickets table checks the ticket's filters on it (and every read of the whole list
  // joins it).
  const onTickets = chain?.tickets || optional !== undefined || limit === -1;
  const totalOf = () =>
    onlyFlags(q)
      ? flagTotal(ctx, q)
      : listTotal(ctx, ctx.db.select({ total: count() }).from(sales).where(where));
  const walkStock = (!q.sortBy || isOwnSort(q.sortBy)) && limit !== -1 && after === undefined &&
    hasStockFilter(q) &&
    await walkFindsSoon(ctx, sales, await totalOf(), offset + limit);
  const pageWhere = and(
    filters(
      ctx,
      q,
      onTickets ? "joined" : few ? "exists" : "in",
      walkStock,
      !q.sortBy || q.sortBy === "start_date",
    ),
    after,
  );
  const order = chain
    ? chain.order.map(dir)
    : optional
    ? OPTIONAL[optional].order.map(dir)
    : q.sortBy
    ? [dir(SORT[q.sortBy]), dir(sales.id)]
    : [desc(sales.start_date), desc(sales.id)];
  const [rows, total] = await Promise.all([
    limit === -1 ? base(ctx.db).where(pageWhere).orderBy(...order) : (async () =>
      rowsOf(
        ctx,
        chain
          ? await walkIds(ctx, chain, pageWhere, dir, limit, offset)
          : optional
          ? await optionalIds(ctx, optional, pageWhere, dir, limit, offset)
          : await pageIds(ctx, q, pageWhere, order, limit, offset),
      ))(),
    totalOf(),
  ]);
  return { results: await present(ctx, rows), total };
}

/** The lines as the table shows them: each with its calculated fields (its check-in logs read for all). */
async function present(ctx: Ctx, rows: Row[]): Promise<SalesDataRow[]> {
  // An issued invoice's lines show what was sent: their figures and names as issued (decision 040).
  const invoiced = rows.filter((r) => r.ticket.isInvoice);
  const [logs, issuedLines, issues] = await Promise.all([
    logsOf(ctx.db, rows.map((r) => r.sale.id)),
    issuedLinesOf(ctx.db, invoiced.map((r) => r.sale.id)),
    currentIssues(ctx.db, invoiced.map((r) => r.ticket.id)),
  ]);
  return rows.map(({ sale, inv, item, ...r }) => {
    const calc = calculated(sale, item, r.ticket, logs.get(sale.id) ?? []);
    // The rounding rule is read for the figures, not answered: the row's shape is the spec's.
    const { rounding: _rule, ...ticket } = r.ticket;
    const row = {
      ...sale,
      ...r,
      ticket,
      ...calc,
      handled: isHandledStatus(calc.calculated_inventory_status),
      sales_inventory: { ...inv, item },
    };
    const issue = issues.get(r.ticket.id);
    if (!issue) return row;
    return {
      ...withIssuedNames(asIssued(row, issuedLines.get(sale.id)), issue),
      ticket: { ...row.ticket, invoice_revision: issue.revision },
    };
  });
}

/**
 * A download's walk in a sort no read can start after a given line in (through the ticket's or the stock's
 * names, or a joined column): the statements of its line ids, in the list's order (`idsInSteps`).
 */
function downloadWalks(ctx: Ctx, q: SalesListQuery): SQL[] {
  const dir = q.descending ? desc : asc;
  const chain = q.sortBy ? CHAINS[q.sortBy as keyof typeof CHAINS] : undefined;
  const optional = isOptionalSort(q.sortBy) ? q.sortBy : undefined;
  const where = filters(ctx, q, chain?.tickets || optional ? "joined" : "in", false, false);
  if (chain) return [walkQuery(chain, where, dir)];
  if (optional) return walksOf(optional, dir).map((walk) => walkQuery(walk, where, dir));
  return [idsInOrder(ctx, q, where, [dir(SORT[q.sortBy as keyof typeof SORT]), dir(sales.id)]).getSQL()];
}

export const SALES_COLUMNS: XlsxColumn[] = [
  { header: "Status", key: "status", width: 26 },
  { header: "Ticket #", key: "ticket_number", width: 14 },
  { header: "Inv #", key: "invoice_number", width: 14 },
  { header: "Inv Date", key: "invoice_date", width: 12, date: true },
  { header: "Start", key: "start_date", width: 20, instant: true },
  { header: "End", key: "end_date", width: 20, instant: true },
  { header: "Duration/Addl. Days", key: "duration", width: 10 },
  { header: "Customer", key: "customer", width: 24 },
  { header: "Serial #", key: "serial_number", width: 18 },
  { header: "Item #", key: "item_number", width: 16 },
  { header: "Item", key: "item_description", width: 30 },
  { header: "Business Unit", key: "business_unit", width: 18 },
  { header: "Product Line", key: "product_line", width: 18 },
  { header: "Sub Product Line", key: "sub_product_line", width: 18 },
  { header: "Sales Rep", key: "sales_rep", width: 20 },
  { header: "Quantity", key: "quantity", width: 10 },
  { header: "Min Rate", key: "minimum_rate", width: 10, format: "unitPrice" },
  { header: "Price/Addl. Day Rate", key: "price", width: 12, format: "unitPrice" },
  { header: "Discount", key: "discount", width: 10 },
  { header: "Tax", key: "calculated_tax", width: 10, format: "money" },
  { header: "Total", key: "calculated_total", width: 12, format: "money" },
];

/** An issued invoice's current revision (decision 040), shown with its number. */
const revisionOf = (r: SalesDataRow) => r.ticket.invoice_revision;

/** GET /api/sales/sales/download: the list's filters, every row, as Sales-YYYY-MM-DD.xlsx. */
export async function downloadSales(ctx: Ctx, q: SalesListQuery, today = new Date()): Promise<Response> {
  return xlsxResponse(
    "Sales",
    SALES_COLUMNS,
    await salesInOrder(ctx, q, (r) => ({
      ...r,
      status: r.calculated_inventory_status,
      ticket_number: r.ticket.ticket_number,
      invoice_number: r.ticket.invoice_number ? invoiceNumber(r.ticket.invoice_number, revisionOf(r)) : "",
      invoice_date: r.ticket.invoice_date ?? "",
      customer: r.customer.name,
      serial_number: r.sales_inventory.serial_number,
      item_number: r.sales_inventory.item.item_number,
      item_description: r.sales_inventory.item.item_description,
      business_unit: r.business_unit?.name ?? "",
      product_line: r.product_line?.name ?? "",
      sub_product_line: r.sub_product_line?.name ?? "",
      sales_rep: r.sales_rep?.name ?? "",
    })),
    today,
    { timeZone: timeZoneOf(ctx.user.company.settings) },
  );
}

/**
 * Every row of the list in its order, for a download: a page at a time, each read starting where the last
 * one ended (keyset: `(column, id)` past the last row's, one index range) rather than skipping the rows
 * before it, which made the download of 200,000 lines quadratic (each page walked every earlier row). The
 * sort column may be null: in SQLite's order nulls come first ascending and last descending, so the nulls
 * are a phase of their own, ordered by id. Sorts on a joined name fall back to numbered pages. The first
 * page is read before this resolves (a bad filter is a 4xx, not a broken download).
 */
export async function salesInOrder<U>(
  ctx: Ctx,
  q: SalesListQuery,
  map: (row: SalesDataRow) => U,
  /**
   * rows a read: one read is one synchronous turn (about 2 ms for 100 rows of the eight joined tables:
   * decision 012a)
   */
  pageSize = 100,
): Promise<AsyncIterable<U>> {
  const sortBy = q.sortBy ?? "start_date";
  const descending = q.sortBy ? !!q.descending : true;
  if (!isOwnSort(sortBy)) {
    requireAbility(ctx.user, "sales.read");
    // Walked once, in short turns, before the answer starts (a bad filter is a 4xx); then read by the ids.
    return await rowsOfWalk(
      ctx,
      downloadWalks(ctx, q),
      async (ids) => present(ctx, await rowsOf(ctx, ids)),
      map,
    ) ??
      everyRow((page, rowsPerPage) => listSales(ctx, { ...q, page, rowsPerPage }), map);
  }
  const col = OWN_SORTS[sortBy];
  const page = (after: SQL) => listSales(ctx, { ...q, page: 1, rowsPerPage: pageSize }, after);
  const phases = descending ? ["values", "nulls"] as const : ["nulls", "values"] as const;
  const start = (phase: "values" | "nulls") =>
    phase === "values" ? sql`${col} is not null` : sql`${col} is null`;
  const past = (phase: "values" | "nulls", last: SalesDataRow) =>
    phase === "values"
      ? rowsAfter(col, sales.id, { key: last[sortBy], id: last.id }, descending)
      : sql`${col} is null and ${sales.id} ${descending ? sql.raw("<") : sql.raw(">")} ${last.id}`;
  const first = (await page(start(phases[0]))).results;
  return (async function* () {
    // Other requests run every few ms: a row's XML and its compression run in the same turn as the row, so a
    // page written at once held the thread 10 ms and more. A turn is a timer's (about 2 ms idle when nothing
    // else waits): a message turn or an op's starved the other requests' own timer turns (p95 50-180 ms;
    // decisions 012a, 012b).
    const slices = timeSlices();
    for (const [i, phase] of phases.entries()) {
      let rows = i === 0 ? first : (await page(start(phase))).results;
      while (true) {
        for (const row of rows) {
          yield map(row);
          if (slices.due()) await yieldToEventLoop();
        }
        if (rows.length < pageSize) break;
        // The next page is read in this slice when it has time left: a timer turn per page idled the thread
        // about 2 ms each, 4 of the 19 s of a 200,000-row download.
        if (slices.due()) await yieldToEventLoop();
        rows = (await page(past(phase, rows.at(-1)!))).results;
      }
    }
  })();
}
