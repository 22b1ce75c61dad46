import { isRetryable } from "../../db/tenants.ts";
import { and, type Column, type SQL, sql } from "drizzle-orm";
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
