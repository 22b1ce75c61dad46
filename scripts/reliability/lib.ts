/**
 * Shared pieces of the long-running reliability scripts (docs/reliability.md): a real server as a child
 * process over a temporary DATA_DIR, the tenant CLI, sign-in, a small HTTP client that keeps figures,
 * a worker loop, and the PASS/FAIL verdict. Everything goes over HTTP or the CLI, as in production; only
 * the final checks read a database file directly.
 */
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import {
  DENO,
  freePort,
  parseFlags,
  ROOT,
  ServerProcess as Server,
  sleep,
} from "../testing/server_process.ts";
export { freePort, parseFlags, ROOT, sleep };

export const ADMIN_PASSWORD = "reliability-password";

export function numberFlag(flags: Map<string, string>, name: string, dflt: number): number {
  const v = flags.get(name);
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number, got ${v}`);
  return n;
}

export async function tempDataDir(name: string): Promise<string> {
  return await mkdtemp(join(tmpdir(), `reliability-${name}-`));
}

export async function removeDir(dir: string) {
  await rm(dir, { recursive: true, force: true });
}

/**
 * Tenant hosts are loopback addresses (127.0.0.2, 127.0.0.3, ...): Deno's fetch sends the URL's host as
 * the Host header and ignores one set by hand, and the whole 127/8 block reaches the server listening on
 * 0.0.0.0, so each tenant is reached by its own address with no /etc/hosts entry.
 */
export const loopbackHost = (i: number) => `127.0.0.${10 + i}`;

export interface Tenant {
  slug: string;
  host: string;
  email: string;
  password: string;
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
}

/** The tenant CLI as a child process, as an operator runs it. */
export async function cli(dataDir: string, args: string[]): Promise<CliResult> {
  const start = performance.now();
  const out = await new Deno.Command(DENO, {
    args: ["run", "-A", join(ROOT, "scripts/tenant.ts"), ...args],
    cwd: ROOT,
    env: { DATA_DIR: dataDir, SCRYPT_N: "1024" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return {
    code: out.code,
    stdout: dec.decode(out.stdout),
    stderr: dec.decode(out.stderr),
    ms: performance.now() - start,
  };
}

export async function createTenant(dataDir: string, slug: string, host: string): Promise<Tenant> {
  const email = `admin@${slug}.example`;
  const r = await cli(dataDir, [
    "create",
    slug,
    "--name",
    `${slug} Pressure Testing`,
    "--host",
    host,
    "--admin-email",
    email,
    "--admin-password",
    ADMIN_PASSWORD,
  ]);
  if (r.code !== 0) throw new Error(`tenant create ${slug} failed: ${r.stderr || r.stdout}`);
  return { slug, host, email, password: ADMIN_PASSWORD };
}

export const tenantFile = (dataDir: string, slug: string) => join(dataDir, "tenants", `${slug}.db`);

/** The server as a child process; its output is kept (last lines) and shown when something fails. */
/** The server as a child process (scripts/testing/server_process.ts). */
export { Server };

/** GET /healthz; status 0 on a network error or timeout. */
export async function healthz(base: string, timeoutMs: number): Promise<{ status: number; ms: number }> {
  const t0 = performance.now();
  try {
    const r = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(timeoutMs) });
    await r.body?.cancel();
    return { status: r.status, ms: performance.now() - t0 };
  } catch {
    return { status: 0, ms: performance.now() - t0 };
  }
}

export interface Answer {
  status: number;
  // deno-lint-ignore no-explicit-any
  body: any;
  ms: number;
  /** the network error or timeout, when status is 0 */
  error?: string;
}

/** Figures of every request a client made: counts by status, latencies. */
export class Stats {
  latencies: number[] = [];
  byStatus = new Map<number, number>();
  /** a few examples of 5xx and network errors, for the report */
  samples: string[] = [];

  record(method: string, path: string, a: Answer) {
    this.latencies.push(a.ms);
    this.byStatus.set(a.status, (this.byStatus.get(a.status) ?? 0) + 1);
    if ((a.status === 0 || a.status >= 500) && this.samples.length < 10) {
      const detail = a.error ?? JSON.stringify(a.body)?.slice(0, 200);
      this.samples.push(`${method} ${path} -> ${a.status} ${detail}`);
    }
  }

  get requests() {
    return this.latencies.length;
  }

  count(pred: (status: number) => boolean): number {
    let n = 0;
    for (const [s, c] of this.byStatus) if (pred(s)) n += c;
    return n;
  }

  /** 5xx and network errors (status 0). */
  get errors() {
    return this.count((s) => s === 0 || s >= 500);
  }

  percentile(p: number): number {
    return percentile(this.latencies, p);
  }

  statusLine(): string {
    return [...this.byStatus].sort((a, b) => a[0] - b[0]).map(([s, c]) => `${s || "net-err"}:${c}`).join(" ");
  }
}

export function percentile(values: number[], p: number): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** A signed-in client of one tenant. */
export class Api {
  constructor(
    readonly base: string,
    readonly token: string | undefined,
    public stats = new Stats(),
    readonly timeoutMs = 30_000,
  ) {}

  async call(
    method: string,
    path: string,
    opts: { json?: unknown; form?: Record<string, string>; raw?: boolean } = {},
  ): Promise<Answer> {
    const headers: Record<string, string> = {};
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    let body: BodyInit | undefined;
    if (opts.json !== undefined) {
      headers["Content-Type"] = "application/json";
      body = JSON.stringify(opts.json);
    } else if (opts.form) body = new URLSearchParams(opts.form);
    const t0 = performance.now();
    let a: Answer;
    try {
      const r = await fetch(this.base + path, {
        method,
        headers,
        body,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      const type = r.headers.get("content-type") ?? "";
      // Downloads are read whole (their time counts) but only their size is kept.
      const parsed = opts.raw || !type.includes("json")
        ? (await r.arrayBuffer()).byteLength
        : await r.json().catch(() => undefined);
      a = { status: r.status, body: parsed, ms: performance.now() - t0 };
    } catch (e) {
      a = { status: 0, body: undefined, ms: performance.now() - t0, error: String(e) };
    }
    this.stats.record(method, path, a);
    return a;
  }

  /** A call that must answer 200 (set-up steps): throws with the answer otherwise. */
  async ok(method: string, path: string, json?: unknown) {
    const a = await this.call(method, path, { json });
    if (a.status !== 200) {
      throw new Error(`${method} ${path} answered ${a.status}: ${JSON.stringify(a.body)?.slice(0, 300)}`);
    }
    // deno-lint-ignore no-explicit-any
    return a.body as any;
  }
}

/** Signs in as the tenant's admin and answers a client with its Bearer token. */
export async function signIn(server: Server, t: Tenant, stats?: Stats): Promise<Api> {
  const base = server.url(t.host);
  const anon = new Api(base, undefined);
  const a = await anon.call("POST", "/api/login/access-token", {
    form: { username: t.email, password: t.password },
  });
  if (a.status !== 200) {
    throw new Error(`sign-in to ${t.slug} answered ${a.status}: ${JSON.stringify(a.body)}`);
  }
  return new Api(base, a.body.access_token, stats);
}

/** Runs `n` workers, each calling `step(worker, i)` in a loop until `done()` says stop. */
export async function workers(
  n: number,
  done: () => boolean,
  step: (worker: number, i: number) => Promise<void>,
): Promise<void> {
  await Promise.all(Array.from({ length: n }, async (_, w) => {
    for (let i = 0; !done(); i++) await step(w, i);
  }));
}

/** The server's resident memory in kB (Linux). */
export function rssKb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const m = /VmRSS:\s+(\d+)\s+kB/.exec(status);
  return m ? Number(m[1]) : 0;
}

/** Where the resident memory is: anonymous (malloc, V8) and file-backed, in kB, and open database files. */
export function memoryParts(pid: number): { anonKb: number; fileKb: number; dbFiles: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)\\s+kB`).exec(status)?.[1] ?? 0);
  let dbFiles = 0;
  for (const fd of Deno.readDirSync(`/proc/${pid}/fd`)) {
    try {
      if (/\.db(-wal|-shm)?$/.test(Deno.readLinkSync(`/proc/${pid}/fd/${fd.name}`))) dbFiles++;
    } catch { /* closed meanwhile */ }
  }
  return { anonKb: kb("RssAnon"), fileKb: kb("RssFile"), dbFiles };
}

