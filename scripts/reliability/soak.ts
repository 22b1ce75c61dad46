/**
 * Soak (docs/reliability.md, "Soak"): 50 concurrent connections of mixed reads and writes across three
 * seeded tenants for `--minutes`, while a probe asks a fourth tenant's /healthz every 100 ms. Budgets:
 * 0 errors, server RSS growth under 10% from the end of the warm-up to the end, /healthz never slower
 * than 200 ms.
 *
 *   node_modules/.bin/deno run -A scripts/reliability/soak.ts [--minutes 10] [--connections 50]
 *     [--warmup-seconds N]
 */
import { BAND_COLORS, MPI_RESULTS } from "../../lib/enums.ts";
import {
  type Answer,
  type Api,
  check,
  cli,
  cpuSeconds,
  createTenant,
  fmtMs,
  freePort,
  healthz,
  loopbackHost,
  mainThreadSched,
  mainThreadState,
  memoryParts,
  numberFlag,
  parseFlags,
  percentile,
  removeDir,
  rssKb,
  Server,
  signIn,
  sleep,
  Stats,
  tempDataDir,
  type Tenant,
  verdict,
} from "./lib.ts";

const flags = parseFlags(Deno.args);
const MINUTES = numberFlag(flags, "minutes", 10);
const CONNECTIONS = numberFlag(flags, "connections", 50);
/** Long enough for the JIT, the page cache and the open-tenant cache to settle: 10% of the run, 10-60 s. */
/** The server logs event-loop turns longer than this (its STALL_LOG_MS). */
const STALL_LOG_MS = 150;
const WARMUP_S = numberFlag(flags, "warmup-seconds", Math.min(60, Math.max(10, MINUTES * 6)));
/**
 * Diagnostics: `--skip downloads,writes` leaves those groups out of the mix (the budgets still apply),
 * to see which part of the load slows /healthz.
 */
const SKIP = new Set((flags.get("skip") ?? "").split(",").filter(Boolean));
/**
 * Diagnostics: `--smaps DIR` copies the server's /proc/<pid>/smaps to DIR/start.txt at the end of the
 * warm-up and DIR/end.txt at the end; `scripts/reliability/smaps_diff.ts DIR` names the mappings that grew.
 */
const SMAPS_DIR = flags.get("smaps");
const PROBE_EVERY_MS = 100;
const HEALTHZ_BUDGET_MS = 200;
const RSS_GROWTH_BUDGET = 0.1;
/** What each connection keeps of its own lines and inspections before deleting the oldest. */
const KEEP = 4;

const METRICS_TOKEN = "soak-metrics-token-0123456789";

/**
 * The server's own memory figures (GET /metrics), in MB: the JavaScript heap in use and reserved (V8 keeps pages
 * it has grown into: they are resident and anonymous, though not in use), and external memory.
 */
async function serverMemory(
  url: string,
): Promise<
  Record<
    | "heap"
    | "heapTotal"
    | "external"
    | "trims"
    | "trimMs"
    | "trimMaxMs"
    | "mallocInUse"
    | "mallocFree"
    | "mallocMapped"
    | "prepared"
    | "cached"
    | "connections",
    number
  >
> {
  const r = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const text = await r.text();
  const get = (name: string) =>
    Number(/^(\S+) (\S+)$/m.exec(text.split("\n").find((l) => l.startsWith(name + " ")) ?? "")?.[2] ?? NaN);
  return {
    heap: get("process_heap_used_bytes") / 2 ** 20,
    heapTotal: get("process_heap_total_bytes") / 2 ** 20,
    external: get("process_external_memory_bytes") / 2 ** 20,
    trims: get("malloc_trim_runs_total"),
    trimMs: get("malloc_trim_seconds_total") * 1000,
    trimMaxMs: get("malloc_trim_longest_seconds") * 1000,
    mallocInUse: get("malloc_in_use_bytes") / 2 ** 20,
    mallocFree: get("malloc_free_bytes") / 2 ** 20,
    mallocMapped: get("malloc_mmapped_bytes") / 2 ** 20,
    prepared: get("sqlite_statements_prepared_total"),
    cached: get("sqlite_statements_cached"),
    connections: get("sqlite_connections_open"),
  };
}

