import { isRetryable } from "../../db/tenants.ts";
import type { Client, InValue } from "@libsql/client";
import { fileCursor, fileReadOf } from "../../db/sqlite_client.ts";
import { readIdsOffThread } from "../../db/deep_reads.ts";
import { and, type Column, type SQL, sql, type SQLWrapper } from "drizzle-orm";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import type { Ctx } from "./context.ts";
import { timeSlices, yieldToEventLoop } from "../../lib/event_loop.ts";
import { DownloadReads } from "./list_query.ts";
import { AppError } from "../../lib/errors.ts";
import { addDays, dayOf, dayStartUtc } from "../../lib/format.ts";

/** The stored form of "now": ISO 8601 to the second, UTC (what the column defaults write). */
export const nowStamp = () => new Date().toISOString().slice(0, 19) + "Z";

/**
 * A date filter on a stored instant (UTC text): the days `first` to `last` (YYYY-MM-DD or an instant,
 * its day: `dayOf`; both included, either may be absent) on the company's clock, as UTC bounds compared
 * with the column itself (never wrapped in a function, so its index serves). Undefined when neither is given.
 */
export function onDays(
  col: Column | SQL,
  first: string | undefined,
  last: string | undefined,
  timeZone: string,
) {
  return and(
    first ? sql`${col} >= ${dayStartUtc(dayOf(first, timeZone), timeZone)}` : undefined,
    last ? sql`${col} < ${dayStartUtc(addDays(dayOf(last, timeZone), 1), timeZone)}` : undefined,
  ) as SQL | undefined;
}

/** true for SQLite's foreign key failure, however deep the driver wrapped it. */
export function isForeignKeyError(e: unknown): boolean {
  for (let x = e as { message?: string; cause?: unknown } | undefined; x; x = x.cause as typeof x) {
    if (String(x.message).includes("FOREIGN KEY constraint failed")) return true;
  }
  return false;
}

/** true when the disk (or the database's own size limit) is full, however deep the driver wrapped it. */
export function isDiskFull(e: unknown): boolean {
  for (
    let x = e as { message?: string; code?: string; cause?: unknown } | undefined;
    x;
    x = x.cause as typeof x
  ) {
    if (
      x.code === "SQLITE_FULL" || x.code === "ENOSPC" ||
      /database or disk is full|No space left/.test(String(x.message))
    ) {
      return true;
    }
  }
  return false;
}

/**
 * true when the tenant's database could not be reached or answered busy past what the write path retries:
 * a libSQL server that refuses or drops the connection, another process's lock met by a read, or a
 * transaction the server let go (TenantDb.write retries those for writes first, decision 019).
 */
export function isUnavailable(e: unknown): boolean {
  if (isRetryable(e)) return true;
  for (
    let x = e as { message?: string; code?: string; cause?: unknown } | undefined;
    x;
    x = x.cause as typeof x
  ) {
    if (
      ["ECONNREFUSED", "ECONNRESET", "EPIPE"].includes(String(x.code)) ||
      /fetch failed|error sending request|connection refused|connection reset|socket hang up/i.test(
        String(x.message),
      )
    ) {
      return true;
    }
  }
  return false;
}

export const unavailableError = () =>
  new AppError(
    "unavailable",
    "The database did not answer. Nothing more was saved than what was confirmed; try again in a moment.",
    undefined,
    { "Retry-After": "1" },
  );

export const diskFullError = () =>
  new AppError(
    "insufficient_storage",
    "The server's disk is full, so nothing was saved. Reading still works; ask your administrator to free space, then try again.",
  );

/**
 * The rows after `last` in a list ordered by a key and then the id, both descending or both ascending: a
 * row-value comparison, which SQLite answers as a range of the key's index (whose entries end with the id),
 * where the same condition written with `or` scans the index from its start. Rows whose key is null never
 * compare: a key that may be null is walked in two phases (Sales Data's `salesInOrder`).
 */
export function rowsAfter(
  key: SQL | Column,
  id: Column,
  last: { key: unknown; id: number },
  descending: boolean,
) {
  return descending
    ? sql`(${key}, ${id}) < (${last.key}, ${last.id})`
    : sql`(${key}, ${id}) > (${last.key}, ${last.id})`;
}

/** Ids a download walks into memory at most (8 bytes each); a longer walk is read by OFFSET pages. */
export const MAX_WALKED_IDS = 2_000_000;
/** How long one turn of a walk steps its cursor before other requests get a turn. */
const WALK_TURN_MS = 2;
const dialect = new SQLiteSyncDialect();

/**
 * Every id the queries return (each a read of one id column, in its order; one query after the other), for a
 * download in an order no read can start after a given row in (a sort through joined tables, or on a key that
 * may be null): the walk is stepped through a cursor about WALK_TURN_MS a turn, so it is done once, in short
 * turns, where reading it by OFFSET pages walked every earlier row again for each page (300 ms a read at the
 * end of 200,000 lines). The ids are in memory until the download has read their rows. Undefined for a
 * remote database (no cursor) or a walk past `max` ids: the caller reads by OFFSET pages then.
 */
