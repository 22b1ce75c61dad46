/**
 * Prepared statements kept per connection (decision 016): the limit and the process's counters.
 *
 * A CPU profile of the soak (scripts/reliability/profile.ts) put SQLite's prepare at about a third of the time
 * the server spent in the database driver, on the one JavaScript thread every tenant shares. Each connection
 * to a local file (db/sqlite_client.ts) keeps its most recently used statements, bounded, with their column
 * lists; a statement that failed is reset by the driver and stays usable; closing a connection drops its
 * statements. Remote databases (sqld) go over HTTP and are not affected.
 */

/** Statements kept per connection: the app issues a few hundred distinct SQL texts. */
export const STATEMENTS_PER_CONNECTION = 500;

/**
 * Counters for tests, diagnostics and /metrics: prepared, reused, kept by open connections now, and the open
 * connections (each with its own statements and SQLite page cache).
 */
export const statementCacheStats = { prepared: 0, reused: 0, cached: 0, connections: 0 };
