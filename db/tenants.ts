import type { Client } from "@libsql/client";
import { sql } from "drizzle-orm";
import { AppError } from "../lib/errors.ts";
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
import { yieldToEventLoop } from "../lib/event_loop.ts";

/**
 * `PRAGMA user_version` of a tenant file that a restore has replaced. The restore sets it inside a write
 * transaction on the old file; every write here checks it inside its own transaction, so once the
 * restore has fenced the old file nothing more can be committed (and acknowledged) there: the write is
 * refused with 503 and its retry reaches the new file.
 */
export const RETIRED = 0x52455452;

export const retiredError = () =>
  new AppError("unavailable", "This business's data is being restored. Try again in a moment.", undefined, {
    "Retry-After": "1",
  });

/** Writes committed together at most: enough to share one fsync, short enough not to hold the thread. */
const MAX_GROUP = 32;

/** How long a group may run its writes before it lets other requests in. */
const YIELD_MS = 10;

interface Queued {
  fn: (tx: Tx) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/**
 * One open tenant database. Reads go straight to the client; writes go through `write`, which runs
 * them one at a time, so concurrent requests of this process never meet SQLITE_BUSY and a check inside
 * a write sees what it is about to change. Writes waiting together are committed together (group
 * commit): one transaction and one fsync for the group, each write in its own savepoint, so one that
 * fails is undone alone and answers its own error. Each is acknowledged only after the commit.
 */
export class TenantDb {
  private queue: Queued[] = [];
  private draining: Promise<void> = Promise.resolve();
  private running = false;
  /** Bumped by every committed write: figures cached under an older value are stale. */
  private version = 0;
  private totals = new Map<string, number>();
  private totalsVersion = 0;

  constructor(
    readonly tenant: Tenant,
    readonly url: string,
    readonly client: Client,
    readonly db: TenantDatabase,
  ) {}

  /** Writes queued and not yet taken into a commit group. */
  get writesWaiting(): number {
    return this.queue.length;
  }

  write<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ fn, resolve: resolve as (v: unknown) => void, reject });
      if (!this.running) {
        this.running = true;
        this.draining = this.drain();
      }
    });
  }

  private async drain() {
    try {
      while (this.queue.length) {
        await this.commitGroup(this.queue.splice(0, MAX_GROUP));
        // Without it a backlog of groups would keep every other request (other tenants', /healthz)
        // waiting until it is gone.
        if (this.queue.length) await yieldToEventLoop();
      }
    } finally {
      this.running = false;
    }
  }

  private async commitGroup(group: Queued[]) {
    const outcomes: Outcome[] = [];
    try {
      await this.db.transaction(async (tx) => {
        const fence = await tx.get<{ user_version: number }>(sql`PRAGMA user_version`);
        if (fence?.user_version === RETIRED) throw retiredError();
        if (group.length === 1) {
          outcomes.push({ ok: true, value: await group[0].fn(tx) });
          return;
        }
        let since = performance.now();
        for (const w of group) {
          try {
            outcomes.push({ ok: true, value: await tx.transaction((sp) => w.fn(sp)) });
          } catch (error) {
            outcomes.push({ ok: false, error });
          }
          // A long group gives other requests (reads on other connections, /healthz) a turn.
          if (performance.now() - since > YIELD_MS) {
            await yieldToEventLoop();
            since = performance.now();
          }
        }
      });
    } catch (error) {
      // Not committed (a lone write's own error, the fence, a full disk): nothing of the group is saved.
      for (const w of group) w.reject(error);
      return;
    }
    this.version++;
    group.forEach((w, i) => {
      const o = outcomes[i];
      if (o.ok) w.resolve(o.value);
      else w.reject(o.error);
    });
  }

  /**
   * A list's total, counted once until the next write of this process commits. A count walks every
   * matching index entry (4 ms at 100,000 inspections, most of a list page's cost) while the page itself
   * reads a few rows. Writes by another process (the CLI, a second instance) are not seen here: their
   * totals refresh with this process's next write.
   */
  async cachedTotal(key: string, count: () => Promise<number>): Promise<number> {
    const version = this.version;
    if (this.totalsVersion !== version) {
      this.totals.clear();
      this.totalsVersion = version;
    }
    const known = this.totals.get(key);
    if (known !== undefined) return known;
    const total = await count();
    if (this.version === version && this.totalsVersion === version) {
      if (this.totals.size >= 1000) this.totals.clear();
      this.totals.set(key, total);
    }
    return total;
  }

  async close() {
    while (this.running) await this.draining;
    this.client.close();
  }
}

