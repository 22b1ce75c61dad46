/**
 * Shared pieces of the benchmark (issue 10, docs/performance.md): the cached data directory, the real
 * server as a child process on a free port, sign-in, a load loop that runs in a worker (its own thread
 * and event loop, so timing the server never competes with the bench's own bookkeeping on one loop),
 * percentiles, RSS from /proc, and the result rows every measure returns.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";

import { DENO, freePort, parseFlags, ROOT, ServerProcess, sleep } from "../testing/server_process.ts";
export { DENO, freePort, parseFlags, ROOT, sleep };
/** The Deno running this script (node_modules/.bin/deno is the binary itself). */
/** Built once, kept across runs (`.cache/` is gitignored): rebuilding the large tenants takes minutes. */
export const CACHE = join(ROOT, ".cache/bench");
export const DATA_DIR = join(CACHE, "data");
export const PASSWORD = "bench-password";

/** The two large tenants, each reached on its own loopback address (see `Server.url`). */
export const PT = { slug: "pt", host: "127.0.0.10", email: "admin@pt.example" };
export const SALES = { slug: "sales", host: "127.0.0.11", email: "admin@sales.example" };
export type BenchTenant = typeof PT;

export const tenantFile = (dataDir: string, slug: string) => join(dataDir, "tenants", `${slug}.db`);

export interface Options {
  quick: boolean;
  only: Set<string> | undefined;
}

/** One figure of a measure: what was measured, its floor (if any), the budget and the verdict. */
export interface Row {
  measure: string;
  figure: string;
  floor?: string;
  budget: string;
  pass: boolean | undefined;
  note?: string;
}

export interface Section {
  title: string;
  rows: Row[];
  /** facts worth keeping with the table (counts, settings, causes seen) */
  notes: string[];
}

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

export interface Stats {
  n: number;
  p50: number;
  p95: number;
  max: number;
}

export function stats(values: number[]): Stats {
  const s = [...values].sort((a, b) => a - b);
  return { n: s.length, p50: percentile(s, 50), p95: percentile(s, 95), max: s[s.length - 1] ?? NaN };
}

export const ms = (
  v: number,
) => (Number.isFinite(v) ? (v < 10 ? v.toFixed(2) : v.toFixed(1)) + " ms" : "n/a");
export const mb = (kb: number) => (kb / 1024).toFixed(1) + " MB";

