import type { Client } from "@libsql/client";
import type { Tenant } from "./catalog/schema.ts";
import {
  isFileUrl,
  migrateTenant,
  openClient,
  resolveDbUrl,
  type TenantDatabase,
  tenantDrizzle,
  type Tx,
} from "./client.ts";

/**
 * One open tenant database. Reads go straight to the client; writes go through `write`, which runs
 * them one at a time in a transaction, so concurrent requests of this process never meet SQLITE_BUSY
 * and a check inside the transaction sees what it is about to change.
 */
export class TenantDb {
  private tail: Promise<unknown> = Promise.resolve();

  constructor(
    readonly tenant: Tenant,
    readonly url: string,
    readonly client: Client,
    readonly db: TenantDatabase,
  ) {}

  write<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    const run = this.tail.then(() => this.db.transaction(fn));
    this.tail = run.catch(() => undefined);
    return run;
  }

  async close() {
    await this.tail;
    this.client.close();
  }
}

export async function openTenantDb(dataDir: string, tenant: Tenant, migrate = true): Promise<TenantDb> {
  const url = resolveDbUrl(dataDir, tenant.db_url);
  const client = await openClient(url, tenant.db_token);
  const db = tenantDrizzle(client);
  if (migrate) await migrateTenant(db);
  // Fresh planner statistics, so a job's inspections are found through the job_id index. Sampled
  // (~3 ms at 100,000 inspections); SQLite 3.45's `PRAGMA optimize` skips never-analyzed tables, and a
  // libSQL server (sqld) refuses both statements: it keeps its own.
  if (isFileUrl(url)) await client.executeMultiple("PRAGMA analysis_limit=1000; ANALYZE;");
  return new TenantDb(tenant, url, client, db);
}

/** Open tenant databases, bounded: the least recently used is closed when the cache is full. */
export class TenantCache {
  private open = new Map<string, Promise<TenantDb>>();

  constructor(private dataDir: string, private max: number) {}

  async get(tenant: Tenant): Promise<TenantDb> {
    const key = tenant.slug;
    const cached = this.open.get(key);
    if (cached) {
      const db = await cached;
      // A restore or move points the catalog elsewhere: drop the stale client.
      if (db.tenant.db_url === tenant.db_url && db.tenant.id === tenant.id) {
        this.open.delete(key);
        this.open.set(key, cached);
        db.tenant.status = tenant.status;
        return db;
      }
      this.open.delete(key);
      db.close();
    }
    const opening = openTenantDb(this.dataDir, tenant);
    this.open.set(key, opening);
    opening.catch(() => this.open.delete(key));
    while (this.open.size > this.max) {
      const [oldest, p] = this.open.entries().next().value!;
      this.open.delete(oldest);
      p.then((d) => d.close()).catch(() => undefined);
    }
    return opening;
  }

  async closeAll() {
    const all = [...this.open.values()];
    this.open.clear();
    await Promise.all(all.map((p) => p.then((d) => d.close()).catch(() => undefined)));
  }
}
