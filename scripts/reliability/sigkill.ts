/**
 * Crash recovery (docs/reliability.md, "SIGKILL"): writers create companies and parts; the server is
 * killed with SIGKILL at a random moment, restarted over the same DATA_DIR, and must answer /healthz
 * within 5 s and still hold every row it acknowledged with a 200 before it died.
 *
 *   node_modules/.bin/deno run -A scripts/reliability/sigkill.ts [--rounds 25] [--writers 20]
 */
import { openClient } from "../../db/client.ts";
import {
  check,
  createTenant,
  fmtMs,
  freePort,
  healthz,
  loopbackHost,
  numberFlag,
  parseFlags,
  percentile,
  removeDir,
  Server,
  signIn,
  sleep,
  tempDataDir,
  tenantFile,
  verdict,
} from "./lib.ts";

const flags = parseFlags(Deno.args);
const ROUNDS = numberFlag(flags, "rounds", 25);
const WRITERS = numberFlag(flags, "writers", 20);
/** The kill lands at a random moment between these (ms after the writers start). */
const KILL_MIN_MS = 200;
const KILL_MAX_MS = 2000;
const HEALTHZ_BUDGET_MS = 5000;

async function main(): Promise<number> {
  const dataDir = await tempDataDir("sigkill");
  const server = new Server(dataDir, freePort());
  try {
    const tenant = await createTenant(dataDir, "crash", loopbackHost(0));
    await server.start();
    // The session secret is kept in the catalog, so one token serves every restart.
    const api = await signIn(server, tenant);
    const acked = { companies: new Set<number>(), parts: new Set<number>() };
    const recovery: number[] = [];
    const firstRead: number[] = [];
    const lostPerRound: string[] = [];
    let sent = 0;
    let inFlightAtKill = 0;
    let serverErrors = 0;
    console.log(`sigkill: ${ROUNDS} rounds, ${WRITERS} writers, kill ${KILL_MIN_MS}-${KILL_MAX_MS} ms in`);

    for (let round = 0; round < ROUNDS; round++) {
      let killed = false;
      let inFlight = 0;
      const roundAcked = { companies: [] as number[], parts: [] as number[] };
      const writers = Array.from({ length: WRITERS }, async (_, w) => {
        for (let i = 0; !killed; i++) {
          const company = (w + i) % 2 === 0;
          const name = `r${round}-w${w}-${i}`;
          sent++;
          inFlight++;
          const a = company
            ? await api.call("POST", "/api/companies", { json: { name, company_type: "customer_company" } })
            : await api.call("POST", "/api/pt/parts", { json: { name, description: "crash test" } });
          inFlight--;
          if (a.status === 200) (company ? roundAcked.companies : roundAcked.parts).push(a.body.id);
          else if (!killed) serverErrors++;
        }
      });
      await sleep(KILL_MIN_MS + Math.random() * (KILL_MAX_MS - KILL_MIN_MS));
      killed = true;
      const outstanding = inFlight;
      inFlightAtKill += outstanding;
      await server.kill();
      await Promise.all(writers);
      for (const id of roundAcked.companies) acked.companies.add(id);
      for (const id of roundAcked.parts) acked.parts.add(id);

      const startMs = await server.start(30_000);
      recovery.push(startMs);
      // The tenant file is opened (and its WAL recovered) on the first request that needs it.
      const t0 = performance.now();
      const companies = await api.ok("GET", "/api/admin/companies?rowsPerPage=-1");
      const parts = await api.ok("GET", "/api/pt/parts?rowsPerPage=-1");
      firstRead.push(performance.now() - t0);
      const seenCompanies = new Set<number>(companies.results.map((c: { id: number }) => c.id));
      const seenParts = new Set<number>(parts.results.map((p: { id: number }) => p.id));
      const lost = [
        ...[...acked.companies].filter((id) => !seenCompanies.has(id)).map((id) => `company ${id}`),
        ...[...acked.parts].filter((id) => !seenParts.has(id)).map((id) => `part ${id}`),
      ];
      if (lost.length) lostPerRound.push(`round ${round}: ${lost.slice(0, 5).join(", ")} (${lost.length})`);
      console.log(
        `  round ${String(round + 1).padStart(2)}: ${
          roundAcked.companies.length + roundAcked.parts.length
        } ` +
          `acknowledged, ${outstanding} outstanding at the kill; restart to /healthz ${fmtMs(startMs)}, ` +
          `first tenant read ${fmtMs(firstRead.at(-1)!)}; lost ${lost.length}`,
      );
      // A healthy server answers /healthz right away, not just eventually.
      if ((await healthz(server.url(), 1000)).status !== 200) throw new Error("healthz failed after restart");
    }
    await server.stop();

    // The file itself, after a clean stop: every acknowledged id is there.
    const db = await openClient(`file:${tenantFile(dataDir, "crash")}`);
    const ids = async (table: string) =>
      new Set((await db.execute(`select id from ${table}`)).rows.map((r) => Number(r.id)));
    const fileCompanies = await ids("companies");
    const fileParts = await ids("parts");
    const integrity = String((await db.execute("pragma integrity_check")).rows[0][0]);
    db.close();
    const lostInFile = [...acked.companies].filter((id) => !fileCompanies.has(id)).length +
      [...acked.parts].filter((id) => !fileParts.has(id)).length;
    const totalAcked = acked.companies.size + acked.parts.size;

    const maxRecovery = Math.max(...recovery);
    console.log(
      `  ${sent} creates sent, ${totalAcked} acknowledged, ${inFlightAtKill} outstanding when a kill was sent`,
    );
    console.log(
      `  restart to /healthz: p50 ${fmtMs(percentile(recovery, 50))}, max ${fmtMs(maxRecovery)}; ` +
        `first tenant read after restart: p50 ${fmtMs(percentile(firstRead, 50))}, max ${
          fmtMs(Math.max(...firstRead))
        }`,
    );
    return verdict("sigkill", [
      check(
        `restart answers /healthz within ${HEALTHZ_BUDGET_MS} ms`,
        maxRecovery < HEALTHZ_BUDGET_MS,
        `max ${fmtMs(maxRecovery)} over ${ROUNDS} restarts`,
      ),
      check(
        "0 acknowledged rows lost (API after each restart)",
        lostPerRound.length === 0,
        lostPerRound.length ? lostPerRound.join("; ") : `${totalAcked} acknowledged, all listed`,
      ),
      check("0 acknowledged rows lost (tenant file at the end)", lostInFile === 0, `${lostInFile} missing`),
      check("tenant file integrity_check", integrity === "ok", integrity),
      check(
        "0 errors while the server was up",
        serverErrors === 0,
        `${serverErrors} non-200 answers before a kill`,
      ),
    ]);
  } catch (e) {
    console.error(e);
    console.error(server.output());
    console.log(`FAIL sigkill: ${(e as Error).message.split("\n")[0]}`);
    return 1;
  } finally {
    await server.kill();
    await removeDir(dataDir);
  }
}

Deno.exit(await main());