export async function idsInSteps(
  ctx: Ctx,
  queries: SQL[],
  max = MAX_WALKED_IDS,
): Promise<number[] | undefined> {
  const ids: number[] = [];
  for (const query of queries) {
    const { sql: text, params } = dialect.sqlToQuery(query);
    const cursor = await fileCursor(ctx.tdb.client, { sql: text, args: params as never });
    if (!cursor) return undefined;
    try {
      for (let started = performance.now();;) {
        const rows = cursor.next(256);
        for (const row of rows) ids.push(Number(row[0]));
        if (ids.length > max) return undefined;
        if (rows.length < 256) break;
        if (performance.now() - started >= WALK_TURN_MS) {
          await yieldToEventLoop();
          started = performance.now();
        }
      }
    } finally {
      cursor.close();
    }
  }
  return ids;
}

/**
 * Rows into its walk from which a page's ids are read on the deep-read worker (`deepPageIds`), by how the walk
 * steps: about what the thread walks in 10 ms on the bench tenants (2026-11-27). Earlier pages are read here:
 * the worker's round trip costs a page 0.5-2.5 ms more. Figures: decision 036.
 */
export const DEEP_OFFSET = {
  /** through joined tables (Sales Data by a ticket's or stock row's name or the item number; inspections by
   * part): 1-1.5 microseconds a row */
  joined: 10_000,
  /** the inventory's orders (each stock row's item read): about 0.25 microseconds a row */
  stock: 40_000,
  /** one index in its order (a list's own columns): 0.04-0.1 microseconds a row */
  indexed: 100_000,
} as const;

/**
 * A deep page's ids: `limit` ids of `query` (one id column, in its order, no LIMIT of its own) after `offset`
 * rows (`from` or more: `DEEP_OFFSET` by the walk's kind), read by the same LIMIT/OFFSET statement on the
 * deep-read worker (db/deep_reads.ts), where it held the thread every tenant shares while it walked the rows
 * before the page (the last page of 200,000 lines sorted by item description: 220-270 ms). Undefined for an
 * early page (`offset` < `from`), an unlimited one, a database that is not a local file (its own server
 * walks), or a read in a transaction (none of its own client: it stays on the transaction's connection): the
 * caller reads it itself then.
 */
export async function deepPageIds(
  ctx: Ctx,
  query: SQLWrapper,
  limit: number,
  offset: number,
  from: number,
): Promise<number[] | undefined> {
  if (offset < from || limit < 0) return undefined;
  const client = (ctx.db as { $client?: Client }).$client;
  const { sql: text, params } = dialect.sqlToQuery(sql`${query.getSQL()} limit ${limit} offset ${offset}`);
  const file = client && fileReadOf(client, params as InValue[]);
  return file && await readIdsOffThread(file.path, text, file.args);
}

/** An id walk as drizzle builds it: its SQL, and a page of it read by LIMIT and OFFSET. */
interface IdWalk extends SQLWrapper {
  limit(limit: number): { offset(offset: number): PromiseLike<{ id: number }[]> };
}

/**
 * `limit` ids of an id walk after `offset`: a deep page (`from` rows in or more) on the deep-read worker
 * (`deepPageIds`), else here.
 */
export async function pageOfIds(
  ctx: Ctx,
  walk: IdWalk,
  limit: number,
  offset: number,
  from: number,
): Promise<number[]> {
  return await deepPageIds(ctx, walk, limit, offset, from) ??
    (await walk.limit(limit).offset(offset)).map((r) => r.id);
}

/**
 * Every row of a download in a walk's order: the walk's ids first (`idsInSteps`), then their rows, read by id
 * in reads sized by their pace (`DownloadReads`), with other requests' turns between reads and every few ms
 * of rows. `rows` answers the rows of some ids in the ids' order. Undefined where the walk cannot be stepped
 * (a remote database, or past MAX_WALKED_IDS): the caller reads OFFSET pages then.
 */
export async function rowsOfWalk<T, U>(
  ctx: Ctx,
  walks: SQL[],
  rows: (ids: number[]) => Promise<T[]>,
  map: (row: T) => U,
): Promise<AsyncIterable<U> | undefined> {
  const ids = await idsInSteps(ctx, walks);
  if (!ids) return undefined;
  return (async function* () {
    const slices = timeSlices();
    const reads = new DownloadReads(true);
    for (let at = 0; at < ids.length;) {
      const size = reads.size;
      const started = performance.now();
      const read = await rows(ids.slice(at, at + size));
      reads.next(size, performance.now() - started);
      at += size;
      for (const row of read) {
        yield map(row);
        if (slices.due()) await yieldToEventLoop();
      }
      if (slices.due()) await yieldToEventLoop();
    }
  })();
}

/**
 * `version + 1`, set by an edit whose UPDATE answers the row with RETURNING: the table's trigger bumps the
 * version too (migration 0033), but after RETURNING has read the row, and only when the version was not
 * set by the statement itself (decision 038).
 */
export const bumpVersion = (version: Column) => sql<number>`${version} + 1`;
