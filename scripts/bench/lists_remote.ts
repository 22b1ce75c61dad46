/**
 * The lists on a tenant on a libSQL server (sqld) against the same lists on a local file, in the same run
 * (issue 33, decision 057): Sales Data page 1, its search on serial, inventory page 1, tickets page 1 and jobs
 * page 1, each timed on two servers over the same data, in alternating rounds so a busy moment of the machine
 * falls on both. The budget is the ratio: remote p50 and p95 at most twice the local file's.
 *
 * The data is a smaller sales tenant built the way the bench's large one is (`seed-demo --size small`, then
 * scripts/bench/seed_sales_large.ts at REMOTE_SCALE): copying the large one's 436 MB into a namespace through
 * the client would take most of a run. It is built once as a local file (kept in .cache/bench/remote), then
 * each run starts sqld, makes the catalog namespace and the tenant's namespace with the tenant CLI (`create
 * --remote`) and loads the file into it (`restore`), as an operator moves a tenant to sqld.
 *
 * Two servers: the local one as a single instance is run (DATA_DIR/catalog.db, the tenant a file), the remote
 * one as several instances are (CATALOG_URL on the same sqld, the tenant a namespace). Round trips per request
 * are the remote server's `libsql_remote_requests_total` (`/metrics`) over a counted run of requests. The floor of
 * one round trip is measured from this process as the server's client makes it (decision 058).
 */