const rand = (n: number) => Math.floor(Math.random() * n);
const pick = <T>(xs: readonly T[]): T => xs[rand(xs.length)];
const today = () => new Date().toISOString().slice(0, 10);

interface TenantData {
  api: Api;
  jobs: { id: number; customer: string }[];
  parts: number[];
  chargeRows: number[];
  tickets: number[];
  customers: string[];
}

/** One connection's own records: it alone edits and deletes them, so no answer is a 404 by design. */
interface Conn {
  t: TenantData;
  ticket: number;
  lines: number[];
  inspections: number[];
  n: number;
}

/** Per request kind, the latencies of the measured period. */
const kinds = new Map<string, number[]>();
let measuring = false;

async function timed(kind: string, call: Promise<Answer>): Promise<Answer> {
  const a = await call;
  if (measuring) {
    const list = kinds.get(kind) ?? [];
    list.push(a.ms);
    kinds.set(kind, list);
  }
  return a;
}

async function setUp(server: Server, tenant: Tenant, connections: number): Promise<TenantData> {
  const api = await signIn(server, tenant);
  const me = await api.ok("GET", "/api/admin/users/me");
  const jobs = (await api.ok("GET", "/api/pt/jobs?rowsPerPage=50")).results
    .map((j: { id: number; customer_company: { name: string } }) => ({
      id: j.id,
      customer: j.customer_company.name,
    }));
  const parts = (await api.ok("GET", "/api/pt/parts?rowsPerPage=50")).results.map((p: { id: number }) =>
    p.id
  );
  const chargeRows = (await api.ok("GET", "/api/sales/inventory?rowsPerPage=20&inventory_type=Charge%20Code"))
    .results.map((r: { id: number }) => r.id);
  const customers = await api.ok("GET", "/api/admin/companies?rowsPerPage=10&type=customer_company");
  if (!jobs.length || !parts.length || !chargeRows.length || !customers.results.length) {
    throw new Error(`${tenant.slug}: the demo seed left no jobs, parts, charge codes or customers`);
  }
  // An open ticket per connection: its line saves are real line saves, and no two connections race on one.
  const tickets = [];
  for (let i = 0; i < connections; i++) {
    tickets.push(
      (await api.ok("POST", "/api/sales/tickets", {
        customer_id: pick(customers.results as { id: number }[]).id,
        sales_rep_id: me.id,
        use_min_rate_logic: false,
        notes: "soak",
      })).id,
    );
  }
  return {
    api,
    jobs,
    parts,
    chargeRows,
    tickets,
    customers: customers.results.map((c: { name: string }) => c.name),
  };
}

/** The mix's groups, by the roll of `step`. */
function group(r: number): "reads" | "downloads" | "writes" {
  return r >= 48 && r < 52 ? "downloads" : r >= 52 && r < 82 ? "writes" : "reads";
}

