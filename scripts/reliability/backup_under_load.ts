/**
 * Backups while the server writes (docs/reliability.md, "Backup under load"): writers keep creating
 * companies and parts while `scripts/tenant.ts backup` runs as a child process, several times. Each
 * backup must be a sound database holding every row acknowledged before it started; the writers must
 * see no error and no stall while it runs.
 *
 *   node_modules/.bin/deno run -A scripts/reliability/backup_under_load.ts [--writers 50] [--backups 5]
 *     [--seed small|large|none]
 */
import { openClient } from "../../db/client.ts";
import { statSync } from "node:fs";
import { join } from "node:path";
import {
  check,
  cli,
  createTenant,
  fmtMs,
  freePort,
  loopbackHost,
  numberFlag,
  parseFlags,
  percentile,
  removeDir,
  Server,
  signIn,
  sleep,
  tempDataDir,
  verdict,
} from "./lib.ts";

const flags = parseFlags(Deno.args);
const WRITERS = numberFlag(flags, "writers", 50);
const BACKUPS = numberFlag(flags, "backups", 5);
/** Demo data first, so the copy has bulk to read (large: 100,000 inspections, a ~45 MB file, ~30 s to seed). */
const SEED = flags.get("seed") ?? "large";
/** Writes before the first backup (the baseline latency) and between backups, ms. */
const WARM_MS = 3000;
const GAP_MS = 2000;
const STALL_BUDGET_MS = 1000;

interface Write {
  start: number;
  end: number;
  status: number;
}

