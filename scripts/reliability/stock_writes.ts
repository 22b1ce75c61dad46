/**
 * Concurrent stock writes on one itemized row (docs/reliability.md, "Stock writes"): rounds of mixed
 * requests fired at once at a real server — ticket line saves that hold stock, line quantity edits and
 * deletes, business-unit transfers both ways, quantity edits (patch and form save) and check-ins (in and
 * sold). Afterwards the tenant file is read directly: nothing negative, what lines hold is what rows
 * count out, and the audit ledger replays to the final quantities.
 *
 *   node_modules/.bin/deno run -A scripts/reliability/stock_writes.ts [--rounds 50] [--concurrency 200]
 */
import {
  check,
  createTenant,
  fmtMs,
  freePort,
  loopbackHost,
  numberFlag,
  parseFlags,
  removeDir,
  Server,
  signIn,
  tempDataDir,
  tenantFile,
  verdict,
} from "./lib.ts";
import { fixtures, REFUSALS, runRounds, verify } from "./stock_ops.ts";

const flags = parseFlags(Deno.args);
const ROUNDS = numberFlag(flags, "rounds", 50);
const CONCURRENCY = numberFlag(flags, "concurrency", 200);

async function main(): Promise<number> {
  const dataDir = await tempDataDir("stock");
  const server = new Server(dataDir, freePort());
  try {
    const tenant = await createTenant(dataDir, "stock", loopbackHost(0));
    await server.start();
    const api = await signIn(server, tenant);
    const fx = await fixtures(api);
    console.log(
      `stock_writes: ${ROUNDS} rounds x ${CONCURRENCY} concurrent writes on item ${fx.itemNumber} ` +
        `(rows ${fx.rows.join(", ")}, ${fx.openTickets.length} open tickets, 1 quote)`,
    );

    const t0 = performance.now();
    const { counts, acknowledged, unexpected } = await runRounds(fx, [api], ROUNDS, CONCURRENCY);
    const elapsed = performance.now() - t0;
    await server.stop();

    const stats = api.stats;
    console.log(
      `  ${stats.requests} requests in ${(elapsed / 1000).toFixed(1)} s; statuses ${stats.statusLine()}`,
    );
    console.log(
      `  latency p50 ${fmtMs(stats.percentile(50))}, p95 ${fmtMs(stats.percentile(95))}, ` +
        `p99 ${fmtMs(stats.percentile(99))}`,
    );
    for (const [kind, byStatus] of [...counts].sort()) {
      console.log(`  ${kind}: ${[...byStatus].sort().map(([s, c]) => `${s}:${c}`).join(" ")}`);
    }
    for (const u of unexpected) console.log(`  unexpected: ${u}`);

    const checks = await verify(`file:${tenantFile(dataDir, "stock")}`, fx, acknowledged);
    const fiveXX = stats.count((s) => s === 0 || s >= 500);
    const other = stats.count((s) => s !== 200 && s !== 0 && s < 500 && !REFUSALS.has(s));
    checks.unshift(
      check("0 5xx or network errors", fiveXX === 0, `${fiveXX} of ${stats.requests}`),
      check("only 200 or a refusal (404/409/422)", other === 0, `${other} other answers`),
    );
    return verdict("stock_writes", checks);
  } catch (e) {
    console.error(e);
    console.error(server.output());
    console.log(`FAIL stock_writes: ${(e as Error).message.split("\n")[0]}`);
    return 1;
  } finally {
    await server.kill();
    await removeDir(dataDir);
  }
}

Deno.exit(await main());
