import type { Client } from "@libsql/client";
import type { DrizzleConfig } from "drizzle-orm";
// @ts-expect-error: drizzle-orm/libsql's `drizzle` without its import of @libsql/client (see openClient);
// exported by the module, though its types leave it out.
import { construct } from "drizzle-orm/libsql/driver-core";
import type { LibSQLDatabase } from "drizzle-orm/libsql/driver-core";
import { migrate } from "drizzle-orm/libsql/migrator";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { sql } from "drizzle-orm";
import { isAbsolute, join } from "node:path";
import { fileURLToPath as fromFileUrl } from "node:url";
import * as catalogSchema from "./catalog/schema.ts";
import { createFileClient } from "./sqlite_client.ts";
import { fetchFor, type SqldRoute } from "./sqld.ts";
import { pipelined } from "./pipelined_client.ts";
import "./query_building.ts"; // drizzle's SQL text in one pass (decision 031)
import "./row_mapping.ts"; // drizzle's row mapping, compiled once per shape of query (decisions 031, 032)

/**
 * A tenant's database, without drizzle's relational query API (`db.query.*`), which nothing uses: given the
 * schema, drizzle builds a query builder per table for the database and again for every transaction and
 * savepoint, one of each per write (about 2% of a line save's thread, issue 10).
 */
export type TenantDatabase = LibSQLDatabase;
export type CatalogDatabase = LibSQLDatabase<typeof catalogSchema>;
export type Tx = Parameters<Parameters<TenantDatabase["transaction"]>[0]>[0];

const here = (p: string) => fromFileUrl(new URL(p, import.meta.url));
export const TENANT_MIGRATIONS = here("./migrations");
export const CATALOG_MIGRATIONS = here("./catalog/migrations");

/** `file:tenants/x.db` is relative to DATA_DIR; remote URLs pass through. */
export function resolveDbUrl(dataDir: string, url: string): string {
  if (!url.startsWith("file:")) return url;
  const path = url.slice("file:".length);
  return "file:" + (isAbsolute(path) ? path : join(dataDir, path));
}

export function isFileUrl(url: string) {
  return url.startsWith("file:");
}

/** Set once at start from SQLD_URL and SQLD_ADDRESS (`useSqldRoute`): every client of a name under it. */
let route: SqldRoute | undefined;

/** Sends every libSQL client of a name under SQLD_URL's host to SQLD_ADDRESS (set once, at start). */
export function useSqldRoute(r: SqldRoute | undefined) {
  route = r;
}

export interface ClientOptions {
  /**
   * How long a statement on a local file waits for another process's lock. The driver waits on the
   * JavaScript thread, so the server's tenant databases wait only briefly and retry asynchronously
   * (`TenantDb.write`, decision 019); tools (the CLI's backup and restore fence) may wait longer.
   */
  busyMs?: number;
  /** integers as bigint (copies of whole databases, where a number past 2^53 must not be rounded) */
  exact?: boolean;
  /**
   * A local file's commits made durable off the JavaScript thread, and its checkpoints run on a worker
   * (decision 030): for the server's tenant databases. Tools keep `synchronous=FULL` on their own thread.
   */
  syncOffThread?: boolean;
}

/**
 * Connections a client keeps to a local file. The driver runs every statement on the JavaScript thread, so
 * more connections add no parallelism; each one costs an open file (and its WAL and shared-memory files),
 * a page cache and its prepared statements (db/statement_cache.ts). A tenant needs one for its write group's
 * transaction, one for a backup's read transaction and one or two for reads interleaved with those; the
 * client's default, 20, let a busy tenant open connections that stayed for the life of the process.
 */
export const FILE_CONNECTIONS = 4;

/**
 * HTTP requests made to libSQL servers by this process (each one round trip: a Hrana pipeline, a cursor, or
 * the client's version probe), for `/metrics` and the bench's round trips per request (decision 057).
 */
export const remoteStats = { requests: 0 };