/** VmRSS and VmHWM (peak) of a process, in kB, from /proc/<pid>/status. */
export function rssOf(pid: number): { rss: number; hwm: number } {
  const text = Deno.readTextFileSync(`/proc/${pid}/status`);
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)`, "m").exec(text)?.[1] ?? NaN);
  return { rss: kb("VmRSS"), hwm: kb("VmHWM") };
}

/** The tenant CLI as a child process, as an operator runs it; `env` on top of DATA_DIR (a libSQL server's). */
export async function cli(
  dataDir: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<string> {
  const out = await new Deno.Command(DENO, {
    args: ["run", "-A", join(ROOT, "scripts/tenant.ts"), ...args],
    cwd: ROOT,
    env: { DATA_DIR: dataDir, SCRYPT_N: "1024", ...env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  if (out.code !== 0) {
    throw new Error(`tenant ${args[0]} failed: ${dec.decode(out.stderr)}${dec.decode(out.stdout)}`);
  }
  return dec.decode(out.stdout);
}

/** Servers running now, stopped by `stopAll` when the bench is interrupted. */
const live = new Set<Server>();

export async function stopAll() {
  await Promise.all([...live].map((s) => s.stop()));
}

/** The server as a child process on a free port, stopped by `stopAll` if the bench is interrupted. */
export class Server extends ServerProcess {
  constructor(dataDir: string, extraEnv: Record<string, string> = {}) {
    super(dataDir, freePort(), extraEnv);
  }

  override start(timeoutMs = 60_000): Promise<number> {
    live.add(this);
    return super.start(timeoutMs);
  }

  override async stop() {
    live.delete(this);
    await super.stop();
  }
}

/** Signs in with the form the browser posts; returns the Bearer token. */
export async function login(base: string, email: string, password = PASSWORD): Promise<string> {
  const res = await fetch(`${base}/api/login/access-token`, {
    method: "POST",
    body: new URLSearchParams({ username: email, password }),
  });
  const body = await res.json();
  if (res.status !== 200 || !body.access_token) {
    throw new Error(`login ${email} at ${base}: ${res.status} ${JSON.stringify(body)}`);
  }
  return body.access_token;
}

export async function getJson(url: string, token: string): Promise<any> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

export interface LoadRequest {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface LoadSpec {
  requests: LoadRequest[];
  /** concurrent connections, each a loop of one request at a time */
  concurrency: number;
  /** stop after this many requests in all ... */
  count?: number;
  /** ... or after this long */
  durationMs?: number;
  /** requests per connection before timing starts (connections open, caches warm) */
  warmup?: number;
}

export interface LoadResult {
  /** per-request latency in ms, in completion order */
  latencies: number[];
  /** completion time of each request, ms since timing started */
  ends: number[];
  ok: number;
  errors: number;
  statuses: Record<string, number>;
  elapsedMs: number;
  firstError?: string;
}

/**
 * Runs a load in a worker: its own thread and event loop, so the bench's own work (floors, reading RSS,
 * a download running alongside) never queues behind the requests being timed, nor the reverse.
 */
export function load(spec: LoadSpec): Promise<LoadResult> {
  const worker = new Worker(new URL("./load_worker.ts", import.meta.url).href, { type: "module" });
  return new Promise<LoadResult>((resolve, reject) => {
    worker.onmessage = (e) => {
      worker.terminate();
      resolve(e.data as LoadResult);
    };
    worker.onerror = (e) => {
      e.preventDefault();
      worker.terminate();
      reject(new Error(`load worker: ${e.message}`));
    };
    worker.postMessage(spec);
  });
}

/** A load that runs until `stop()` (give neither count nor durationMs), e.g. probes during a download. */
export function startLoad(spec: LoadSpec): { stop: () => Promise<LoadResult> } {
  const worker = new Worker(new URL("./load_worker.ts", import.meta.url).href, { type: "module" });
  const result = new Promise<LoadResult>((resolve, reject) => {
    worker.onmessage = (e) => {
      worker.terminate();
      resolve(e.data as LoadResult);
    };
    worker.onerror = (e) => {
      e.preventDefault();
      worker.terminate();
      reject(new Error(`load worker: ${e.message}`));
    };
  });
  worker.postMessage(spec);
  return {
    stop: () => {
      worker.postMessage("stop");
      return result;
    },
  };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Latency of one connection making `n` requests in turn, after a short warm-up. */
export async function latency(
  url: string,
  token: string,
  n: number,
): Promise<Stats & { errors: number; err?: string }> {
  const r = await load({ requests: [{ url, headers: bearer(token) }], concurrency: 1, count: n, warmup: 5 });
  return { ...stats(r.latencies), errors: r.errors, err: r.firstError };
}

/** Requests per second over `durationMs` at `concurrency` connections. */
export async function throughput(
  requests: LoadRequest[],
  concurrency: number,
  durationMs: number,
): Promise<{ rps: number; errors: number; p95: number; err?: string }> {
  const r = await load({ requests, concurrency, durationMs, warmup: 1 });
  return {
    rps: r.ok / (r.elapsedMs / 1000),
    errors: r.errors,
    p95: stats(r.latencies).p95,
    err: r.firstError,
  };
}

/** Times `fn` `n` times in turn after `warm` untimed runs. */
export async function timeIt(fn: () => Promise<unknown>, n: number, warm = 5): Promise<Stats> {
  for (let i = 0; i < warm; i++) await fn();
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn();
    out.push(performance.now() - t);
  }
  return stats(out);
}

export function verdict(pass: boolean | undefined) {
  return pass === undefined ? "n/a" : pass ? "PASS" : "FAIL";
}

export function hasCache(): boolean {
  return existsSync(join(DATA_DIR, "catalog.db"));
}

/**
 * The bare Hono server (scripts/bench/bare_server.ts) in its own process, as the real server runs: the floor of
 * the fixed-cost measure (`/x`) and of the lists' page 1 over HTTP (`/floor/{key}`).
 */
export async function startBare(): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = freePort();
  const proc = new Deno.Command(DENO, {
    args: ["run", "-A", join(ROOT, "scripts/bench/bare_server.ts")],
    cwd: ROOT,
    env: { PORT: String(port) },
    stdout: "null",
    stderr: "null",
  }).spawn();
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    try {
      proc.kill("SIGTERM");
    } catch { /* gone */ }
    await proc.status;
  };
  for (let i = 0; i < 400; i++) {
    try {
      const r = await fetch(url + "/healthz");
      await r.body?.cancel();
      if (r.ok) return { url, stop };
    } catch { /* starting */ }
    await sleep(25);
  }
  await stop();
  throw new Error("bare server did not start");
}
