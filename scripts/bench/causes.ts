/**
 * Likely causes of the FAILs seen so far, shown beside each FAIL in docs/performance.md (the budgets stay;
 * a cause is recorded until the fix lands). Matched against the measure's name; first match wins. They
 * come from the plans the lists section prints (EXPLAIN QUERY PLAN of page 1's statements) and from
 * reading the code the request runs. Edit, then `npm run bench -- --report` rewrites the report from the
 * last run's figures.
 */
const CAUSES: [RegExp, string][] = [
  [
    /^[a-z ]+: page 1 \+ total/,
    "the floor is the page's own statements on a warm file, and every list's total under its page's default " +
    "filters is now kept by triggers (migrations 0026-0030: Sales Data, inventory's Totals row, tickets, the " +
    "audit log, inspections; jobs count 5,000 rows of one table): a lookup, the page's ids and its rows, " +
    "0.1-0.3 ms. The same statements answered by a bare Hono handler (the floor column's 'bare Hono over " +
    "HTTP', same run) take 4-8x the floor: an HTTP round trip alone is above 1.5x so small a floor, so no " +
    "server can meet this ratio. Before the kept counts, the floor counted every row (3-13 ms) on each run " +
    "while the server cached the count (0.1-0.6x floor, PASS); the server's page 1 is what it was (p95 " +
    "1.3-3 ms), and its first read after a write went from 4-20 ms to 0.7-1.6 ms (scripts/prof/after_write.ts)",
  ],
  [
    /^sales data: sort (sales_rep|business_unit|product_line|sub_product_line)/,
    "two walks (the named rows by their name index, each one's tickets, their lines; then the lines whose " +
    "ticket names none): a page that starts in the second counts the first once (cached with the totals). A " +
    "p95 far above p50 was young-generation collections of 2-13 ms (decision 034): see the server's " +
    "--trace-gc-nvp under this request",
  ],
  [
    /^sales data: sort (ticket_number|invoice_number|invoice_date)/,
    "the walk reads tickets in that order and checks each of their lines against the invoices filter line by " +
    "line; tickets that are not invoices (a third, and with no invoice number or date all sorted first) are " +
    "walked and skipped: the filter belongs on the ticket loop of the walk, not on its lines (not done)",
  ],
  [
    /^inventory by location: page 1 at 10 connections/,
    "CPU per request on the one JavaScript thread: the view's page is one statement merging the page's Base " +
    "rows with every named location (a union, a subquery, four joins), about 0.3 ms of SQLite's stepping where " +
    "the inventory list's page takes about 0.1; its statement is built once for each set of filters since " +
    "2026-11-27 (0.49 -> 0.42-0.47 ms in the service; 748-917 -> 1,027 req/s). Throughput is 1/CPU, and the " +
    "load generator shares the two cores: runs of the same code vary by 15-20%",
  ],
  [
    /^sales data: page 1 at 10 connections/,
    "CPU per request on the one JavaScript thread (about 1.0-1.1 ms, 2026-11-27): SQLite's stepping about a " +
    "quarter (the page's ids, its rows by id through the eight joins, their inventory logs), gzip a tenth, " +
    "drizzle's building of the filters and the ids statement (the rows' statement is built once, db/shaped.ts), " +
    "JSON; throughput is 1/CPU, and the load generator shares the two cores",
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
    "first calls after a write, when the cached total and Totals row are counted again (13-17 ms with the " +
    "Totals index of migration 0025, items first; 280 ms before it)",
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
    /^(inspections|jobs): page 1/,
    "the floor is 1-3 ms, so the fixed cost of a request (session, tenant, JSON) is most of the difference; " +
    "jobs also count their inspections per row",
  ],
  [/: page 2,000/, "LIMIT/OFFSET paging: SQLite steps over every skipped row (keyset paging would not)"],
  [
    /^(inspections|jobs|audit|tickets): sort/,
    "a sort on a joined name builds a TEMP B-TREE of every row (the floor shows it); where the floor and the " +
    "p50 are a millisecond or two, a p95 over budget is a few slow samples: young-generation collections " +
    "(decision 034) or the machine's other work",
  ],
  [
    /contains-search/,
    "p50 is within budget for every list (1.6-2.5 ms on 2026-11-27); a p95 far above p50 was young-generation " +
    "collections of 2-13 ms (decision 034: see the server's --trace-gc-nvp under this request). Inventory's term matches 1,000 of 100,000 serials: its page " +
    "walks items in order checking each serial (decision 032), 0.6 ms of SQL; Sales Data's matches 1,967 " +
    "lines, walked in start order against the serials' suffix index alone (migration 0024), 0.3 ms of SQL",
  ],
  [
    /at 10 connections/,
    "CPU per request on the one JavaScript thread (about 1.2-1.6 ms: SQLite's stepping, drizzle's building of " +
    "each request's conditions, JSON, gzip): throughput is 1/CPU; more needs a lighter query path or more " +
    "processes",
  ],
  [
    /over a bare Hono handler/,
    "per request: catalog host lookup, tenant acquire, the session user query (prepared), compression",
  ],
  [
    /^audit: xlsx of/,
    "500,181 rows, 2.5 times the 200,000 the budget is set for, at 20-30 microseconds of the server's thread " +
    "each (a one-table read, the row's XML and its compression) and a timer turn every 5 ms that idles the " +
    "thread about 2 ms (lib/event_loop.ts); by the machine's speed (see above) 12.1-14.1 s in four other runs " +
    "of 2026-11-27 and 21.1 s in a fifth. A message turn or setImmediate in place of the timer turn made " +
    "it 10.2-18.2 s, but other requests then waited for the download (p95 115-296 ms, max 0.2-1.1 s, measured " +
    "2026-11-27): Deno reads new requests at its timer turns, so the timer turn stays",
  ],
  [
    /xlsx of/,
    "about 0.05 ms of the server's thread per line: the 8-table page query, the line's figures, and the XML, " +
    "written as bytes (decision 012, revised 2026-11-27: 1.4 GB allocated for the 200,000 lines where string " +
    "building took 3.3 GB); pages are keyset reads of 100 lines, and a timer turn every 5 ms idles the thread " +
    "about 2 ms, so beside the bench's probe it took 9.6-15 s in the runs of 2026-11-27 (after the change), " +
    "by the machine's speed",
  ],
  [
    /other requests while it streams/,
    "the download runs in slices of 5 ms with a timer turn between them (lib/event_loop.ts), so a request waits " +
    "for the slice in progress (p95 5-11 ms). The rare slow answers are time outside the server's code: in " +
    "runs of the audit download alongside a probe (a probe script, 2026-11-27, not kept) 7-13 of about 6,000 " +
    "probes took over 25 ms as the bench saw them and 0-1 as the server timed them (its /metrics), and its " +
    "loop ran at most one turn over 15 ms (STALL_LOG_MS). The server's own helper threads (V8's concurrent " +
    "marking under the download's allocations), the bench's reader and its probe share the two cores: with " +
    "the server pinned to one core and the bench to the other, 8-10 probes took over 50 ms (the server timed " +
    "0-1). Halving the download's allocation (the sheet as bytes: 130 collections to 60) and reads of about " +
    "2 ms made it rarer, not gone: in the `--only xlsx` runs of 2026-11-27 during the change the Sales Data " +
    "download's slowest other request was 37.8-72.6 ms (p95 7.5-8.7 ms), and 43.9 ms in the full run of the " +
    "final code; the other downloads' maxima fell to 14-42 ms. Seventh session (2026-11-27): 35.2-81.7 ms in " +
    "five runs of the same code, the machine's speed varying (js 16-28 ms); the server's stall log (STALL_LOG_MS=30, " +
    "with --trace-gc) showed two turns of 40-41 ms with no request in flight, and its collector's pauses were " +
    "at most 11.5 ms. Eighth session (2026-11-27): those turns were each download's start, the handler's and " +
    "the file's first turn in one (sign-in, first read, the six parts, the first rows; 26-72 ms with the code " +
    "and the compressors cold, one-off script, not kept); the file now writes its parts in turns of their own " +
    "(api/lib/xlsx.ts): in six runs after it the Sales Data download's slowest other request was 27-48 ms (the " +
    "highest on a slow run) and the others' 12-40 ms; what is left at the start is the handler's own turn (about " +
    "20 ms on a server's first download: its first read and the company's time zone, cold), and the rest is the " +
    "5 ms slices and the two shared cores",
  ],
  [/server peak RSS growth/, "one page of rows and their presented objects, and the zip writer's buffers"],
  [
    /JS \(gzip\)/,
    "every page ships React and react-dom (68 KB gzip, one chunk) and the list's table core and code (~14 KB); " +
    "dialogs, react-aria and zod load when opened (decision 022)",
  ],
  [
    /interactive \(hydrated\)/,
    "90-97 KB gzip of JS (10-16 files, decision 035) at 400 kbit/s is about 1.9 s of transfer by itself; the " +
    "HTML with its rows comes first, and each of the link's 400 ms round trips (connection, HTML, the scripts " +
    "over six connections) adds to it: cold hydration lands at 2.9-3.4 s; warm is within budget",
  ],
  [/first rows, cold/, "the HTML's round trips on the slow link"],
  [
    /line saves/,
    "CPU-bound on the one thread: a charge-code save costs about 0.9-1.0 ms of CPU (2026-11-27), SQLite about " +
    "0.3 ms of it (the insert with its 13 index entries 140 us, the group's commit shared by 2-3 saves); the " +
    "request's HTTP, session, validation and JSON most of the rest. The thread is also idle 15-19% of the " +
    "time: all 10 connections' saves in flight wait for their groups' fsyncs (off the thread, decision 030). " +
    "Runs of one commit vary by 10-15% on this machine",
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