/** CPU seconds (user + system) the process has used so far (Linux; clock ticks of 1/100 s). */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after the command name (which may hold spaces) start at ")"; utime and stime are 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * The main thread's scheduler figures (Linux schedstat): ns spent running and ns spent runnable but
 * waiting for a core (other processes on the machine), so a slow server can be told from a starved one.
 */
export function mainThreadSched(pid: number): { runNs: number; waitNs: number } {
  const [run, wait] = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, "utf8").trim().split(" ").map(
    Number,
  );
  return { runNs: run, waitNs: wait };
}

/** The main thread's state letter: R running or runnable, S sleeping (idle in the event loop), D in I/O. */
export function mainThreadState(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/task/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
}

/** The 1, 5 and 15 minute load averages: other work on the machine shows here. */
export function loadAverage(): string {
  return readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
}

/** The machine line of the report: cores, memory, kernel. */
export function machine(): string {
  const mem = /MemTotal:\s+(\d+)/.exec(readFileSync("/proc/meminfo", "utf8"));
  const gb = mem ? (Number(mem[1]) / 1024 / 1024).toFixed(1) : "?";
  const kernel = readFileSync("/proc/sys/kernel/osrelease", "utf8").trim();
  return `nproc ${navigator.hardwareConcurrency}, ${gb} GiB RAM, Linux ${kernel}`;
}

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

export const check = (name: string, ok: boolean, detail: string): Check => ({ name, ok, detail });

/** Prints each check and the verdict line; answers the exit code (1 on FAIL). */
export function verdict(script: string, checks: Check[]): number {
  for (const c of checks) console.log(`  [${c.ok ? "ok" : "FAIL"}] ${c.name}: ${c.detail}`);
  const failed = checks.filter((c) => !c.ok);
  console.log(`  ${new Date().toISOString()}, ${machine()}, load average ${loadAverage()}`);
  console.log(failed.length ? `FAIL ${script}: ${failed.map((c) => c.name).join("; ")}` : `PASS ${script}`);
  return failed.length ? 1 : 0;
}

export const fmtMs = (ms: number) => `${ms.toFixed(ms < 10 ? 1 : 0)} ms`;