/** A libSQL client with the durability settings every database here uses. */
export async function openClient(
  url: string,
  authToken?: string | null,
  { busyMs = 5000, exact = false, syncOffThread = false }: ClientOptions = {},
): Promise<Client> {
  if (isFileUrl(url)) {
    // Local files through the runtime's own SQLite (db/sqlite_client.ts, decision 029).
    const client = createFileClient(url, {
      busyMs,
      connections: FILE_CONNECTIONS,
      bigint: exact,
      syncOffThread,
    });
    // WAL is persistent in the file; each connection sets the busy timeout, foreign_keys=ON and synchronous
    // (FULL, or NORMAL with the WAL's fdatasync awaited off the thread).
    await client.execute("PRAGMA journal_mode=WAL");
    return client;
  }
  const routed = fetchFor(url, route) ?? globalThis.fetch;
  const fetch = (input: Request | string | URL, init?: RequestInit) => {
    remoteStats.requests++;
    return routed(input, init);
  };
  // Loaded for the first remote database only: with the native library it loads, @libsql/client (and
  // drizzle's libsql entry, which imports it for a URL) was about 10 MB of every server's memory, where
  // local files go through node:sqlite.
  const { createClient } = await import("@libsql/client");
  const client = createClient({
    url,
    authToken: authToken ?? undefined,
    timeout: busyMs,
    ...(exact ? { intMode: "bigint" } : {}),
    fetch,
  } as never);
  // Statements started together sent in one request (db/pipelined_client.ts, decision 057).
  return pipelined(client, {
    url,
    authToken: authToken ?? undefined,
    intMode: exact ? "bigint" : "number",
    fetch,
  });
}

let newestTenantMigration: number | undefined;

/**
 * Brings a tenant database up to date; answers whether anything was applied. A database already at
 * the newest migration costs one indexed read (a tenant's first request should not re-read and hash
 * every migration file, nor open a write transaction).
 */
export async function migrateTenant(db: TenantDatabase): Promise<boolean> {
  newestTenantMigration ??= Math.max(
    0,
    ...readMigrationFiles({ migrationsFolder: TENANT_MIGRATIONS }).map((m) => m.folderMillis),
  );
  try {
    // `all`, not `values`: the driver's rows are not iterable, so destructuring them threw and every open
    // ran the migrator and a full ANALYZE (a write, which a second instance's open then waited on).
    const [row] = await db.all<{ applied: number | null }>(
      sql`select max(created_at) applied from __drizzle_migrations`,
    );
    if (row && row.applied !== null && Number(row.applied) >= newestTenantMigration) return false;
  } catch { /* no migrations table yet: a new database */ }
  await markRoundingBefore015(db);
  await migrate(db, { migrationsFolder: TENANT_MIGRATIONS });
  return true;
}

/**
 * Migration 0007 came with the first release after decision 015 (each amount of a line rounded to cents); a
 * database that has not run it was last served by a release that rounded sums once (decision 007), so its
 * approved invoices were issued under that rule. Migration 0032 reads this mark and keeps that rule for them
 * (decision 040). Left before the migration, not in it: by then the migrator has already recorded 0007.
 */
async function markRoundingBefore015(db: TenantDatabase) {
  const m0007 = readMigrationFiles({ migrationsFolder: TENANT_MIGRATIONS })[7]?.folderMillis;
  let applied: number | null = null;
  try {
    const [row] = await db.all<{ applied: number | null }>(
      sql`select max(created_at) applied from __drizzle_migrations`,
    );
    applied = row?.applied === null || row?.applied === undefined ? null : Number(row.applied);
  } catch { /* a new database */ }
  if (applied === null || m0007 === undefined || applied >= m0007) return;
  await db.run(sql`create table if not exists rounding_before_015 (id integer primary key)`);
}

export async function migrateCatalog(db: CatalogDatabase) {
  await migrate(db, { migrationsFolder: CATALOG_MIGRATIONS });
}

const drizzle = construct as <S extends Record<string, unknown> = Record<string, never>>(
  client: Client,
  config?: DrizzleConfig<S>,
) => LibSQLDatabase<S>;

export function tenantDrizzle(client: Client): TenantDatabase {
  return drizzle(client);
}

export function catalogDrizzle(client: Client): CatalogDatabase {
  return drizzle(client, { schema: catalogSchema });
}
