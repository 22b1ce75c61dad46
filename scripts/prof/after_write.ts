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
 * The bench's files are copied to a temporary directory first and never written (scripts/prof/lib.ts).
 * Prints, per list, the p50 and the largest of each kind of read, in ms. Timing figures: run it on a quiet
 * machine, or interleave it with what it is compared against.
 */
import { parseArgs } from "node:util";
import { copyBenchData, LISTS, openBenchTenants, p50, timed } from "./lib.ts";

const { values: args } = parseArgs({
  args: Deno.args,
  options: {
    data: { type: "string", default: ".cache/bench/data" },
    rounds: { type: "string", default: "20" },
  },
});
const ROUNDS = Number(args.rounds);

const dataDir = copyBenchData(args.data!);
const tenants = await openBenchTenants(dataDir).catch((e) => {
  Deno.removeSync(dataDir, { recursive: true });
  throw e;
});
try {
  console.log(`${ROUNDS} rounds each, ms (p50 / max)`);
  console.log("list                   | after a write   | nothing written | after a keepsTotals write");
  for (const list of LISTS) {
    const ctx = tenants.ctxs.get(list.tenant)!;
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
  await tenants.close();
  Deno.removeSync(dataDir, { recursive: true });
}