async function main(): Promise<number> {
  const dataDir = await tempDataDir("backup");
  const server = new Server(dataDir, freePort());
  try {
    if (!["small", "large", "none"].includes(SEED)) throw new Error("--seed is small, large or none");
    const tenant = await createTenant(dataDir, "bak", loopbackHost(0));
    if (SEED !== "none") {
      const seeded = await cli(dataDir, ["seed-demo", "bak", "--size", SEED]);
      if (seeded.code !== 0) throw new Error(`seed-demo failed: ${seeded.stderr}`);
      console.log(`  ${seeded.stdout.trim().split("\n").at(-1)} (${fmtMs(seeded.ms)})`);
    }
    await server.start();
    const api = await signIn(server, tenant);

    // Acknowledged ids with the moment each 200 arrived: a backup must hold those acknowledged before it.
    const acked: { table: "companies" | "parts"; id: number; at: number }[] = [];
    const writes: Write[] = [];
    let stop = false;
    const writers = Array.from({ length: WRITERS }, async (_, w) => {
      for (let i = 0; !stop; i++) {
        const company = (w + i) % 2 === 0;
        const name = `w${w}-${i}`;
        const start = performance.now();
        const a = company
          ? await api.call("POST", "/api/companies", { json: { name, company_type: "customer_company" } })
          : await api.call("POST", "/api/pt/parts", { json: { name, description: "backup test" } });
        const end = performance.now();
        writes.push({ start, end, status: a.status });
        if (a.status === 200) acked.push({ table: company ? "companies" : "parts", id: a.body.id, at: end });
      }
    });

    await sleep(WARM_MS);
    const backups: {
      file: string;
      start: number;
      end: number;
      code: number;
      stderr: string;
      expected: { companies: number[]; parts: number[] };
    }[] = [];
    for (let b = 0; b < BACKUPS; b++) {
      const file = join(dataDir, `backup-${b}.db`);
      const start = performance.now();
      const before = acked.filter((x) => x.at <= start);
      const r = await cli(dataDir, ["backup", "bak", "--out", file]);
      backups.push({
        file,
        start,
        end: performance.now(),
        code: r.code,
        stderr: r.stderr.trim(),
        expected: {
          companies: before.filter((x) => x.table === "companies").map((x) => x.id),
          parts: before.filter((x) => x.table === "parts").map((x) => x.id),
        },
      });
      await sleep(GAP_MS);
    }
    stop = true;
    await Promise.all(writers);
    await server.stop();

    // Writes that overlapped a backup (from the CLI's spawn to its exit) and those before the first.
    const during = writes.filter((w) => backups.some((b) => w.start < b.end && w.end > b.start));
    const baseline = writes.filter((w) => w.end < backups[0].start);
    const ms = (ws: Write[]) => ws.map((w) => w.end - w.start);
    // A stall is the write queue not moving: the longest time, while a backup ran, in which no write was
    // acknowledged. (One write's latency is mostly its wait behind the other writers: one tenant's
    // writes run one at a time, so it is compared with the baseline rather than held to the budget.)
    let longestGap = 0;
    let ackedDuring = 0;
    let backupTime = 0;
    for (const b of backups) {
      const ends = writes.filter((w) => w.status === 200 && w.end >= b.start && w.end <= b.end)
        .map((w) => w.end).sort((x, y) => x - y);
      ackedDuring += ends.length;
      backupTime += b.end - b.start;
      let prev = b.start;
      for (const e of [...ends, b.end]) {
        longestGap = Math.max(longestGap, e - prev);
        prev = e;
      }
    }
    const baselineRate = baseline.filter((w) => w.status === 200).length / (WARM_MS / 1000);
    const duringRate = ackedDuring / (backupTime / 1000);
    const errors = writes.filter((w) => w.status !== 200);
    const statuses = api.stats.statusLine();

    console.log(
      `  ${writes.length} writes (${statuses}) by ${WRITERS} writers; before the first backup: ` +
        `${baselineRate.toFixed(0)} writes/s, latency p50 ${fmtMs(percentile(ms(baseline), 50))}, ` +
        `max ${fmtMs(Math.max(0, ...ms(baseline)))}; while backups ran: ${duringRate.toFixed(0)} writes/s, ` +
        `latency p50 ${fmtMs(percentile(ms(during), 50))}, max ${fmtMs(Math.max(0, ...ms(during)))}`,
    );
    for (const s of api.stats.samples) console.log(`  error: ${s}`);
    const results = [];
    for (const [i, b] of backups.entries()) {
      if (b.code !== 0) {
        results.push({ i, ok: false, detail: `exit ${b.code}: ${b.stderr}` });
        continue;
      }
      const db = await openClient(`file:${b.file}`);
      try {
        const integrity = String((await db.execute("pragma integrity_check")).rows[0][0]);
        const ids = async (table: string) =>
          new Set((await db.execute(`select id from ${table}`)).rows.map((r) => Number(r.id)));
        const companies = await ids("companies");
        const parts = await ids("parts");
        const missing = b.expected.companies.filter((id) => !companies.has(id)).length +
          b.expected.parts.filter((id) => !parts.has(id)).length;
        const expected = b.expected.companies.length + b.expected.parts.length;
        const size = statSync(b.file).size;
        const ok = integrity === "ok" && missing === 0;
        results.push({
          i,
          ok,
          detail:
            `${fmtMs(b.end - b.start)}, ${(size / 1024 / 1024).toFixed(1)} MB, integrity ${integrity}, ` +
            `${expected} acknowledged before it, ${missing} missing`,
        });
      } finally {
        db.close();
      }
    }
    for (const r of results) console.log(`  backup ${r.i + 1}: ${r.detail}`);
    return verdict("backup_under_load", [
      check(
        "each backup opens, integrity_check ok, holds every row acknowledged before it",
        results.length === BACKUPS && results.every((r) => r.ok),
        `${results.filter((r) => r.ok).length} of ${BACKUPS}`,
      ),
      check("writers see 0 errors/5xx", errors.length === 0, `${errors.length} of ${writes.length}`),
      check(
        `no stall beyond ${STALL_BUDGET_MS} ms while a backup runs`,
        longestGap <= STALL_BUDGET_MS,
        `longest time without an acknowledged write ${fmtMs(longestGap)} over ${
          fmtMs(backupTime)
        } of backups`,
      ),
    ]);
  } catch (e) {
    console.error(e);
    console.error(server.output());
    console.log(`FAIL backup_under_load: ${(e as Error).message.split("\n")[0]}`);
    return 1;
  } finally {
    await server.kill();
    await removeDir(dataDir);
  }
}

Deno.exit(await main());
