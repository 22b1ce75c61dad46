import { eq, sql } from "drizzle-orm";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { catalog_settings, type Tenant, tenant_hosts, tenants } from "./catalog/schema.ts";
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
    const client = await openClient(remote?.url ?? "file:" + join(dataDir, "catalog.db"), remote?.token);
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
    return new Catalog(dataDir, client, db);
  }

  close() {
    this.client.close();
  }

  // Every request resolves its host: the statement is built once.
  private byHost;

  /** Host (port stripped, lower case) to tenant; localhost falls back to the only tenant. */
  async resolveHost(rawHost: string): Promise<Tenant | undefined> {
    const host = normalizeHost(rawHost);
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
