/**
 * Likely causes of the FAILs seen so far, shown beside each FAIL in docs/performance.md (the budgets stay;
 * a cause is recorded until the fix lands). Matched against the measure's name; first match wins. They
 * come from the plans the lists section prints (EXPLAIN QUERY PLAN of page 1's statements) and from
 * reading the code the request runs. Edit, then `npm run bench -- --report` rewrites the report from the
 * last run's figures.
 */
const CAUSES: [RegExp, string][] = [
  [
    /^sales data: sort (sales_rep|business_unit|product_line|sub_product_line)/,
    "a sort on the ticket's optional rep, unit or product line still joins and sorts every matching line " +
    "(TEMP B-TREE); the ordered walk the other sorts use (parent by its index, then its lines) would drop lines " +
    "whose ticket has none, so it needs a second phase for those (not done)",
  ],
  [
    /^sales data: sort (ticket_number|invoice_number|invoice_date)/,
    "the walk reads tickets in that order and checks each of their lines against the invoices filter line by " +
    "line; tickets that are not invoices (a third, and with no invoice number or date all sorted first) are " +
    "walked and skipped: the filter belongs on the ticket loop of the walk, not on its lines (not done)",
  ],
  [
    /^sales data: (page 1|page 2,000|sort)/,
    "the page walks an index in order and checks each line's ticket; what is left is the fixed cost of the " +
    "8-table page query, the lines' logs and figures, and @libsql/client's row objects (decision 016); page " +
    "2,000 steps over 100,000 index entries (OFFSET) and checks their tickets",
  ],
  [
    /^inventory: sort item_number/,
    "sorting by the joined item number walks items then their rows; p50 is within budget, the p95 is the " +
    "first calls after a write, when the cached total and Totals row are counted again (~20 ms)",
  ],
  [
    /^tickets: sort sales_rep/,
    "sorting by the rep's name (optional, a left join): TEMP B-TREE over the matching tickets",
  ],
  [
    /^tickets: (page 1|page 2,000|sort)/,
    "6 statements per page (the page's ids, the tickets, their totals from lines, rejections, counts): near " +
    "the budget on a quiet machine, over it with any other load; each statement pays the fixed cost of the " +
    "libSQL client (prepare is cached, row objects are not)",
  ],
  [
    /^inspections: sort part_name/,
    "sorting by the joined parts.name: TEMP B-TREE over all 100,000 inspections",
  ],
  [
    /^(inspections|jobs|audit): page 1/,
    "the floor is 1-3 ms, so the fixed cost of a request (session, tenant, JSON) is most of the difference; " +
    "jobs also count their inspections per row",
  ],
  [/: page 2,000/, "LIMIT/OFFSET paging: SQLite steps over every skipped row (keyset paging would not)"],
  [
    /^(inspections|jobs|audit|tickets): sort/,
    "a sort on a joined name builds a TEMP B-TREE of every row; the rest pay the fixed cost per request",
  ],
  [
    /contains-search/,
    "LIKE '%term%' scans the list's rows (sales lines, tickets, jobs); inventory and inspections use FTS5 " +
    "trigram indexes but count and page the matches (1,000-2,000) after them",
  ],
  [
    /at 10 connections/,
    "CPU per request on the one JavaScript thread (about 2-3 ms: @libsql/client's row objects, drizzle's " +
    "query building, JSON): throughput is 1/CPU; more needs a lighter driver path or more processes (issue 12)",
  ],
  [
    /over a bare Hono handler/,
    "per request: catalog host lookup, tenant acquire, the session user query (prepared), compression",
  ],
  [
    /^xlsx of/,
    "about 0.15 ms of CPU per line on the server's thread: the 8-table page query through @libsql/client's row " +
    "objects and drizzle's mapping, the line's figures, and the XML; pages are keyset reads of 200 lines",
  ],
  [
    /other requests while it streams/,
    "each 200-line page is 25-50 ms of synchronous work; a request that arrives waits for the page in progress " +
    "(the download yields to the event loop between pages)",
  ],
  [/server peak RSS growth/, "one page of rows and their presented objects, and the zip writer's buffers"],
  [
    /JS \(gzip\)/,
    "every page ships React and react-dom (~64 KB gzip) plus react-aria-components chunks (TextField ~42 KB, " +
    "Select ~32 KB gzip) used by the table islands (decision 018)",
  ],
  [
    /interactive \(hydrated\)/,
    "~180-210 KB gzip of JS at 400 kbit/s is ~4 s of transfer alone before hydration (cold); warm is within budget",
  ],
  [/first rows, cold/, "the HTML's round trips on the slow link"],
  [
    /line saves/,
    "each save reads the ticket, the stock row and the availability figures, writes the line, the hold and an " +
    "audit row, each statement on the server's one thread (about 2 ms CPU a save); group commit shares the " +
    "fsync, so saves are CPU-bound",
  ],
  [
    /cold tenant/,
    "opening a tenant opens a libSQL client and checks its migrations with one read",
  ],
  [
    /idle server RSS/,
    "every provisioned tenant's catalog row is cheap; RSS is the Deno runtime and loaded modules",
  ],
];

export function causeOf(measure: string): string | undefined {
  return CAUSES.find(([re]) => re.test(measure))?.[1];
}
