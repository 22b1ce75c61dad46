/**
 * What the in-process measures of scripts/prof share: a copy of the bench's large tenants (so the bench's own
 * files are never written), each opened as the server opens it with its admin as the caller, and the lists
 * with their default queries and sorts, called through their services as the routes call them.
 */
import { copyFileSync, existsSync, mkdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { openTenantDb, type TenantDb } from "../../db/tenants.ts";
import type { Tenant } from "../../db/catalog/schema.ts";
import { companies, users } from "../../db/schema/mod.ts";
import type { Ctx } from "../../api/lib/context.ts";
import { parseConfig } from "../../api/config.ts";
import { presentUser } from "../../api/admin/users/present.ts";
import { PT, SALES } from "../bench/lib.ts";
import { LISTS as BENCH_LISTS } from "../bench/lists.ts";

/** The bench's tenants (scripts/bench/lib.ts). */
export const TENANTS = [PT, SALES] as const;
export type Slug = "pt" | "sales";

export type Params = Record<string, string>;

export interface ProfList {
  name: string;
  tenant: Slug;
  /** the query the list's page sends by default */
  base: Params;
  sorts: readonly string[];
  run: (ctx: Ctx, p: Params) => Promise<unknown>;
}

/** The lists of the bench's lists section (scripts/bench/lists.ts), by their services. */
export const LISTS: ProfList[] = BENCH_LISTS.map((l) => ({
  name: l.name,
  tenant: l.tenant.slug as Slug,
  base: l.base,
  sorts: l.sorts,
  run: l.run,
}));

/**
 * The bench's catalog and tenant files copied into a new temporary data directory. `source` is a bench data
 * directory (`npm run bench` builds it once in .cache/bench/data).
 */
export function copyBenchData(source: string): string {
  if (!existsSync(join(source, "catalog.db"))) {
    throw new Error(`no bench data at ${source}: run \`npm run bench\` once (it builds .cache/bench/data)`);
  }
  const dataDir = Deno.makeTempDirSync({ prefix: "prof-" });
  mkdirSync(join(dataDir, "tenants"));
  for (const name of ["catalog.db", ...TENANTS.map((t) => `tenants/${t.slug}.db`)]) {
    for (const suffix of ["", "-wal"]) {
      const from = join(source, name + suffix);
      if (existsSync(from) && statSync(from).size > 0) copyFileSync(from, join(dataDir, name + suffix));
    }
  }
  return dataDir;
}

/** Each tenant opened as the server opens it (`openTenantDb`), its admin the caller; `close` ends them all. */
export async function openBenchTenants(
  dataDir: string,
): Promise<{ ctxs: Map<Slug, Ctx>; close(): Promise<void> }> {
  const config = parseConfig({ DATA_DIR: dataDir });
  const ctxs = new Map<Slug, Ctx>();
  const dbs: TenantDb[] = [];
  const close = async () => {
    for (const tdb of dbs) await tdb.close();
  };
  try {
    for (const t of TENANTS) {
      const tenant = { slug: t.slug, db_url: `file:tenants/${t.slug}.db` } as Tenant;
      const tdb = await openTenantDb(dataDir, tenant, false);
      dbs.push(tdb);
      const [u] = await tdb.db.select().from(users).where(eq(users.email, t.email));
      const [company] = await tdb.db.select().from(companies).where(eq(companies.id, u.company_id));
      ctxs.set(t.slug as Slug, { tdb, db: tdb.db, user: presentUser(u, company), config });
    }
  } catch (e) {
    await close();
    throw e;
  }
  return { ctxs, close };
}

export function p50(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)];
}

export async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}
