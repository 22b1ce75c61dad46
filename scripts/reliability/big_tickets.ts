/**
 * Memory soak of issue 30 (docs/reliability.md, "Big tickets"; decision 043): three seeded tenants whose open
 * tickets have grown to thousands of lines, 30 connections each adding and deleting lines on its own ticket
 * while reading ticket details (the ticket and all its lines) and lists, for `--minutes`, while a probe asks
 * a fourth tenant's /healthz every 100 ms. Every line added or deleted changes the count of lines the next
 * detail reads: with a placeholder per line, each read was a new statement text of thousands of placeholders,
 * and the server's C heap grew from 32 MB to over 1 GB in three minutes.
 *
 * Budgets: 0 errors, RSS growth under 15% from the end of the first minute to the end, /healthz p99 under
 * 100 ms. Printed each minute: RSS, the C heap in use, statements prepared and kept (with their estimated
 * bytes), SQLite connections open.
 *
 *   node_modules/.bin/deno run -A scripts/reliability/big_tickets.ts [--minutes 10] [--connections 30]
 *     [--lines 3400]
 *
 * The tickets are grown by SQL on the tenant files while the server runs (as another instance would write):
 * `--lines` copies of a line made through the API, plus up to 1,200 more at random per ticket.
 */
import { openClient } from "../../db/client.ts";
import {
  type Answer,
  type Api,
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
  rssKb,
  Server,
  signIn,
  sleep,
  Stats,
  tempDataDir,
  type Tenant,
  tenantFile,
  verdict,
} from "./lib.ts";

const flags = parseFlags(Deno.args);
const MINUTES = numberFlag(flags, "minutes", 10);
const CONNECTIONS = numberFlag(flags, "connections", 30);
const LINES = numberFlag(flags, "lines", 3400);
const PROBE_EVERY_MS = 100;
const HEALTHZ_P99_BUDGET_MS = 100;
const RSS_GROWTH_BUDGET = 0.15;
const METRICS_TOKEN = "big-tickets-metrics-token-0123456789";

const rand = (n: number) => Math.floor(Math.random() * n);
const pick = <T>(xs: readonly T[]): T => xs[rand(xs.length)];

interface TenantData {
  tenant: Tenant;
  api: Api;
  chargeRows: number[];
  tickets: number[];
}

/** One connection: its own ticket, whose added lines it alone deletes. */
interface Conn {
  t: TenantData;
  ticket: number;
  added: number[];
  n: number;
}

/** The server's figures (GET /metrics). */
async function metrics(url: string): Promise<Record<string, number>> {
  const r = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const out: Record<string, number> = {};
  for (const line of (await r.text()).split("\n")) {
    const m = /^(\w+) (\S+)$/.exec(line);
    if (m) out[m[1]] = Number(m[2]);
  }
  return out;
}

async function setUp(server: Server, dataDir: string, tenant: Tenant, tickets: number): Promise<TenantData> {
  const api = await signIn(server, tenant);
  const me = await api.ok("GET", "/api/admin/users/me");
  const chargeRows = (await api.ok("GET", "/api/sales/inventory?rowsPerPage=20&inventory_type=Charge%20Code"))
    .results.map((r: { id: number }) => r.id);
  const customers =
    (await api.ok("GET", "/api/admin/companies?rowsPerPage=10&type=customer_company")).results;
  if (!chargeRows.length || !customers.length) {
    throw new Error(`${tenant.slug}: no charge codes or customers`);
  }
  const ids: number[] = [];
  const templates: number[] = [];
  for (let i = 0; i < tickets; i++) {
    const ticket = await api.ok("POST", "/api/sales/tickets", {
      customer_id: pick(customers as { id: number }[]).id,
      sales_rep_id: me.id,
      use_min_rate_logic: false,
      notes: "big tickets",
    });
    const line = await api.ok("POST", "/api/sales/sales", {
      ticket_id: ticket.id,
      inventory_id: pick(chargeRows),
      quantity: 1,
      notes: "grown",
    });
    ids.push(ticket.id);
    templates.push(line.id);
  }
  // Grown by SQL, as another instance would write: copies of each ticket's first line.
  const db = await openClient(`file:${tenantFile(dataDir, tenant.slug)}`);
  try {
    const columns = (await db.execute("select name from pragma_table_info('sales')")).rows
      .map((r) => String(r.name)).filter((c) => c !== "id" && c !== "order");
    const list = columns.map((c) => `"${c}"`).join(", ");
    for (const id of templates) {
      const copies = LINES - 1 + rand(1200);
      await db.execute({
        sql: `with recursive n(i) as (select 1 union all select i + 1 from n where i < ?)
              insert into sales (${list}, "order") select ${list}, i from sales, n where id = ?`,
        args: [copies, id],
      });
    }
    // Every instance's cached totals are counted at a version: these writes make them stale.
    await db.execute("update write_version set version = version + 1");
  } finally {
    db.close();
  }
  return { tenant, api, chargeRows, tickets: ids };
}

