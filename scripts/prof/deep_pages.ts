/**
 * Deep pages (decision 036's matrix): every list, every sort, both directions, the middle and the last page,
 * in-process on a copy of the bench's large tenants. Each page is read two ways: as the server reads it (a page
 * far enough into its walk has its ids read on the deep-read worker, db/deep_reads.ts) and on the JavaScript
 * thread, as before decision 036 (through a client the deep-read path does not take: not a local file's). For
 * each it prints the read's time and the longest gap between the ticks of a 1 ms timer while it ran: how long
 * every other request would have waited.
 *
 *   deno run -A scripts/prof/deep_pages.ts [--data .cache/bench/data] [--rounds 3] [--only "sales data"]
 *
 * The bench's files are copied to a temporary directory first and never written (scripts/prof/lib.ts). Figures
 * are p50 of `--rounds` reads, in ms. Timing figures: run it on a quiet machine.
 */
import { parseArgs } from "node:util";
import type { Client } from "@libsql/client";
import { tenantDrizzle } from "../../db/client.ts";
import { TenantDb } from "../../db/tenants.ts";
import type { Tenant } from "../../db/catalog/schema.ts";
import type { Ctx } from "../../api/lib/context.ts";
import { copyBenchData, LISTS, openBenchTenants, p50, type Params } from "./lib.ts";

const { values: args } = parseArgs({
  args: Deno.args,
  options: {
    data: { type: "string", default: ".cache/bench/data" },
    rounds: { type: "string", default: "3" },
    only: { type: "string" },
  },
});
const ROUNDS = Number(args.rounds);

/** The same client, seen as no local file's (its prototype is not the file client's): reads stay here. */
function onTheThread(ctx: Ctx): Ctx {
  const client = new Proxy(ctx.tdb.client, {
    getPrototypeOf: () => Object.prototype,
    get(target, prop) {
      const v = Reflect.get(target, prop, target);
      return typeof v === "function" ? v.bind(target) : v;
    },
  }) as Client;
  const db = tenantDrizzle(client);
  return { ...ctx, db, tdb: new TenantDb(ctx.tdb.tenant as Tenant, "file:", client, db) };
}

/** A read's time and the longest gap between a 1 ms timer's ticks while it ran. */
async function measured(read: () => Promise<unknown>): Promise<{ ms: number; turn: number }> {
  let last = performance.now(), turn = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    turn = Math.max(turn, now - last);
    last = now;
  }, 1);
  const t = performance.now();
  try {
    await read();
  } finally {
    clearInterval(ticker);
  }
  const end = performance.now();
  return { ms: end - t, turn: Math.max(turn, end - last) };
}

const dataDir = copyBenchData(args.data!);
const tenants = await openBenchTenants(dataDir).catch((e) => {
  Deno.removeSync(dataDir, { recursive: true });
  throw e;
});
try {
  console.log(`p50 of ${ROUNDS} reads, ms: the read / the longest turn while it ran`);
  console.log("list | sort | page (rows in) | as served | on the thread");
  for (const list of LISTS.filter((l) => !args.only || l.name === args.only)) {
    const served = tenants.ctxs.get(list.tenant)!;
    const thread = onTheThread(served);
    for (const sort of list.sorts) {
      for (const descending of ["false", "true"]) {
        const q: Params = { ...list.base, sortBy: sort, descending };
        const first = await list.run(served, { ...q, page: "1" }) as { total: number; results: unknown[] };
        const size = Math.max(1, first.results.length);
        const last = Math.max(1, Math.ceil(first.total / size));
        for (const page of new Set([Math.max(1, Math.round(last / 2)), last])) {
          const read = (ctx: Ctx) => () => list.run(ctx, { ...q, page: String(page) });
          // Once each, unmeasured: the worker started and the page's statements prepared, as on a busy server.
          await read(served)();
          await read(thread)();
          const a: { ms: number; turn: number }[] = [], b: { ms: number; turn: number }[] = [];
          for (let i = 0; i < ROUNDS; i++) {
            a.push(await measured(read(served)));
            b.push(await measured(read(thread)));
          }
          const f = (xs: { ms: number; turn: number }[]) =>
            `${p50(xs.map((x) => x.ms)).toFixed(1)} / ${p50(xs.map((x) => x.turn)).toFixed(1)}`;
          console.log(
            `${list.name} | ${sort} ${descending === "true" ? "desc" : "asc"} | ${page} (${
              (page - 1) * size
            }) | ` +
              `${f(a)} | ${f(b)}`,
          );
        }
      }
    }
  }
} finally {
  await tenants.close();
  Deno.removeSync(dataDir, { recursive: true });
}
