/**
 * Likely causes of the FAILs seen so far, shown beside each FAIL in docs/performance.md (the budgets stay;
 * a cause is recorded until the fix lands). Matched against the measure's name; first match wins. They
 * come from the plans the lists section prints (EXPLAIN QUERY PLAN of page 1's statements) and from
 * reading the code the request runs. Edit, then `npm run bench -- --report` rewrites the report from the
 * last run's figures.
 */
const CAUSES: [RegExp, string][] = [
  [
    /^sales data: (page 1|page 2,000|sort)/,
    "every call joins and sorts all 200,000 matching lines (plan starts from items, USE TEMP B-TREE FOR ORDER BY) " +
    "and counts them with a 5-table join over all 300,000 lines; sorts are on joined columns no index orders",
  ],
  [
    /^inventory: (page 1|page 2,000|sort)/,
    "default order is the joined items.item_number then serial (SCAN items + TEMP B-TREE over ~95,000 rows) and " +
    "the Totals row sums every matching row on each call; no index serves the other sorts either",
  ],
  [
    /^tickets: (page 1|page 2,000|sort)/,
    "5 statements per page: SCAN tickets for the count join, per-page totals from lines, rejections and " +
    "inventory_log scans (SCAN rejections / SCAN inventory_log in the plan)",
  ],
  [
    /^inspections: sort part_name/,
    "sorting by the joined parts.name: TEMP B-TREE over all 100,000 inspections",
  ],
  [
    /^(inspections|jobs|audit): page 1/,
    "the total counts every matching row on each call (most of the floor), plus the fixed cost per request",
  ],
  [/: page 2,000/, "LIMIT/OFFSET paging: SQLite steps over every skipped row (keyset paging would not)"],
  [
    /^(inspections|jobs|audit): sort/,
    "sorts without an index in that order build a TEMP B-TREE of every row; the rest pay the total and the " +
    "fixed cost per request",
  ],
  [
    /contains-search/,
    "LIKE '%term%' scans every row of the list (inventory, sales, audit, jobs, tickets); inspections use the FTS5 " +
    "trigram index but still count and page after it",
  ],
  [/at 10 connections/, "one request's cost above times one event loop on 2 cores: throughput is 1/latency"],
  [
    /over a bare Hono handler/,
    "per request: catalog host lookup (a SQLite read), tenant acquire, JWT verify (WebCrypto), session and user " +
    "load from the tenant database, compression; nothing cached between requests",
  ],
  [
    /^xlsx of/,
    "everyRow() pages the download through listSales with LIMIT/OFFSET: each page reruns the multi-second " +
    "list query (join, sort, count) — quadratic in rows",
  ],
  [
    /other requests while it streams/,
    "each page of the download is one synchronous multi-second SQLite query on the server's only thread",
  ],
  [/server peak RSS growth/, "pages of rows and their presented objects held while the zip is written"],
  [
    /JS \(gzip\)/,
    "every page ships the client chunk with React and react-dom (~64 KB gzip) plus the shared " +
    "react-aria-components chunks (TextField ~42 KB, Select ~32 KB gzip) used by the table islands",
  ],
  [
    /interactive \(hydrated\)/,
    "~180-210 KB gzip of JS at 400 kbit/s is ~4 s of transfer alone before hydration (cold); warm, the HTML's own " +
    "round trip and server time (sales data: seconds) dominate",
  ],
  [/first rows, cold/, "the HTML waits for the list query (sales data: seconds on the server)"],
  [
    /line saves/,
    "each save is a write transaction with several reads (ticket, inventory, totals), the line and an audit " +
    "row; group commit batches fsyncs but the statements run one after another on the server's thread",
  ],
  [
    /cold tenant/,
    "opening a tenant opens a libSQL client, runs the drizzle migrator (reads the migrations folder) and " +
    "PRAGMA optimize / ANALYZE before the first answer",
  ],
  [
    /idle server RSS/,
    "every provisioned tenant's catalog row is cheap; RSS is the Deno runtime and loaded modules",
  ],
];

export function causeOf(measure: string): string | undefined {
  return CAUSES.find(([re]) => re.test(measure))?.[1];
}