/** Per request kind, the latencies after the first minute. */
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

/** One request: line adds and deletes on the connection's ticket, ticket details (any of the tenant's), lists. */
async function step(c: Conn): Promise<void> {
  const { api } = c.t;
  c.n++;
  const r = Math.random() * 100;
  if (r < 22) {
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
    if (a.status === 200) c.added.push(a.body.id);
  } else if (r < 44) {
    const id = c.added.length ? c.added.splice(rand(c.added.length), 1)[0] : undefined;
    if (id !== undefined) await timed("line delete", api.call("DELETE", `/api/sales/sales/${id}`));
  } else if (r < 70) {
    const id = Math.random() < 0.5 ? c.ticket : pick(c.t.tickets);
    await timed("ticket detail", api.call("GET", `/api/sales/tickets/${id}`));
    await timed("ticket lines", api.call("GET", `/api/sales/sales/ticket?ticket_id=${id}`, { raw: true }));
  } else if (r < 82) {
    const q = pick(["ticketFlowFilter=OPEN", "sortBy=customer", "isQuote=false"]);
    await timed("tickets list", api.call("GET", `/api/sales/tickets?rowsPerPage=25&${q}`));
  } else if (r < 92) {
    await timed(
      "sales data list",
      api.call(
        "GET",
        `/api/sales/sales?rowsPerPage=50&sortBy=start_date&descending=true&page=${1 + rand(20)}`,
      ),
    );
  } else {
    await timed("inventory list", api.call("GET", "/api/sales/inventory?rowsPerPage=20&sortBy=item_number"));
  }
}

interface Sample {
  at: number;
  rssKb: number;
  metrics: Record<string, number>;
}

function line(s: Sample): string {
  const m = s.metrics;
  return `${(s.at / 60).toFixed(1)} min: RSS ${(s.rssKb / 1024).toFixed(1)} MB, malloc in use ${
    (m.malloc_in_use_bytes / 2 ** 20).toFixed(1)
  } MB, statements prepared ${m.sqlite_statements_prepared_total}, kept ${m.sqlite_statements_cached} (${
    ((m.sqlite_statements_cached_bytes ?? NaN) / 2 ** 20).toFixed(1)
  } MB est.), connections ${m.sqlite_connections_open} (replaced ${
    m.sqlite_connections_recycled_total ?? "?"
  })`;
}

