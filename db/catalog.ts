import { eq, sql } from "drizzle-orm";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import {
  catalog_generation,
  catalog_settings,
  type Tenant,
  tenant_hosts,
  tenants,
} from "./catalog/schema.ts";
import { type CatalogDatabase, catalogDrizzle, migrateCatalog, openClient } from "./client.ts";
import type { Client } from "@libsql/client";

/** A catalog on a libSQL server (CATALOG_URL): every instance and the CLI share it. */
export interface RemoteCatalog {
  url: string;
  token?: string;
}

export interface TenantRecord extends Tenant {
  hosts: string[];
}

/** The catalog database: which tenant a host belongs to, where its database is, and its status. */
export class Catalog {
  private constructor(readonly dataDir: string, readonly client: Client, readonly db: CatalogDatabase) {
    this.byHost = db.select({ t: tenants }).from(tenant_hosts)
      .innerJoin(tenants, eq(tenants.id, tenant_hosts.tenant_id))
      .where(eq(tenant_hosts.host, sql.placeholder("host"))).prepare();
  }

  /**
   * DATA_DIR/catalog.db, or the catalog on a libSQL server. DATA_DIR still holds the file tenants (and
   * is made when they are), so a catalog on a server works with a DATA_DIR that does not exist.
   */
  static async open(dataDir: string, remote?: RemoteCatalog): Promise<Catalog> {
    if (!remote) mkdirSync(join(dataDir, "tenants"), { recursive: true });
    const opened = await openClient(remote?.url ?? "file:" + join(dataDir, "catalog.db"), remote?.token);
    const hosts = remote ? new HostCache() : undefined;
    // This instance's own writes empty its cache when they commit: seen by its next request, not 2 s later.
    const client = hosts ? invalidating(opened, () => hosts.invalidate()) : opened;
    const db = catalogDrizzle(client);
    try {
      await migrateShared(db);
    } catch (e) {
      client.close();
      if (!remote) throw e;
      // drizzle's "Failed query" hides why: the server's answer (401, unreachable) is in the cause.
      const why = ((e as Error).cause as Error | undefined)?.message ?? (e as Error).message;
      throw new Error(`the catalog at ${remote.url} cannot be used: ${why}`);
    }
    const catalog = new Catalog(dataDir, client, db);
    // Only a catalog on a server is cached: a local file's indexed read costs microseconds, and the CLI's
    // changes to it are seen by the next request, as before.
    catalog.hosts = hosts;
    return catalog;
  }

  close() {
    this.client.close();
  }

  // Every request resolves its host: the statement is built once.
  private byHost;

  /** Host lookups of a catalog on a server, checked against its generation (decision 057). */
  hosts: HostCache | undefined;

  /**
   * Host (port stripped, lower case) to tenant; localhost falls back to the only tenant. On a catalog on a
   * server, answered from `hosts` while the catalog's generation, read at most GENERATION_CHECK_MS ago, is the
   * one the answer was read under: a change made anywhere reaches this instance's requests within
   * GENERATION_BOUND_MS.
   */
  async resolveHost(rawHost: string): Promise<Tenant | undefined> {
    const host = normalizeHost(rawHost);
    const cache = this.hosts;
    if (!cache) return await this.readHost(host);
    const generation = await cache.current(() => this.generation());
    const hit = cache.get(host, generation);
    if (hit) return hit.tenant;
    const tenant = await this.readHost(host);
    cache.set(host, tenant, generation);
    return tenant;
  }

  /** The catalog's generation: raised by every write to tenants and tenant_hosts (migration 0001). */
  async generation(): Promise<number> {
    const [row] = await this.db.select({ n: catalog_generation.n }).from(catalog_generation);
    return Number(row?.n ?? 0);
  }

  private async readHost(host: string): Promise<Tenant | undefined> {
    const [row] = await this.byHost.all({ host });
    if (row) return row.t;
    if (host === "localhost" || host === "127.0.0.1" || host === "[::1]") {
      const only = await this.db.select().from(tenants).limit(2);
      if (only.length === 1) return only[0];
    }
    return undefined;
  }

