/**
 * The first read of each list's page 1 (with its total) after a write, in-process on a copy of the bench's
 * large tenants: the evidence of decision 012b ("writes that change no counted row keep the totals", "every
 * list's totals kept") and of the lists' "likely cause" in docs/performance.md. Each round makes one write
 * through the tenant's write queue (which moves `write_version`, so a cached total is counted again) and
 * times the next read; then a read with nothing written in between (the total cached); then a write marked
 * `keepsTotals` (a sign-in's throttle counters) and the read after it.
 *
 *   deno run -A scripts/prof/after_write.ts [--data .cache/bench/data] [--rounds 20]
 *
 * `--data` is a bench data directory (`npm run bench` builds it once in .cache/bench/data); its catalog and
 * tenant files are copied to a temporary directory first, so the bench's own files are never written. The
 * tenants are opened as the server opens them (`openTenantDb`: WAL, commits synced off the thread). Prints,
 * per list, the p50 and the largest of each kind of read, in ms. Timing figures: run it on a quiet machine,
 * or interleave it with what it is compared against.
 */
import { copyFileSync, existsSync, mkdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { parseArgs } from "node:util";
import { openTenantDb, type TenantDb } from "../../db/tenants.ts";
import type { Tenant } from "../../db/catalog/schema.ts";
import { companies, users } from "../../db/schema/mod.ts";
import type { Ctx } from "../../api/lib/context.ts";
import { parseConfig } from "../../api/config.ts";
import { presentUser } from "../../api/admin/users/present.ts";
import { InspectionListQuery, listInspections } from "../../api/pt/inspections/service.ts";
import { listJobs } from "../../api/pt/jobs/service.ts";
import { JobListQuery } from "../../api/pt/jobs/schemas.ts";
import {
  InventoryListQuery,
  listInventory,
  listInventoryLocations,
  LocationListQuery,
} from "../../api/sales/inventory/service.ts";
import { listSales, SalesListQuery } from "../../api/sales/lines/service.ts";
import { listInventoryAudit } from "../../api/sales/audit/service.ts";
import { AuditListQuery } from "../../api/sales/audit/schemas.ts";
import { listTickets } from "../../api/sales/tickets/service.ts";
import { TicketListQuery } from "../../api/sales/tickets/schemas.ts";

const { values: args } = parseArgs({
  args: Deno.args,
  options: {
    data: { type: "string", default: ".cache/bench/data" },
    rounds: { type: "string", default: "20" },
  },
});
const ROUNDS = Number(args.rounds);
const SOURCE = args.data!;

/** The bench's tenants (scripts/bench/lib.ts) and the lists page 1 reads, with their pages' default query. */
const TENANTS = [
  { slug: "pt", email: "admin@pt.example" },
  { slug: "sales", email: "admin@sales.example" },
] as const;
type Params = Record<string, string>;
const LISTS: {
  name: string;
  tenant: "pt" | "sales";
  base: Params;
  run: (c: Ctx, p: Params) => Promise<unknown>;
}[] = [
  {
    name: "inspections",
    tenant: "pt",
    base: {},
    run: (c, p) => listInspections(c, InspectionListQuery.parse(p)),
  },
  { name: "jobs", tenant: "pt", base: {}, run: (c, p) => listJobs(c, JobListQuery.parse(p)) },
  {
    name: "inventory",
    tenant: "sales",
    base: { inventory_type: "Serialized" },
    run: (c, p) => listInventory(c, InventoryListQuery.parse(p)),
  },
  {
    name: "inventory by location",
    tenant: "sales",
    base: { inventory_type: "Serialized" },
    run: (c, p) => listInventoryLocations(c, LocationListQuery.parse(p)),
  },
  {
    name: "sales data",
    tenant: "sales",
    base: { isInvoice: "true", hideQuotes: "true" },
    run: (c, p) => listSales(c, SalesListQuery.parse(p)),
  },
  { name: "audit", tenant: "sales", base: {}, run: (c, p) => listInventoryAudit(c, AuditListQuery.parse(p)) },
  {
    name: "tickets",
    tenant: "sales",
    base: { showInvoiced: "true" },
    run: (c, p) => listTickets(c, TicketListQuery.parse(p)),
  },
];

if (!existsSync(join(SOURCE, "catalog.db"))) {
  console.error(
    `no bench data at ${SOURCE}: run \`npm run bench\` once (it builds .cache/bench/data), or pass --data`,
  );
  Deno.exit(2);
}
const dataDir = Deno.makeTempDirSync({ prefix: "after-write-" });
mkdirSync(join(dataDir, "tenants"));
for (const name of ["catalog.db", ...TENANTS.map((t) => `tenants/${t.slug}.db`)]) {
  for (const suffix of ["", "-wal"]) {
    const from = join(SOURCE, name + suffix);
    if (existsSync(from) && statSync(from).size > 0) copyFileSync(from, join(dataDir, name + suffix));
  }
}

const config = parseConfig({ DATA_DIR: dataDir });
const ctxs = new Map<string, Ctx>();
const dbs: TenantDb[] = [];

function p50(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)];
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

try {
  for (const t of TENANTS) {
    const tdb = await openTenantDb(
      dataDir,
      { slug: t.slug, db_url: `file:tenants/${t.slug}.db` } as Tenant,
      false,
    );
    dbs.push(tdb);
    const [u] = await tdb.db.select().from(users).where(eq(users.email, t.email));
    const [company] = await tdb.db.select().from(companies).where(eq(companies.id, u.company_id));
    ctxs.set(t.slug, { tdb, db: tdb.db, user: presentUser(u, company), config });
  }
  console.log(`${ROUNDS} rounds each, ms (p50 / max)`);
  console.log("list                   | after a write   | nothing written | after a keepsTotals write");
  for (const list of LISTS) {
    const ctx = ctxs.get(list.tenant)!;
    const read = () => list.run(ctx, list.base);
    for (let i = 0; i < 5; i++) await read(); // the code warm, as a server under load has it
    const after: number[] = [], cached: number[] = [], kept: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      await ctx.tdb.write(() => Promise.resolve(undefined));
      after.push(await timed(read));
      cached.push(await timed(read));
      await ctx.tdb.write(() => Promise.resolve(undefined), { keepsTotals: true });
      kept.push(await timed(read));
    }
    const f = (xs: number[]) => `${p50(xs).toFixed(2)} / ${Math.max(...xs).toFixed(2)}`.padEnd(15);
    console.log(`${list.name.padEnd(22)} | ${f(after)} | ${f(cached)} | ${f(kept)}`);
  }
} finally {
  for (const tdb of dbs) await tdb.close();
  Deno.removeSync(dataDir, { recursive: true });
}