/** One request of the mix: about two thirds reads (lists with filters, details, downloads), one third writes. */
async function step(c: Conn): Promise<void> {
  const { api } = c.t;
  c.n++;
  let r = Math.random() * 100;
  while (SKIP.has(group(r))) r = Math.random() * 100;
  const word = (s: string) => pick(s.split(" ")).slice(0, 5);
  if (r < 8) {
    await timed(
      "jobs list",
      api.call(
        "GET",
        `/api/pt/jobs?page=1&rowsPerPage=25&sortBy=date&descending=true&search_customer_name=${
          encodeURIComponent(word(pick(c.t.customers)))
        }`,
      ),
    );
  } else if (r < 16) {
    const q = Math.random() < 0.5
      ? `job_id=${pick(c.t.jobs).id}&sortBy=serial_number`
      : `search_serial_number=${pick(["CV", "100", "B2", "SOAK"])}&sortBy=inspection_time&descending=true`;
    await timed("inspections list", api.call("GET", `/api/pt/inspections?rowsPerPage=25&${q}`));
  } else if (r < 22) {
    const q = pick([
      "ticketFlowFilter=OPEN",
      "showInvoiced=true&hidePaid=true",
      "isQuote=true",
      "sortBy=customer",
    ]);
    await timed("tickets list", api.call("GET", `/api/sales/tickets?rowsPerPage=25&${q}`));
  } else if (r < 27) {
    const id = Math.random() < 0.5 ? c.ticket : pick(c.t.tickets);
    await timed("ticket detail", api.call("GET", `/api/sales/tickets/${id}`));
    await timed("ticket lines", api.call("GET", `/api/sales/sales/ticket?ticket_id=${id}`));
  } else if (r < 33) {
    const q = pick([
      "inventory_type=Itemized&sortBy=quantity_available",
      "search_item_description=in&sortBy=item_number",
      "include_hidden=true&sortBy=updated_at&descending=true",
    ]);
    await timed("inventory list", api.call("GET", `/api/sales/inventory?rowsPerPage=20&${q}`));
  } else if (r < 38) {
    await timed(
      "sales data list",
      api.call("GET", "/api/sales/sales?rowsPerPage=50&hideQuotes=true&sortBy=start_date&descending=true"),
    );
  } else if (r < 42) {
    await timed(
      "companies list",
      api.call("GET", `/api/admin/companies?rowsPerPage=25&search_name=${pick(["a", "e", "o", "Co"])}`),
    );
  } else if (r < 45) {
    await timed("audit list", api.call("GET", "/api/sales/audit/inventory-rows?rowsPerPage=50"));
  } else if (r < 48) {
    await timed("items list", api.call("GET", "/api/sales/items?rowsPerPage=20&sortBy=item_number"));
  } else if (r < 52) {
    const path = pick([
      "/api/pt/jobs/download",
      "/api/pt/inspections/download",
      "/api/sales/inventory/download",
      "/api/sales/sales/download",
    ]);
    await timed(`download ${path.split("/")[3]}`, api.call("GET", `${path}?rowsPerPage=-1`, { raw: true }));
  } else if (r < 64) {
    // Line saves on the connection's own open ticket (charge codes: no stock to run out of).
    if (c.lines.length > KEEP) {
      await timed("line delete", api.call("DELETE", `/api/sales/sales/${c.lines.shift()}`));
    } else if (!c.lines.length || Math.random() < 0.4) {
      const a = await timed(
        "line create",
        api.call("POST", "/api/sales/sales", {
          json: {
            ticket_id: c.ticket,
            inventory_id: pick(c.t.chargeRows),
            quantity: 1 + rand(5),
            notes: "soak",
          },
        }),
      );
      if (a.status === 200) c.lines.push(a.body.id);
    } else {
      await timed(
        "line update",
        api.call("PUT", "/api/sales/sales", {
          json: { id: pick(c.lines), quantity: 1 + rand(5), discount: rand(20), notes: `soak ${c.n}` },
        }),
      );
    }
  } else if (r < 70) {
    await timed(
      "ticket save",
      api.call("PUT", "/api/sales/tickets", {
        json: { id: c.ticket, notes: `soak ${c.n}`, location: "Yard 2" },
      }),
    );
  } else if (r < 82) {
    if (c.inspections.length > KEEP) {
      await timed("inspection delete", api.call("DELETE", `/api/pt/inspections/${c.inspections.shift()}`));
      return;
    }
    const fields = {
      job_id: pick(c.t.jobs).id,
      date: today(),
      batch: `SOAK-${rand(20)}`,
      part_id: pick(c.t.parts),
      visual_pass: Math.random() < 0.9,
      ut_1: 0.5 + Math.random() / 10,
      pressure: 10000,
      band_color: pick(BAND_COLORS),
      mpi_result: pick(MPI_RESULTS),
      notes: `soak ${c.n}`,
    };
    if (!c.inspections.length || Math.random() < 0.4) {
      const a = await timed(
        "inspection create",
        api.call("POST", "/api/pt/inspections", {
          json: { ...fields, serial_number: `SOAK-${c.n}-${rand(1e6)}` },
        }),
      );
      if (a.status === 200) c.inspections.push(a.body.id);
    } else {
      await timed(
        "inspection save",
        api.call("PATCH", "/api/pt/inspections", { json: { ...fields, id: pick(c.inspections) } }),
      );
    }
  } else {
    // The rest: the screens' small look-ups (dialogs' comboboxes) and a job's detail.
    const kind = rand(3);
    if (kind === 0) await timed("job detail", api.call("GET", `/api/pt/jobs/${pick(c.t.jobs).id}`));
    else if (kind === 1) {
      await timed(
        "parts lookup",
        api.call("GET", `/api/parts?search_name=${pick(["valve", "union", "2in"])}`),
      );
    } else await timed("companies lookup", api.call("GET", `/api/companies?q=${word(pick(c.t.customers))}`));
  }
}