export async function openTenantDb(dataDir: string, tenant: Tenant, migrate = true): Promise<TenantDb> {
  const url = resolveDbUrl(dataDir, tenant.db_url);
  const client = await openClient(url, tenant.db_token);
  const db = tenantDrizzle(client);
  const migrated = migrate && await migrateTenant(db);
  // Planner statistics, so a job's inspections are found through the job_id index and each sort uses
  // its own index. A full (sampled, ~3 ms at 100,000 inspections) ANALYZE when there are none yet or a
  // migration just added indexes; otherwise `PRAGMA optimize`, which re-analyzes only tables that grew
  // a lot. A libSQL server (sqld) refuses both statements: it keeps its own.
  if (isFileUrl(url)) {
    const stats = await client.execute("select 1 from sqlite_master where name = 'sqlite_stat1'");
    await client.executeMultiple(
      stats.rows.length && !migrated
        ? "PRAGMA analysis_limit=1000; PRAGMA optimize;"
        : "PRAGMA analysis_limit=1000; ANALYZE;",
    );
  }
  return new TenantDb(tenant, url, client, db);
}

/** Open tenant databases, bounded: the least recently used is closed when the cache is full. */
/**
 * A cache slot: the database (maybe still opening) and the requests holding it. Holds are counted
 * synchronously when a request asks, before any await, so an eviction or a restore that replaces the
 * slot meanwhile only marks it retired: it closes when its last request is done, never under one.
 */
class Slot {
  users = 0;
  retired = false;
  /** the database once open (for figures; requests await `db`) */
  ready: TenantDb | undefined;
  constructor(readonly tenant: Tenant, readonly db: Promise<TenantDb>) {
    db.then((d) => this.ready = d, () => undefined);
  }

  hold(): () => void {
    this.users++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.users === 0 && this.retired) this.close();
    };
  }

  retire() {
    if (this.retired) return;
    this.retired = true;
    if (this.users === 0) this.close();
  }

  close(): Promise<void> {
    return this.db.then((d) => d.close()).catch(() => undefined);
  }
}

/** Open tenant databases, bounded: the least recently used is closed when the cache is full. */
export class TenantCache {
  private open = new Map<string, Slot>();

  constructor(private dataDir: string, private max: number) {}

  /** The tenant's database, held for one request: call `release` when the request is done. */
  async acquire(tenant: Tenant): Promise<{ tdb: TenantDb; release: () => void }> {
    const slot = this.slot(tenant);
    const release = slot.hold();
    try {
      const tdb = await slot.db;
      tdb.tenant.status = tenant.status;
      return { tdb, release };
    } catch (e) {
      release();
      throw e;
    }
  }

  /** Figures for /metrics: open tenant databases and the writes waiting in their queues. */
  stats(): { open: number; writesWaiting: number } {
    let writesWaiting = 0;
    for (const slot of this.open.values()) writesWaiting += slot.ready?.writesWaiting ?? 0;
    return { open: this.open.size, writesWaiting };
  }

  /** The tenant's database, not held (tests, tools): it stays open while the cache keeps it. */
  async get(tenant: Tenant): Promise<TenantDb> {
    const { tdb, release } = await this.acquire(tenant);
    release();
    return tdb;
  }

  /** The slot for this catalog record; synchronous, so no other request runs in between. */
  private slot(tenant: Tenant): Slot {
    const key = tenant.slug;
    const cached = this.open.get(key);
    this.open.delete(key);
    // A restore or move points the catalog elsewhere: the stale slot is retired.
    if (cached && cached.tenant.db_url === tenant.db_url && cached.tenant.id === tenant.id) {
      this.open.set(key, cached);
      return cached;
    }
    cached?.retire();
    const slot = new Slot(tenant, openTenantDb(this.dataDir, tenant));
    this.open.set(key, slot);
    slot.db.catch(() => this.open.get(key) === slot && this.open.delete(key));
    while (this.open.size > this.max) {
      const [oldest, evicted] = this.open.entries().next().value!;
      this.open.delete(oldest);
      evicted.retire();
    }
    return slot;
  }

  async closeAll() {
    const all = [...this.open.values()];
    this.open.clear();
    await Promise.all(all.map((s) => s.close()));
  }
}