import { copyFileSync, existsSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { openClient } from "../../db/client.ts";
import { pipelined } from "../../db/pipelined_client.ts";
import { createNamespace, fetchFor } from "../../db/sqld.ts";
import { startNamespacedSqld } from "../testing/sqld.ts";
import { seedSalesLarge, sizes } from "./seed_sales_large.ts";
import {
  bearer,
  CACHE,
  cli,
  getJson,
  load,
  login,
  ms,
  type Options,
  PASSWORD,
  type Row,
  type Section,
  Server,
  stats,
  tenantFile,
} from "./lib.ts";

/** A fiftieth of the large sales tenant: 6,000 lines, 2,000 inventory rows, 10,000 audit rows, 1,000 tickets. */
export const REMOTE_SCALE = 0.02;
const SLUG = "rsales";
const HOST = "127.0.0.20";
const EMAIL = "admin@rsales.example";
const TEMPLATE_DIR = join(CACHE, "remote", "local");
/** `tenant create` of the bench's tenant: in the local template, and (with `--remote`) on sqld. */
const CREATE = [
  "create",
  SLUG,
  "--name",
  "Bench Remote Sales",
  "--host",
  HOST,
  "--admin-email",
  EMAIL,
  "--admin-password",
  PASSWORD,
];
const METRICS_TOKEN = "bench-metrics-token-0123456789";

type Params = Record<string, string>;

interface RemoteList {
  name: string;
  path: string;
  params: Params;
}

/** The local tenant, built once: created by the CLI and seeded as the large one is, at REMOTE_SCALE. */
async function buildTemplate(log: (s: string) => void) {
  const file = tenantFile(TEMPLATE_DIR, SLUG);
  if (existsSync(join(TEMPLATE_DIR, "catalog.db")) && existsSync(file)) {
    const c = await openClient("file:" + file);
    try {
      const n = Number((await c.execute("select count(*) as n from tickets")).rows[0].n);
      if (n >= sizes(REMOTE_SCALE).tickets) return;
    } finally {
      c.close();
    }
  }
  rmSync(TEMPLATE_DIR, { recursive: true, force: true });
  mkdirSync(TEMPLATE_DIR, { recursive: true });
  log(`lists_remote: building the tenant at scale ${REMOTE_SCALE}`);
  await cli(TEMPLATE_DIR, CREATE);
  await cli(TEMPLATE_DIR, ["seed-demo", SLUG, "--size", "small"]);
  await seedSalesLarge(file, log, REMOTE_SCALE);
}

/**
 * One round trip to a namespace from this process, as a server's remote client makes it (the pipelined client on
 * a kept Hrana stream, over the same transport), one after another: its time, and sqld's own `query_total` from
 * the `server-timing` header of each answer. The rest of a round trip is HTTP on both sides and the client.
 */
async function roundTrip(url: string, token: string): Promise<{ client: number; server: number }> {
  const transport = fetchFor(url) ?? globalThis.fetch;
  const server: number[] = [];
  const fetch = async (input: Request | string | URL, init?: RequestInit) => {
    const res = await transport(input, init);
    const m = /query_total;dur=([\d.]+)([^,;]*)/.exec(res.headers.get("server-timing") ?? "");
    if (m) server.push(Number(m[1]) * durationUnit(m[2]));
    return res;
  };
  const { createClient } = await import("@libsql/client");
  const db = pipelined(createClient({ url, authToken: token }), { url, authToken: token, fetch });
  try {
    for (let i = 0; i < 20; i++) await db.execute("select 1");
    server.length = 0;
    const times: number[] = [];
    for (let i = 0; i < 200; i++) {
      const t = performance.now();
      await db.execute("select 1");
      times.push(performance.now() - t);
    }
    return { client: stats(times).p50, server: stats(server).p50 };
  } finally {
    db.close();
  }
}

/**
 * Milliseconds per unit of a `server-timing` duration as sqld writes it (Rust's `Duration` debug format:
 * `2.137568ms`, `551.864µs`, its `µ` read as Latin-1 by the HTTP client).
 */
function durationUnit(unit: string): number {
  if (unit.endsWith("ms")) return 1;
  if (unit.endsWith("µs") || unit.endsWith("us")) return 1e-3;
  if (unit.endsWith("ns")) return 1e-6;
  if (unit.endsWith("s")) return 1e3;
  return NaN;
}

/** The metric's value on a server, from /metrics. */
async function counter(base: string, name: string): Promise<number> {
  const res = await fetch(`${base}/metrics`, { headers: bearer(METRICS_TOKEN) });
  const text = await res.text();
  const m = new RegExp(`^${name} (\\d+)`, "m").exec(text);
  if (!m) throw new Error(`/metrics has no ${name}: ${res.status} ${text.slice(0, 200)}`);
  return Number(m[1]);
}

export async function benchListsRemote(opts: Options, log: (s: string) => void): Promise<Section> {
  const rows: Row[] = [];
  const notes: string[] = [];
  const add = (r: Row) => {
    rows.push(r);
    log(`  ${r.pass ? "PASS" : "FAIL"} ${r.measure}: ${r.figure}${r.floor ? " | " + r.floor : ""}`);
  };
  await buildTemplate(log);
  const remoteDir = join(CACHE, "remote", "run");
  rmSync(remoteDir, { recursive: true, force: true });
  mkdirSync(remoteDir, { recursive: true });
  const sqld = await startNamespacedSqld();
  let local: Server | undefined, remote: Server | undefined;
  try {
    const catalog = await createNamespace(sqld.config, "catalog");
    const env = { ...sqld.env, CATALOG_URL: catalog.url, CATALOG_TOKEN: catalog.token };
    const t0 = performance.now();
    await cli(remoteDir, [...CREATE, "--remote"], env);
    await cli(remoteDir, ["restore", SLUG, "--from", tenantFile(TEMPLATE_DIR, SLUG)], env);
    notes.push(
      `the tenant (${JSON.stringify(sizes(REMOTE_SCALE))} on top of seed-demo --size small) loaded into ` +
        `its namespace in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    const trip = await roundTrip(catalog.url, catalog.token);
    notes.push(
      `one round trip to sqld from the bench's process, as the server's client makes it (a kept stream, ` +
        `\`select 1\`, 200 one after another): p50 ${ms(trip.client)}, of which sqld's query_total ` +
        `${ms(trip.server)}; the rest is HTTP on both sides and the client`,
    );
    // The local server gets its own copy of the template, so a run never changes it.
    const localDir = join(CACHE, "remote", "local-run");
    rmSync(localDir, { recursive: true, force: true });
    mkdirSync(join(localDir, "tenants"), { recursive: true });
    copyFileSync(join(TEMPLATE_DIR, "catalog.db"), join(localDir, "catalog.db"));
    copyFileSync(tenantFile(TEMPLATE_DIR, SLUG), tenantFile(localDir, SLUG));
    local = new Server(localDir, { METRICS_TOKEN });
    remote = new Server(remoteDir, { ...env, METRICS_TOKEN });
    await Promise.all([local.start(), remote.start()]);
    const sides = [
      { name: "local", base: local.url(HOST), token: "" },
      { name: "remote", base: remote.url(HOST), token: "" },
    ];
    for (const s of sides) s.token = await login(s.base, EMAIL);

    // A serial from the middle of the inventory, five characters of it as a user types a fragment.
    const c = await openClient("file:" + tenantFile(localDir, SLUG));
    const serial = String(
      (await c.execute(
        "select serial_number s from inventory where id = (select max(id) / 3 from inventory)",
      ))
        .rows[0]?.s ?? "",
    );
    c.close();
    const term = serial.length > 6
      ? serial.slice(Math.floor(serial.length / 2) - 2, Math.floor(serial.length / 2) + 3)
      : serial;
    const lists: RemoteList[] = [
      {
        name: "sales data page 1",
        path: "/api/sales/sales",
        params: { isInvoice: "true", hideQuotes: "true" },
      },
      {
        name: `sales data search "${term}"`,
        path: "/api/sales/sales",
        params: { isInvoice: "true", hideQuotes: "true", serial_number: term },
      },
      { name: "inventory page 1", path: "/api/sales/inventory", params: { inventory_type: "Serialized" } },
      { name: "tickets page 1", path: "/api/sales/tickets", params: { showInvoiced: "true" } },
      { name: "jobs page 1", path: "/api/pt/jobs", params: {} },
    ];
    const rounds = opts.quick ? 3 : 10;
    const perRound = opts.quick ? 10 : 20;
    for (const list of lists) {
      const url = (base: string) =>
        `${base}${list.path}?${new URLSearchParams({ ...list.params, page: "1" })}`;
      try {
        const totals = [];
        for (const s of sides) totals.push((await getJson(url(s.base), s.token)).total);
        if (totals[0] !== totals[1]) throw new Error(`local total ${totals[0]}, remote ${totals[1]}`);
        // Round trips: the remote server's requests to sqld over a counted run, one request at a time.
        const counted = 20;
        const before = await counter(sides[1].base, "libsql_remote_requests_total");
        await load({
          requests: [{ url: url(sides[1].base), headers: bearer(sides[1].token) }],
          concurrency: 1,
          count: counted,
        });
        const trips = (await counter(sides[1].base, "libsql_remote_requests_total") - before) / counted;
        // Timed in alternating rounds: local, remote, local, ... so both see the same machine.
        const times: Record<string, number[]> = { local: [], remote: [] };
        let errors = 0;
        for (let r = 0; r < rounds; r++) {
          for (const s of sides) {
            const res = await load({
              requests: [{ url: url(s.base), headers: bearer(s.token) }],
              concurrency: 1,
              count: perRound,
              warmup: 2,
            });
            times[s.name].push(...res.latencies);
            errors += res.errors;
          }
        }
        const l = stats(times.local), rm = stats(times.remote);
        const r50 = rm.p50 / l.p50, r95 = rm.p95 / l.p95;
        add({
          measure: `remote ${list.name}`,
          figure: `p95 ${ms(rm.p95)} (p50 ${ms(rm.p50)}); ${trips.toFixed(1)} round trips a request`,
          floor: `local file p95 ${ms(l.p95)} (p50 ${ms(l.p50)})`,
          budget: "remote p50 and p95 <= 2x local",
          pass: r50 <= 2 && r95 <= 2 && !errors,
          note: `${r50.toFixed(1)}x local at p50, ${r95.toFixed(1)}x at p95; ${totals[0]} rows` +
            (errors ? `; ${errors} errors` : ""),
        });
      } catch (e) {
        log(`${list.name} failed: ${e instanceof Error ? e.stack : e}`);
        add({ measure: `remote ${list.name}`, figure: "did not complete", budget: "-", pass: false });
        notes.push(`${list.name}: error: ${String(e instanceof Error ? e.message : e).split("\n")[0]}`);
      }
    }
  } finally {
    await Promise.all([local?.stop(), remote?.stop()]);
    await sqld.stop();
  }
  notes.push(
    "both servers, sqld and the load generator share this machine; the ratio is what counts, figures from a " +
      "busy machine are not the lead's quiet measure",
  );
  return { title: "Lists on a libSQL server (sqld) against a local file", rows, notes };
}
