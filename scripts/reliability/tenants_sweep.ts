/**
 * The 1,000-tenant sweep of `scripts/bench/tenants_idle.ts` alone, against the server code of any checkout, so
 * that commits can be compared (decision 043): a fresh server on a copy of the bench's 1,000 tenants
 * (`.cache/bench/idle`, made by `npm run bench -- --only tenants_idle`), every tenant signed in to and one
 * ticket list page read, then the RSS, the server's memory parts (/metrics) and the open tenants right after
 * and at points of the idle time that follows. Memory, not time: a busy machine moves these figures little.
 *
 *   node_modules/.bin/deno run -A scripts/reliability/tenants_sweep.ts [--root DIR] [--data DIR] [--idle-s 120]
 *     [--smaps DIR] [--env '{"TENANT_CACHE_MB":"8"}'] [--label NAME]
 *
 * `--data DIR`: the 1,000 tenants to copy (default: `.cache/bench/idle`).
 * `--root`: the checkout whose api/main.ts is run (default: this one); it needs node_modules (a symlink).
 * `--smaps DIR`: /proc/<pid>/smaps copied to DIR/before.txt, DIR/start.txt (right after the sweep) and
 * DIR/end.txt (after the idle time): `smaps_diff.ts DIR` compares start and end.
 * Prints one JSON line per run (`result: {...}`) after its progress lines.
 */
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { freePort, parseFlags } from "../testing/server_process.ts";

const HERE = resolve(import.meta.dirname!, "../..");
const flags = parseFlags(Deno.args);
const root = resolve(flags.get("root") ?? HERE);
const idleS = Number(flags.get("idle-s") ?? 120);
const smapsDir = flags.get("smaps");
const label = flags.get("label") ?? root;
const extraEnv: Record<string, string> = JSON.parse(flags.get("env") ?? "{}");
const source = resolve(flags.get("data") ?? join(HERE, ".cache/bench/idle"));
const COUNT = 1000;
const PASSWORD = "bench-password";
const TOKEN = "sweep-metrics-token-0123456789";
const hostOf = (i: number) => `127.1.${Math.floor(i / 200)}.${(i % 200) + 1}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const dataDir = mkdtempSync(join(tmpdir(), "tenants-sweep-"));
cpSync(source, dataDir, { recursive: true });
const port = freePort();
const url = (host = "127.0.0.1") => `http://${host}:${port}`;
const proc = new Deno.Command(join(root, "node_modules/.bin/deno"), {
  args: ["run", "--v8-flags=--heap-growing-percent=100,--expose-gc", "-A", join(root, "api/main.ts")],
  cwd: root,
  env: {
    DATA_DIR: dataDir,
    PORT: String(port),
    DEMO_TENANT: "false",
    LOG_REQUESTS: "false",
    SCRYPT_N: "1024",
    METRICS_TOKEN: TOKEN,
    ...extraEnv,
  },
  stdout: "null",
  stderr: "inherit",
}).spawn();

const kb = (key: string) => {
  const text = Deno.readTextFileSync(`/proc/${proc.pid}/status`);
  return Number(new RegExp(`^${key}:\\s+(\\d+)`, "m").exec(text)?.[1] ?? NaN);
};
/** Anonymous and file-backed resident kB (smaps_rollup). */
function rollup() {
  const text = Deno.readTextFileSync(`/proc/${proc.pid}/smaps_rollup`);
  const f = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)`, "m").exec(text)?.[1] ?? NaN);
  return { anonMb: f("Anonymous") / 1024, fileMb: (f("Rss") - f("Anonymous")) / 1024 };
}
/** The server's open sockets (HTTP connections kept alive among them). */
function sockets(): number {
  let n = 0;
  for (const e of Deno.readDirSync(`/proc/${proc.pid}/fd`)) {
    try {
      if (Deno.readLinkSync(`/proc/${proc.pid}/fd/${e.name}`).startsWith("socket:")) n++;
    } catch { /* closed meanwhile */ }
  }
  return n;
}
async function metrics(): Promise<Record<string, number>> {
  const res = await fetch(url() + "/metrics", { headers: { authorization: `Bearer ${TOKEN}` } });
  const out: Record<string, number> = {};
  for (const line of (await res.text()).split("\n")) {
    const m = /^([a-z_]+) ([0-9.e+-]+)$/.exec(line);
    if (m) out[m[1]] = Number(m[2]);
  }
  return out;
}
async function point(name: string) {
  const m = await metrics();
  const mb = (k: string) => m[k] === undefined ? undefined : +(m[k] / 2 ** 20).toFixed(1);
  const r = rollup();
  const p = {
    point: name,
    rssMb: +(kb("VmRSS") / 1024).toFixed(1),
    anonMb: +r.anonMb.toFixed(1),
    fileMb: +r.fileMb.toFixed(1),
    mallocInUse: mb("malloc_in_use_bytes"),
    mallocFree: mb("malloc_free_bytes"),
    mmapped: mb("malloc_mmapped_bytes"),
    heapUsed: mb("process_heap_used_bytes"),
    heapTotal: mb("process_heap_total_bytes"),
    external: mb("process_external_memory_bytes"),
    tenantsOpen: m["tenants_open"],
    connections: m["sqlite_connections_open"],
    sockets: sockets(),
    threads: kb("Threads"),
  };
  console.error(JSON.stringify(p));
  return p;
}
function snapshot(name: string) {
  if (!smapsDir) return;
  Deno.mkdirSync(smapsDir, { recursive: true });
  Deno.writeTextFileSync(join(smapsDir, name), Deno.readTextFileSync(`/proc/${proc.pid}/smaps`));
}

async function login(base: string): Promise<string> {
  const res = await fetch(`${base}/api/login/access-token`, {
    method: "POST",
    body: new URLSearchParams({ username: "admin@idle.example", password: PASSWORD }),
  });
  const body = await res.json();
  if (res.status !== 200) throw new Error(`login at ${base}: ${res.status} ${JSON.stringify(body)}`);
  return body.access_token;
}

try {
  const t0 = performance.now();
  for (;;) {
    try {
      const r = await fetch(url() + "/healthz");
      await r.body?.cancel();
      if (r.status === 200) break;
    } catch { /* not listening yet */ }
    if (performance.now() - t0 > 300_000) throw new Error("server did not answer /healthz");
    await sleep(50);
  }
  await sleep(3000);
  const points = [await point("before")];
  snapshot("before.txt");
  let errors = 0;
  const s0 = performance.now();
  for (let i = 0; i < COUNT; i++) {
    const token = await login(url(hostOf(i)));
    const res = await fetch(url(hostOf(i)) + "/api/sales/tickets?rowsPerPage=25", {
      headers: { authorization: `Bearer ${token}` },
    });
    await res.arrayBuffer();
    if (res.status !== 200) errors++;
  }
  const sweepS = (performance.now() - s0) / 1000;
  points.push(await point("after"));
  snapshot("start.txt");
  const at = [10, 30, 65, idleS].filter((s, i, a) => s <= idleS && a.indexOf(s) === i);
  const i0 = performance.now();
  for (const s of at) {
    await sleep(Math.max(0, s * 1000 - (performance.now() - i0)));
    points.push(await point(`idle ${s} s`));
  }
  snapshot("end.txt");
  console.log(`result: ${JSON.stringify({ label, sweepS: +sweepS.toFixed(0), errors, points })}`);
} finally {
  proc.kill("SIGTERM");
  await proc.status;
  rmSync(dataDir, { recursive: true, force: true });
}