async function main(): Promise<number> {
  const dataDir = await tempDataDir("big-tickets");
  const server = new Server(dataDir, freePort(), { METRICS_TOKEN });
  try {
    const tenants: Tenant[] = [];
    for (const [i, slug] of ["big-a", "big-b", "big-c"].entries()) {
      tenants.push(await createTenant(dataDir, slug, loopbackHost(i)));
      const seeded = await cli(dataDir, ["seed-demo", slug, "--size", "small"]);
      if (seeded.code !== 0) throw new Error(`seed-demo ${slug} failed: ${seeded.stderr}`);
    }
    const probeTenant = await createTenant(dataDir, "big-probe", loopbackHost(tenants.length));
    await server.start();
    const perTenant = Math.ceil(CONNECTIONS / tenants.length);
    const data: TenantData[] = [];
    for (const t of tenants) data.push(await setUp(server, dataDir, t, perTenant));
    const conns: Conn[] = Array.from({ length: CONNECTIONS }, (_, i) => {
      const t = data[i % data.length];
      return { t, ticket: t.tickets[Math.floor(i / data.length)], added: [], n: 0 };
    });
    const stats = new Stats();
    for (const d of data) d.api.stats = stats;
    console.log(
      `big tickets: ${MINUTES} min, ${CONNECTIONS} connections over ${tenants.length} tenants, tickets of ` +
        `${LINES}-${LINES + 1200} lines, /healthz of ${probeTenant.slug} every ${PROBE_EVERY_MS} ms; ` +
        `server pid ${server.pid}`,
    );

    let stop = false;
    const worker = new Worker(new URL("./probe_worker.ts", import.meta.url), { type: "module" });
    const probed = new Promise<{ ms: number; status: number }[]>((resolve) => {
      worker.onmessage = (e) => resolve(e.data);
    });
    worker.postMessage({ url: server.url(probeTenant.host), everyMs: PROBE_EVERY_MS });
    const load = Promise.all(conns.map(async (c) => {
      while (!stop) await step(c);
    }));

    const t0 = performance.now();
    const samples: Sample[] = [{ at: 0, rssKb: rssKb(server.pid), metrics: await metrics(server.url()) }];
    console.log(`  ${line(samples[0])}`);
    let first: Sample | undefined;
    for (let minute = 1; minute <= MINUTES; minute++) {
      await sleep(Math.max(0, t0 + minute * 60_000 - performance.now()));
      const s = {
        at: (performance.now() - t0) / 1000,
        rssKb: rssKb(server.pid),
        metrics: await metrics(server.url()),
      };
      samples.push(s);
      console.log(`  ${line(s)}; ${stats.requests} requests, ${stats.errors} errors`);
      if (minute === 1) {
        first = s;
        measuring = true;
        worker.postMessage("measure");
      }
    }
    stop = true;
    worker.postMessage("stop");
    await load;
    const probes = await probed;
    const seconds = (performance.now() - t0) / 1000;
    await server.stop();

    const last = samples.at(-1)!;
    const base = first ?? samples[0];
    const growth = (last.rssKb - base.rssKb) / base.rssKb;
    const ms = probes.map((p) => p.ms);
    const probeFailures = probes.filter((p) => p.status !== 200).length;
    const p99 = percentile(ms, 99);
    console.log(
      `  ${stats.requests} requests in ${seconds.toFixed(0)} s (${
        (stats.requests / seconds).toFixed(0)
      }/s); ` +
        `statuses ${stats.statusLine()}`,
    );
    for (const [k, v] of [...kinds].sort()) {
      console.log(
        `    ${k.padEnd(16)} ${String(v.length).padStart(6)}  p50 ${
          fmtMs(percentile(v, 50)).padStart(8)
        }  p99 ${fmtMs(percentile(v, 99))}`,
      );
    }
    console.log(
      `  RSS after minute 1 ${(base.rssKb / 1024).toFixed(1)} MB, end ${
        (last.rssKb / 1024).toFixed(1)
      } MB, max ${(Math.max(...samples.map((s) => s.rssKb)) / 1024).toFixed(1)} MB (${
        (growth * 100).toFixed(1)
      }%)`,
    );
    console.log(
      `  /healthz after minute 1: ${ms.length} probes, p50 ${fmtMs(percentile(ms, 50))}, p99 ${
        fmtMs(p99)
      }, max ${fmtMs(Math.max(0, ...ms))}`,
    );
    for (const s of stats.samples) console.log(`  error: ${s}`);
    return verdict("big tickets", [
      check("0 errors", stats.errors === 0, `${stats.errors} errors of ${stats.requests}`),
      check(
        `RSS growth after minute 1 < ${RSS_GROWTH_BUDGET * 100}%`,
        growth < RSS_GROWTH_BUDGET,
        `${(base.rssKb / 1024).toFixed(1)} -> ${(last.rssKb / 1024).toFixed(1)} MB (${
          (growth * 100).toFixed(1)
        }%)`,
      ),
      check(
        `/healthz p99 < ${HEALTHZ_P99_BUDGET_MS} ms`,
        p99 < HEALTHZ_P99_BUDGET_MS && probeFailures === 0,
        `p99 ${fmtMs(p99)} over ${ms.length} probes, ${probeFailures} failed`,
      ),
    ]);
  } catch (e) {
    console.error(e);
    console.error(server.output());
    console.log(`FAIL big tickets: ${(e as Error).message.split("\n")[0]}`);
    return 1;
  } finally {
    await server.kill();
    await removeDir(dataDir);
  }
}

Deno.exit(await main());
