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
    /^sales data: page 1 at 10 connections/,
    "CPU per request on the one JavaScript thread: a profile of this load (2026-11-25) put SQLite's stepping at " +
    "21% of the thread, drizzle's query building and row mapping at about 30%, garbage collection 5%, gzip 4%; " +
    "throughput is 1/CPU",
  ],
  [
    /^sales data: sort item_description/,
    "the walk reads items in description order, then every stock row and line of each, and sorts each item's " +
    "lines by id (TEMP B-TREE FOR LAST TERM OF ORDER BY): an item on thousands of lines is read whole for a page",
  ],
  [
    /^sales data: (page 1|page 2,000|sort)/,
    "page 2,000 lists every invoice ticket, then walks 20,000 index entries in order (OFFSET) and checks each " +
    "line's ticket against that list; the page itself is the 8-table query for 10 lines",
  ],
  [
    /^inventory: sort item_number/,
    "sorting by the joined item number walks items then their rows; p50 is within budget, the p95 is the " +
    "first calls after a write, when the cached total and Totals row are counted again (~20 ms)",
  ],
  [
    /^tickets: (page 1|page 2,000|sort)/,
    "5 statements per page (the version read for the cached total, the page's ids from an index, the tickets, " +
    "their lines' money fields, rejections of those awaiting billing or approval); each pays drizzle's query " +
    "building and row mapping on the one thread",
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
    "LIKE '%term%' scans the list's rows (tickets, jobs); inventory and Sales Data find serials through the " +
    "suffix index, then count and page the matches (1,000-2,000 for the bench's term) after it",
  ],
  [
    /at 10 connections/,
    "CPU per request on the one JavaScript thread (about 1.6 ms: SQLite's stepping, drizzle's query building " +
    "and row mapping, JSON, gzip): throughput is 1/CPU; more needs a lighter query path or more processes",
  ],
  [
    /over a bare Hono handler/,
    "per request: catalog host lookup, tenant acquire, the session user query (prepared), compression",
  ],
  [
    /^xlsx of/,
    "about 0.1 ms of CPU per line on the server's thread: the 8-table page query through drizzle's " +
    "mapping, the line's figures, and the XML; pages are keyset reads of 200 lines. The machine's speed moves " +
    "it: the code of 2026-11-25 (ba45bbb) took 12.1 s that day and 22.5 s on 2026-11-27, run again beside this " +
    "commit on the same data",
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
    "91-99 KB gzip of JS in 19-27 files at 400 kbit/s is about 2 s of transfer; with the HTML and data first " +
    "and the link's 400 ms round trips, cold hydration lands at 4.3 s (jobs, 96 KB, at 3.9 s); not yet broken " +
    "down further; warm is within budget",
  ],
  [/first rows, cold/, "the HTML's round trips on the slow link"],
  [
    /line saves/,
    "CPU-bound on the one thread: a charge-code save is 4 statements (the ticket, the stock row, the insert " +
    "with its order and RETURNING, a share of the group's commit; the bookings sweep once a second per write " +
    "group, decision 032). In-process (2026-11-27) a save costs 0.8 ms of CPU, SQLite about 0.3 ms of it (the " +
    "insert and its 13 index entries 80-140 us, the group's commit 120 us a save), drizzle's query building " +
    "and row mapping most of the rest (its `is()` checks alone 7% of a list's thread); under this load the " +
    "server spends about 1.5 ms a save, the rest in HTTP, session, JSON and GC. The same code varies by a " +
    "fifth between runs on this machine (the record of 2026-11-25, on the same kind of machine, was 881/s); " +
    "fsyncs are off the thread (decision 030) and cost 0.4 ms here",
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
