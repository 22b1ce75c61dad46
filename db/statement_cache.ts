/**
 * Prepared statements kept per connection (decisions 016 and 043): the limits and the process's counters.
 *
 * A CPU profile of the soak (scripts/reliability/profile.ts) put SQLite's prepare at about a third of the time
 * the server spent in the database driver, on the one JavaScript thread every tenant shares. Each connection
 * to a local file (db/sqlite_client.ts) keeps its most recently used statements, bounded by count and by an
 * estimate of their bytes, with their column lists; a statement that failed is reset by the driver and stays
 * usable; closing a connection drops its statements. Remote databases (sqld) go over HTTP and are not affected.
 *
 * Memory (decision 043): a prepared statement lives in SQLite's heap, out of V8's sight. Measured with
 * glibc's mallinfo2 (db/statement_cache_test.ts keeps the estimate honest), a statement holds 27-85 bytes per
 * character of its text: 20 KB for a one-table select of drizzle's, 73 KB for a four-table join, 140-165 KB
 * for an `in` list of 1,000-4,000 placeholders. `node:sqlite` has no way to finalize one statement: a statement
 * dropped from the cache is freed only when V8 collects its small wrapper, which may be never under a steady
 * load (2,000 statements dropped held 270 MB until a full collection). Closing its connection frees them all at
 * once. So a connection also counts the bytes of the statements it dropped, and once they pass
 * `DROPPED_BYTES_PER_CONNECTION` the pool closes it when it is next released and opens a fresh one on demand.
 */

/** Statements kept per connection: the app issues a few hundred distinct SQL texts. */
export const STATEMENTS_PER_CONNECTION = 500;

/**
 * Estimated bytes of SQLite's heap a statement takes per character of its text: above most of those measured
 * (27-51 for the app's selects, 64-85 for placeholder lists), so the byte bounds hold for the real memory.
 */
export const STATEMENT_BYTES_PER_CHAR = 64;

/** Estimated bytes of the statements one connection keeps: the least recently used go first past it. */
export const STATEMENT_BYTES_PER_CONNECTION = 16 * 2 ** 20;

/**
 * Estimated bytes of statements a connection has dropped (evicted, or prepared for one walk) and V8 has not yet
 * collected: past it the connection is closed and replaced, which frees them.
 */
export const DROPPED_BYTES_PER_CONNECTION = 24 * 2 ** 20;

/** The estimated bytes of SQLite's heap that a statement of this text holds while it is prepared. */
export function statementBytes(sql: string): number {
  return 1024 + sql.length * STATEMENT_BYTES_PER_CHAR;
}

/**
 * Counters for tests, diagnostics and /metrics: prepared, reused, kept by open connections now (and their
 * estimated bytes), dropped by the byte bound, connections replaced to free dropped statements, and the open
 * connections (each with its own statements and SQLite page cache).
 */
export const statementCacheStats = {
  prepared: 0,
  reused: 0,
  cached: 0,
  cachedBytes: 0,
  evictedForBytes: 0,
  recycled: 0,
  connections: 0,
};
