import { openClient } from "../../db/client.ts";
/**
 * 1,000 tenants: the idle server's RSS with 1,000 tenants provisioned (started, /healthz answered, left
 * alone a moment), then the first request of tenants the server has not opened yet; then, on a fresh server,
 * every one of the 1,000 signed in and one list page read, with the RSS right after and after 2 minutes idle
 * (decision 043: open tenants are trimmed and closed when idle, so the figure falls back near the idle one).
 *
 * Provisioning goes through the CLI once (one tenant, migrated, with its admin), then copies that file
 * 999 times and adds the catalog rows the CLI would: a minute instead of a quarter of an hour, with the
 * same result. Each tenant is reached on its own loopback address (127.1.x.y).
 */
import { copyFileSync, existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import {
  CACHE,
  cli,
  login,
  mb,
  ms,
  type Options,
  PASSWORD,
  rssOf,
  type Section,
  Server,
  sleep,
  stats,
} from "./lib.ts";

const IDLE_DIR = join(CACHE, "idle");
const COUNT = 1000;
const slug = (i: number) => `t${String(i).padStart(4, "0")}`;
const hostOf = (i: number) => `127.1.${Math.floor(i / 200)}.${(i % 200) + 1}`;

export async function provisionIdle(log: (s: string) => void) {
  const catalogFile = join(IDLE_DIR, "catalog.db");
  if (existsSync(catalogFile)) {
    const c = await openClient("file:" + catalogFile);
    const n = Number((await c.execute("select count(*) as n from tenants")).rows[0].n);
    c.close();
    if (n >= COUNT) return;
    throw new Error(`${IDLE_DIR} holds ${n} tenants, not ${COUNT}: delete it and run again`);
  }
  log(`provisioning ${COUNT} tenants in ${IDLE_DIR}`);
  mkdirSync(IDLE_DIR, { recursive: true });
  await cli(IDLE_DIR, [
    "create",
    slug(0),
    "--name",
    "Idle 0",
    "--host",
    hostOf(0),
    "--admin-email",
    "admin@idle.example",
    "--admin-password",
    PASSWORD,
  ]);
  const template = join(IDLE_DIR, "tenants", `${slug(0)}.db`);
  // Everything into the main file first: a copy of it alone would miss what still sits in the WAL.
  const t = await openClient("file:" + template);
  await t.execute("PRAGMA wal_checkpoint(TRUNCATE)");
  t.close();
  const catalog = await openClient("file:" + catalogFile);
  try {
    const tx = await catalog.transaction("write");
    for (let i = 1; i < COUNT; i++) {
      copyFileSync(template, join(IDLE_DIR, "tenants", `${slug(i)}.db`));
      const r = await tx.execute({
        sql: "insert into tenants (slug, name, db_url) values (?, ?, ?) returning id",
        args: [slug(i), `Idle ${i}`, `file:tenants/${slug(i)}.db`],
      });
      await tx.execute({
        sql: "insert into tenant_hosts (host, tenant_id) values (?, ?)",
        args: [hostOf(i), r.rows[0].id],
      });
    }
    await tx.commit();
  } finally {
    catalog.close();
  }
}

/** How long the server is left alone after every tenant was signed in to and read. */
const IDLE_AFTER_MS = 120_000;
const METRICS_TOKEN = "bench-metrics-token-0123456789";

/** A figure of the server's /metrics. */
async function metric(server: Server, name: string): Promise<number> {
  const res = await fetch(server.url() + "/metrics", {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  const line = (await res.text()).split("\n").find((l) => l.startsWith(name + " "));
  return Number(line?.split(" ")[1] ?? NaN);
}

/** The server's open sockets: the HTTP connections it keeps (at most 128, decision 060) and a few of its own. */
function socketsOf(pid: number): number {
  let n = 0;
  for (const e of Deno.readDirSync(`/proc/${pid}/fd`)) {
    try {
      if (Deno.readLinkSync(`/proc/${pid}/fd/${e.name}`).startsWith("socket:")) n++;
    } catch { /* closed meanwhile */ }
  }
  return n;
}

/** Where the server's memory is (its /metrics): the C allocator's and the JavaScript heap's, in MB. */
async function memoryParts(server: Server): Promise<string> {
  const m = async (name: string) => ((await metric(server, name)) / 2 ** 20).toFixed(1);
  return `malloc in use ${await m("malloc_in_use_bytes")} MB, free in its arenas ${await m(
    "malloc_free_bytes",
  )} MB, mmapped ${await m("malloc_mmapped_bytes")} MB; JS heap used ${await m(
    "process_heap_used_bytes",
  )} of ${await m("process_heap_total_bytes")} MB, external ${await m("process_external_memory_bytes")} MB`;
}

/**
 * On a fresh server, each of the 1,000 tenants signed in to and one list page read (as issue 30 measured it):
 * the RSS before, right after the last, and after `IDLE_AFTER_MS` alone.
 */
async function everyTenantOnce(log: (s: string) => void) {
  const server = new Server(IDLE_DIR, { METRICS_TOKEN });
  await server.start(300_000);
  try {
    await (await fetch(server.url() + "/healthz")).body?.cancel();
    await sleep(3000);
    const before = rssOf(server.pid).rss;
    log(`tenants: before, ${await memoryParts(server)}`);
    log(`tenants: signing in to each of ${COUNT} tenants and reading a list page`);
    const t0 = performance.now();
    let errors = 0;
    for (let i = 0; i < COUNT; i++) {
      const token = await login(server.url(hostOf(i)), "admin@idle.example");
      const res = await fetch(server.url(hostOf(i)) + "/api/sales/tickets?rowsPerPage=25", {
        headers: { authorization: `Bearer ${token}` },
      });
      await res.arrayBuffer();
      if (res.status !== 200) errors++;
    }
    const seconds = (performance.now() - t0) / 1000;
    const after = rssOf(server.pid).rss;
    const openAfter = await metric(server, "tenants_open");
    const connectionsAfter = await metric(server, "sqlite_connections_open");
    const socketsAfter = socketsOf(server.pid);
    const partsAfter = await memoryParts(server);
    log(
      `tenants: ${COUNT} signed in and read in ${seconds.toFixed(0)} s (${partsAfter}); idle for ${
        IDLE_AFTER_MS / 1000
      } s`,
    );
    await sleep(IDLE_AFTER_MS);
    const idle = rssOf(server.pid).rss;
    const socketsIdle = socketsOf(server.pid);
    log(`tenants: after ${IDLE_AFTER_MS / 1000} s idle: ${await memoryParts(server)}`);
    return {
      before,
      after,
      idle,
      seconds,
      errors,
      openAfter,
      connectionsAfter,
      openIdle: await metric(server, "tenants_open"),
      connectionsIdle: await metric(server, "sqlite_connections_open"),
      socketsAfter,
      socketsIdle,
    };
  } finally {
    await server.stop();
  }
}

export async function benchTenantsIdle(opts: Options, log: (s: string) => void): Promise<Section> {
  await provisionIdle(log);
  const cold = opts.quick ? 10 : 40;
  // Sessions first, on a server that is then stopped: the cold requests below are signed in, as a
  // returning user's first request after a restart is.
  const picks = Array.from({ length: cold }, (_, k) => 1 + Math.floor((k * (COUNT - 1)) / cold));
  const tokens = new Map<number, string>();
  {
    const s = new Server(IDLE_DIR);
    await s.start(300_000);
    try {
      for (const i of picks) tokens.set(i, await login(s.url(hostOf(i)), "admin@idle.example"));
    } finally {
      await s.stop();
    }
  }
  const server = new Server(IDLE_DIR);
  const startMs = await server.start(300_000);
  try {
    log("tenants: idle server");
    await (await fetch(server.url() + "/healthz")).body?.cancel();
    await sleep(3000);
    const idle = rssOf(server.pid);
    const firsts: number[] = [];
    const seconds: number[] = [];
    let errors = 0;
    for (const i of picks) {
      const url = server.url(hostOf(i)) + "/api/admin/users/me";
      const headers = { authorization: `Bearer ${tokens.get(i)}` };
      for (const into of [firsts, seconds]) {
        const t = performance.now();
        const res = await fetch(url, { headers });
        await res.arrayBuffer();
        into.push(performance.now() - t);
        if (res.status !== 200) errors++;
      }
    }
    const f = stats(firsts);
    const w = stats(seconds);
    const coldRss = rssOf(server.pid).rss;
    await server.stop();
    const every = await everyTenantOnce(log);
    return {
      title: "1,000 tenants",
      rows: [
        {
          measure: `idle server RSS, ${COUNT} tenants provisioned`,
          figure: mb(idle.rss),
          budget: "< 150 MB",
          pass: idle.rss < 150 * 1024,
        },
        {
          measure: "a cold tenant's first request (GET /api/admin/users/me, signed in)",
          figure: `p50 ${ms(f.p50)}, p95 ${ms(f.p95)}, max ${ms(f.max)}`,
          floor: `its second request: p50 ${ms(w.p50)}`,
          budget: "< 20 ms",
          pass: f.p95 < 20 && !errors,
          note: errors ? `${errors} non-200 answers` : undefined,
        },
        {
          measure: `RSS right after each of ${COUNT} tenants signed in and read once`,
          figure: mb(every.after),
          floor: `before: ${mb(every.before)}`,
          budget: "< 250 MB",
          pass: every.after < 250 * 1024 && !every.errors,
          note: every.errors ? `${every.errors} non-200 answers` : undefined,
        },
        {
          measure: `the same, after ${IDLE_AFTER_MS / 60_000} minutes idle`,
          figure: mb(every.idle),
          budget: "< 180 MB",
          pass: every.idle < 180 * 1024,
        },
      ],
      notes: [
        `server start to /healthz with ${COUNT} tenants: ${
          ms(startMs)
        }; RSS after ${cold} cold tenants opened: ` +
        mb(coldRss),
        `${cold} tenants spread over the 1,000, each asked twice in turn (first = cold open)`,
        `every tenant once: ${every.seconds.toFixed(0)} s for ${COUNT} sign-ins and list pages; tenant ` +
        `databases open ${every.openAfter} right after (${every.connectionsAfter} SQLite connections), ` +
        `${every.openIdle} after ${IDLE_AFTER_MS / 1000} s idle (${every.connectionsIdle} connections)`,
        `the server's sockets (the HTTP connections it keeps open, at most 128, and about 7 of its own): ` +
        `${every.socketsAfter} right after, ${every.socketsIdle} after ${IDLE_AFTER_MS / 1000} s idle`,
      ],
    };
  } finally {
    await server.stop();
  }
}