  async bySlug(slug: string): Promise<Tenant | undefined> {
    const [t] = await this.db.select().from(tenants).where(eq(tenants.slug, slug));
    return t;
  }

  async byId(id: number): Promise<Tenant | undefined> {
    const [t] = await this.db.select().from(tenants).where(eq(tenants.id, id));
    return t;
  }

  async list(): Promise<TenantRecord[]> {
    const all = await this.db.select().from(tenants).orderBy(tenants.slug);
    const hosts = await this.db.select().from(tenant_hosts);
    return all.map((t) => ({ ...t, hosts: hosts.filter((h) => h.tenant_id === t.id).map((h) => h.host) }));
  }

  async hostsTaken(hosts: string[]): Promise<string[]> {
    const rows = await this.db.select().from(tenant_hosts);
    return rows.map((r) => r.host).filter((h) => hosts.includes(h));
  }

  /** The session signing secret: from the environment, else generated once and kept here. */
  async sessionSecret(fromEnv?: string): Promise<string> {
    if (fromEnv) return fromEnv;
    const fresh = randomBytes(48).toString("base64url");
    await this.db.insert(catalog_settings).values({ key: "session_secret", value: fresh })
      .onConflictDoNothing();
    const [row] = await this.db.select().from(catalog_settings).where(
      eq(catalog_settings.key, "session_secret"),
    );
    return row.value;
  }

  async count(): Promise<number> {
    const [r] = await this.db.select({ n: sql<number>`count(*)` }).from(tenants);
    return r.n;
  }
}

/**
 * Instances starting together on a new shared catalog may both find it unmigrated; the one whose
 * migration commits second fails on the tables the first made. Trying again finds them applied.
 */
async function migrateShared(db: CatalogDatabase) {
  for (let attempt = 1;; attempt++) {
    try {
      return await migrateCatalog(db);
    } catch (e) {
      if (attempt >= 3) throw e;
      await new Promise((r) => setTimeout(r, 100 * attempt));
    }
  }
}

export function normalizeHost(host: string): string {
  const h = host.trim().toLowerCase();
  if (h.startsWith("[")) return h.slice(0, h.indexOf("]") + 1);
  return h.replace(/:\d+$/, "");
}

/**
 * `client`, calling `changed` after each statement that may have written (anything but a select), each batch,
 * migration and committed transaction.
 */
