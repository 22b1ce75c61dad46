/**
 * Prepared statements kept per connection (decision 016).
 *
 * `@libsql/client` prepares every statement again on every call (`db.prepare(sql)` in its `executeStmt`) and
 * asks it for its columns twice. A CPU profile of the soak (scripts/reliability/profile.ts) put SQLite's
 * prepare at about a third of the time the server spends in libSQL, on the one JavaScript thread every
 * tenant shares. The local driver (`libsql`, better-sqlite3's API) resets a statement before each run, so a
 * prepared statement can be used again with other arguments; a statement that failed is reset too.
 *
 * This wraps `Database.prototype.prepare` of the driver `@libsql/client` itself loads: each connection keeps
 * its most recently used statements (bounded), each with its column list remembered. Statements that fail to
 * prepare are not kept. Closing a connection drops its statements. Only local files use this driver; remote
 * databases (sqld) go over HTTP and are not affected.
 */
import { createRequire } from "node:module";

/** Statements kept per connection: the app issues a few hundred distinct SQL texts. */
export const STATEMENTS_PER_CONNECTION = 500;

interface Statement {
  columns(): unknown[];
}
interface Database {
  prepare(sql: string): Statement;
  close(): void;
}
interface DatabaseClass {
  prototype: Database & { [PATCHED]?: true };
}

const PATCHED = Symbol.for("pressure.statementCache");
const caches = new WeakMap<Database, Map<string, Statement>>();

/** Counters for tests and diagnostics. */
export const statementCacheStats = { prepared: 0, reused: 0, cached: 0 };

/** The `libsql` driver as `@libsql/client` resolves it (the same module instance). */
function driver(): DatabaseClass {
  const require = createRequire(import.meta.resolve("@libsql/client"));
  return require("libsql") as DatabaseClass;
}

/** Installs the cache once per process; later calls do nothing. */
export function installStatementCache(): void {
  const proto = driver().prototype;
  if (proto[PATCHED]) return;
  const prepare = proto.prepare;
  const close = proto.close;
  proto.prepare = function (this: Database, sql: string): Statement {
    let cache = caches.get(this);
    if (!cache) caches.set(this, cache = new Map());
    const known = cache.get(sql);
    if (known) {
      // most recently used last: the first key is the one to drop when full
      cache.delete(sql);
      cache.set(sql, known);
      statementCacheStats.reused++;
      return known;
    }
    const stmt = prepare.call(this, sql);
    statementCacheStats.prepared++;
    let columns: unknown[] | undefined;
    const original = stmt.columns;
    // A statement's result columns are fixed by its text (the app names every column it selects).
    stmt.columns = function () {
      return columns ??= original.call(this);
    };
    if (cache.size >= STATEMENTS_PER_CONNECTION) cache.delete(cache.keys().next().value!);
    else statementCacheStats.cached++;
    cache.set(sql, stmt);
    return stmt;
  };
  proto.close = function (this: Database) {
    statementCacheStats.cached -= caches.get(this)?.size ?? 0;
    caches.delete(this);
    return close.call(this);
  };
  proto[PATCHED] = true;
}