async function main(): Promise<number> {
  const dataDir = await tempDataDir("soak");
  // Turns over 150 ms are logged by the server with the requests in progress (api/lib/stall_watch.ts).
  const server = new Server(dataDir, freePort(), { METRICS_TOKEN, STALL_LOG_MS: String(STALL_LOG_MS) });
  try {
    const slugs = ["soak-a", "soak-b", "soak-c"];
    const tenants = [];
    for (const [i, slug] of slugs.entries()) {
      tenants.push(await createTenant(dataDir, slug, loopbackHost(i)));
      const seeded = await cli(dataDir, ["seed-demo", slug, "--size", "small"]);
      if (seeded.code !== 0) throw new Error(`seed-demo ${slug} failed: ${seeded.stderr}`);
    }
    const probeTenant = await createTenant(dataDir, "soak-probe", loopbackHost(slugs.length));
    await server.start();
    // /healthz with nothing else running: the floor the probe under load is compared with.
    const idle: number[] = [];
    for (let i = 0; i < 30; i++) {
      idle.push((await healthz(server.url(probeTenant.host), 5000)).ms);
      await sleep(PROBE_EVERY_MS);
    }
    const perTenant = Math.ceil(CONNECTIONS / tenants.length);
    const data: TenantData[] = [];
    for (const t of tenants) data.push(await setUp(server, t, perTenant));
    const conns: Conn[] = Array.from({ length: CONNECTIONS }, (_, i) => {
      const t = data[i % data.length];
      return { t, ticket: t.tickets[Math.floor(i / data.length)], lines: [], inspections: [], n: 0 };
    });
    console.log(
      `soak: ${MINUTES} min (+${WARMUP_S} s warm-up), ${CONNECTIONS} connections over ${tenants.length} tenants, ` +
        `/healthz of ${probeTenant.slug} every ${PROBE_EVERY_MS} ms; server pid ${server.pid}`,
    );

    let stop = false;
    // The budget's probe runs on a thread of its own; the same probe on this (busy) thread is printed beside
    // it, as the runs before 2026-11-24 22:00 measured it.
    const worker = new Worker(new URL("./probe_worker.ts", import.meta.url), { type: "module" });
    const workerProbes = new Promise<{ ms: number; status: number }[]>((resolve) => {
      worker.onmessage = (e) => resolve(e.data);
    });
    worker.postMessage({ url: server.url(probeTenant.host), everyMs: PROBE_EVERY_MS });
    const inLoop: number[] = [];
    const probe = (async () => {
      while (!stop) {
        const next = performance.now() + PROBE_EVERY_MS;
        const h = await healthz(server.url(probeTenant.host), 5000);
        if (measuring) inLoop.push(h.ms);
        await sleep(Math.max(0, next - performance.now()));
      }
    })();
    const load = Promise.all(conns.map(async (c) => {
      while (!stop) await step(c);
    }));

    await sleep(WARMUP_S * 1000);
    const stats = new Stats();
    for (const d of data) d.api.stats = stats;
    measuring = true;
    worker.postMessage("measure");
    const rssStart = rssKb(server.pid);
    if (SMAPS_DIR) snapshotSmaps(server.pid, `${SMAPS_DIR}/start.txt`);
    const cpuStart = cpuSeconds(server.pid);
    const ownCpuStart = cpuSeconds(Deno.pid);
    const schedStart = mainThreadSched(server.pid);
    // Where the server's JavaScript thread spends the run, sampled every 20 ms.
    const states = new Map<string, number>();
    const sampler = setInterval(() => {
      try {
        const st = mainThreadState(server.pid);
        states.set(st, (states.get(st) ?? 0) + 1);
      } catch { /* exiting */ }
    }, 20);
    const rss: {
      at: number;
      kb: number;
      heap: number;
      heapTotal: number;
      external: number;
      trims: number;
      trimMs: number;
      trimMaxMs: number;
      mallocInUse: number;
      mallocFree: number;
      mallocMapped: number;
      prepared: number;
      cached: number;
      connections: number;
      anonKb: number;
      fileKb: number;
      dbFiles: number;
    }[] = [{ at: 0, kb: rssStart, ...await serverMemory(server.url()), ...memoryParts(server.pid) }];
    const t0 = performance.now();
    const end = t0 + MINUTES * 60_000;
    console.log(`  warm-up done: RSS ${(rssStart / 1024).toFixed(1)} MB`);
    while (performance.now() < end) {
      await sleep(Math.min(10_000, end - performance.now()));
      const at = (performance.now() - t0) / 1000;
      rss.push({
        at,
        kb: rssKb(server.pid),
        ...await serverMemory(server.url()),
        ...memoryParts(server.pid),
      });
      if (rss.length % 6 === 1 || performance.now() >= end) {
        console.log(
          `  ${(at / 60).toFixed(1)} min: ${stats.requests} requests, ${stats.errors} errors, RSS ${
            (rss.at(-1)!.kb / 1024).toFixed(1)
          } MB (malloc in use ${rss.at(-1)!.mallocInUse.toFixed(1)}, free ${
            rss.at(-1)!.mallocFree.toFixed(1)
          }, mmapped ${rss.at(-1)!.mallocMapped.toFixed(1)}; statements prepared ${
            rss.at(-1)!.prepared
          }, kept ${rss.at(-1)!.cached}, connections ${rss.at(-1)!.connections}; JS heap ${
            rss.at(-1)!.heap.toFixed(1)
          } of ${rss.at(-1)!.heapTotal.toFixed(1)} reserved, external ${
            rss.at(-1)!.external.toFixed(1)
          }, anonymous ${(rss.at(-1)!.anonKb / 1024).toFixed(1)}, file ${
            (rss.at(-1)!.fileKb / 1024).toFixed(1)
          }, open db files ${rss.at(-1)!.dbFiles}), ` +
            `/healthz max so far (this thread) ${fmtMs(Math.max(0, ...inLoop))}`,
        );
      }
    }
    const rssEnd = rssKb(server.pid);
    if (SMAPS_DIR) snapshotSmaps(server.pid, `${SMAPS_DIR}/end.txt`);
    const wall = (performance.now() - t0) / 1000;
    const cpu = (cpuSeconds(server.pid) - cpuStart) / wall;
    const ownCpu = (cpuSeconds(Deno.pid) - ownCpuStart) / wall;
    const schedEnd = mainThreadSched(server.pid);
    clearInterval(sampler);
    const mainRun = (schedEnd.runNs - schedStart.runNs) / 1e9 / wall;
    const mainWait = (schedEnd.waitNs - schedStart.waitNs) / 1e9 / wall;
    const samples = [...states.values()].reduce((a, b) => a + b, 0);
    measuring = false;
    stop = true;
    worker.postMessage("stop");
    await Promise.all([load, probe]);
    const probed = await workerProbes;
    printStalls(server.output());
    const probes = probed.map((p) => p.ms);
    const probeFailures = probed.filter((p) => p.status !== 200).length;
    const seconds = (performance.now() - t0) / 1000;
    await server.stop();

    const tooMany = stats.count((s) => s === 429);
    const errors = stats.count((s) => s !== 200 && s !== 429);
    const growth = (rssEnd - rssStart) / rssStart;
    const maxHealthz = Math.max(0, ...probes);
    console.log(
      `  ${stats.requests} requests in ${seconds.toFixed(0)} s (${
        (stats.requests / seconds).toFixed(0)
      }/s); ` +
        `statuses ${stats.statusLine()}`,
    );
    console.log(
      `  latency p50 ${fmtMs(stats.percentile(50))}, p95 ${fmtMs(stats.percentile(95))}, p99 ${
        fmtMs(stats.percentile(99))
      }, max ${fmtMs(stats.percentile(100))}`,
    );
    const byKind = [...kinds].map(([k, v]) => ({
      k,
      n: v.length,
      p50: percentile(v, 50),
      p99: percentile(v, 99),
    }))
      .sort((a, b) => b.p99 - a.p99);
    for (const x of byKind) {
      console.log(
        `    ${x.k.padEnd(22)} ${String(x.n).padStart(6)}  p50 ${fmtMs(x.p50).padStart(8)}  p99 ${
          fmtMs(x.p99)
        }`,
      );
    }
    console.log(
      `  RSS start ${(rssStart / 1024).toFixed(1)} MB, end ${(rssEnd / 1024).toFixed(1)} MB, max ${
        (Math.max(...rss.map((x) => x.kb)) / 1024).toFixed(1)
      } MB (${(growth * 100).toFixed(1)}%)`,
    );
    {
      // Plateau or leak: the slope of each figure over the second half of the run, by least squares.
      const half = rss.filter((x) => x.at >= (rss.at(-1)!.at / 2));
      const slope = (f: (x: (typeof rss)[number]) => number) => {
        const n = half.length, mx = half.reduce((a, x) => a + x.at, 0) / n;
        const my = half.reduce((a, x) => a + f(x), 0) / n;
        const num = half.reduce((a, x) => a + (x.at - mx) * (f(x) - my), 0);
        const den = half.reduce((a, x) => a + (x.at - mx) ** 2, 0);
        return den ? num / den * 60 : 0;
      };
      const first = rss[0], last = rss.at(-1)!;
      console.log(
        `  JS heap ${first.heap.toFixed(1)} -> ${last.heap.toFixed(1)} MB (reserved ${
          first.heapTotal.toFixed(1)
        } -> ${last.heapTotal.toFixed(1)} MB), external ${first.external.toFixed(1)} -> ${
          last.external.toFixed(1)
        } MB; second-half trend per minute: RSS ${slope((x) => x.kb / 1024).toFixed(2)} MB, heap ${
          slope((x) => x.heap).toFixed(2)
        } MB, heap reserved ${slope((x) => x.heapTotal).toFixed(2)} MB, external ${
          slope((x) => x.external).toFixed(2)
        } MB`,
      );
      console.log(
        `  malloc_trim (MALLOC_TRIM_SECONDS): ${last.trims - first.trims} runs, ${
          (last.trimMs - first.trimMs).toFixed(1)
        } ms in all, longest since start ${last.trimMaxMs.toFixed(1)} ms`,
      );
    }
    console.log(
      `  /healthz: ${probes.length} probes, p50 ${fmtMs(percentile(probes, 50))}, p99 ${
        fmtMs(percentile(probes, 99))
      }, ` +
        `max ${fmtMs(maxHealthz)}, over ${HEALTHZ_BUDGET_MS} ms: ${
          probes.filter((p) => p > HEALTHZ_BUDGET_MS).length
        } (probe on a thread of its own); the same probe on the load generator's thread: p50 ${
          fmtMs(percentile(inLoop, 50))
        }, p99 ${fmtMs(percentile(inLoop, 99))}, max ${fmtMs(Math.max(0, ...inLoop))}`,
    );
    console.log(
      `  /healthz idle before the load: p50 ${fmtMs(percentile(idle, 50))}, max ${
        fmtMs(Math.max(...idle))
      }; ` +
        `server CPU under load ${(cpu * 100).toFixed(0)}% of one core` +
        `, this load generator ${(ownCpu * 100).toFixed(0)}%` + (SKIP.size ? `; skipped: ${[...SKIP]}` : ""),
    );
    console.log(
      `  JavaScript thread: running ${(mainRun * 100).toFixed(0)}% of the time, waiting for a core ` +
        `${(mainWait * 100).toFixed(0)}%; sampled states ${
          [...states].sort().map(([k, v]) => `${k} ${(v / samples * 100).toFixed(0)}%`).join(", ")
        } (R running or runnable, S idle in the event loop, D blocked in disk I/O)`,
    );
    for (const s of stats.samples) console.log(`  error: ${s}`);
    return verdict("soak", [
      check(
        "0 errors (429 counted apart)",
        errors === 0,
        `${errors} errors, ${tooMany} answered 429, of ${stats.requests}`,
      ),
      check(
        `RSS growth < ${RSS_GROWTH_BUDGET * 100}%`,
        growth < RSS_GROWTH_BUDGET,
        `${(rssStart / 1024).toFixed(1)} -> ${(rssEnd / 1024).toFixed(1)} MB (${(growth * 100).toFixed(1)}%)`,
      ),
      check(
        `/healthz of another tenant <= ${HEALTHZ_BUDGET_MS} ms`,
        maxHealthz <= HEALTHZ_BUDGET_MS && probeFailures === 0,
        `max ${fmtMs(maxHealthz)} over ${probes.length} probes, ${probeFailures} failed`,
      ),
    ]);
  } catch (e) {
    console.error(e);
    console.error(server.output());
    console.log(`FAIL soak: ${(e as Error).message.split("\n")[0]}`);
    return 1;
  } finally {
    await server.kill();
    await removeDir(dataDir);
  }
}

Deno.exit(await main());

function snapshotSmaps(pid: number, to: string) {
  Deno.mkdirSync(to.slice(0, to.lastIndexOf("/")), { recursive: true });
  Deno.writeTextFileSync(to, Deno.readTextFileSync(`/proc/${pid}/smaps`));
}

/** The server's own record of turns over STALL_LOG_MS: how many, and the longest with their requests. */
function printStalls(output: string) {
  const stalls = output.split("\n").flatMap((line) => {
    try {
      const r = JSON.parse(line);
      return typeof r.stall_ms === "number"
        ? [r as { stall_ms: number; requests: { method: string; path: string }[] }]
        : [];
    } catch {
      return [];
    }
  });
  console.log(`  event-loop turns over ${STALL_LOG_MS} ms (the server's log): ${stalls.length}`);
  for (const s of stalls.sort((a, b) => b.stall_ms - a.stall_ms).slice(0, 5)) {
    const paths = s.requests.map((r) => `${r.method} ${r.path}`);
    console.log(`    ${s.stall_ms} ms, in progress: ${[...new Set(paths)].join(", ")}`);
  }
}