function invalidating(client: Client, changed: () => void): Client {
  const after = <T>(p: Promise<T>) => p.finally(changed);
  const reads = (stmt: unknown) => {
    const text = typeof stmt === "string"
      ? stmt
      : Array.isArray(stmt)
      ? String(stmt[0])
      : (stmt as { sql: string }).sql;
    return /^\s*select\b/i.test(text);
  };
  return new Proxy(client, {
    get(target, prop) {
      if (prop === "execute") {
        return (stmt: Parameters<Client["execute"]>[0], args?: Parameters<Client["execute"]>[1]) => {
          const p = target.execute(stmt as never, args as never);
          return reads(stmt) ? p : after(p);
        };
      }
      if (prop === "batch" || prop === "migrate" || prop === "executeMultiple") {
        return (...a: unknown[]) => after((target[prop] as (...x: unknown[]) => Promise<unknown>)(...a));
      }
      if (prop === "transaction") {
        return async (...a: unknown[]) => {
          const tx = await (target.transaction as (...x: unknown[]) => ReturnType<Client["transaction"]>)(
            ...a,
          );
          return new Proxy(tx, {
            get(t, q) {
              if (q === "commit") return () => after(t.commit());
              const v = Reflect.get(t, q, t);
              return typeof v === "function" ? v.bind(t) : v;
            },
          });
        };
      }
      const v = Reflect.get(target, prop, target);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
}

/** How often an instance under traffic reads the catalog's generation (in the background). */
export const GENERATION_CHECK_MS = 1000;
/**
 * The oldest generation read a cached host lookup may be served under: past it, a request waits for a fresh
 * read (one round trip). So a change to the catalog (suspend, delete, a host added or removed, a database URL
 * or token rotated), committed with its generation, reaches every instance's requests within this bound.
 */
export const GENERATION_BOUND_MS = 2000;
/** Bytes of host lookups kept (decision 043: caches are bounded by bytes), about 2,000 hosts. */
export const HOST_CACHE_BYTES = 1024 * 1024;

interface HostEntry {
  tenant: Tenant | undefined;
  generation: number;
  bytes: number;
}

/**
 * Host lookups of a catalog on a server, least recently used first, at most `maxBytes`, each kept with the
 * generation it was read under. Unknown hosts are kept too (anyone may send any Host header): the bound in
 * bytes covers them.
 */
export class HostCache {
  private entries = new Map<string, HostEntry>();
  private bytes = 0;
  private generation: number | undefined;
  /** when the read that gave `generation` started */
  private checkedAt = -Infinity;
  private checking: Promise<number> | undefined;

  constructor(
    readonly maxBytes = HOST_CACHE_BYTES,
    readonly checkMs = GENERATION_CHECK_MS,
    readonly boundMs = GENERATION_BOUND_MS,
    private now: () => number = () => performance.now(),
  ) {}

  get size() {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  /**
   * The generation to serve under: the last one read if that read started within `boundMs` (and a read in
   * the background once it is `checkMs` old), else a fresh one, awaited.
   */
  async current(read: () => Promise<number>): Promise<number> {
    const age = this.now() - this.checkedAt;
    if (this.generation !== undefined && age <= this.boundMs) {
      if (age > this.checkMs) this.check(read).catch(() => {/* the next request waits for one */});
      return this.generation;
    }
    return await this.check(read);
  }

  /**
   * A write of this instance committed: nothing cached is served until the generation is read again (a read
   * started before the write does not count).
   */
  invalidate() {
    this.epoch++;
    this.generation = undefined;
    this.checkedAt = -Infinity;
    this.checking = undefined;
    this.clear();
  }

  private epoch = 0;

  private check(read: () => Promise<number>): Promise<number> {
    if (this.checking) return this.checking;
    const started = this.now(), epoch = this.epoch;
    const p = this.checking = read().then((n) => {
      if (epoch !== this.epoch) return n; // a write of ours since: this read may predate it
      if (n !== this.generation) this.clear();
      this.generation = n;
      this.checkedAt = started;
      return n;
    }).finally(() => {
      if (this.checking === p) this.checking = undefined;
    });
    return p;
  }

  get(host: string, generation: number): HostEntry | undefined {
    const e = this.entries.get(host);
    if (!e) return undefined;
    if (e.generation !== generation) {
      this.delete(host, e);
      return undefined;
    }
    // most recently used last
    this.entries.delete(host);
    this.entries.set(host, e);
    return e;
  }

  set(host: string, tenant: Tenant | undefined, generation: number) {
    // A lookup read under a generation that has since changed is not kept.
    if (generation !== this.generation) return;
    const old = this.entries.get(host);
    if (old) this.delete(host, old);
    const bytes = entryBytes(host, tenant);
    if (bytes > this.maxBytes) return;
    this.entries.set(host, { tenant, generation, bytes });
    this.bytes += bytes;
    for (const [h, e] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.delete(h, e);
    }
  }

  clear() {
    this.entries.clear();
    this.bytes = 0;
  }

  private delete(host: string, e: HostEntry) {
    this.entries.delete(host);
    this.bytes -= e.bytes;
  }
}

/** About what an entry holds: two bytes a character of its strings, plus the map's and objects' overhead. */
function entryBytes(host: string, t: Tenant | undefined): number {
  let chars = host.length;
  if (t) {
    chars += t.slug.length + t.name.length + t.db_url.length + (t.db_token?.length ?? 0) + t.status.length +
      t.created_at.length;
  }
  return 2 * chars + 200;
}
