/// <reference lib="deno.worker" />
/**
 * The load loop of the benchmark, run as a worker (see `load` in lib.ts): `concurrency` loops, each one
 * request at a time over its own keep-alive connection, cycling through the given requests. Every body
 * is read to its end, so a request is timed until the client has all of it.
 */
import type { LoadResult, LoadSpec } from "./lib.ts";

let stopped = false;

self.onmessage = async (e: MessageEvent<LoadSpec | "stop">) => {
  // A second message ends an open-ended load (`startLoad` in lib.ts) after the requests in flight.
  if (e.data === "stop") {
    stopped = true;
    return;
  }
  const spec = e.data;
  // One HTTP client per loop: a connection each, as N separate browsers or API users would have.
  const clients = Array.from(
    { length: spec.concurrency },
    () => Deno.createHttpClient({ poolMaxIdlePerHost: 1 }),
  );
  const out: LoadResult = { latencies: [], ends: [], ok: 0, errors: 0, statuses: {}, elapsedMs: 0 };
  let next = 0;
  const one = async (client: Deno.HttpClient, record: boolean, t0: number) => {
    const r = spec.requests[next++ % spec.requests.length];
    const start = performance.now();
    let status = "error";
    try {
      const res = await fetch(r.url, { method: r.method ?? "GET", headers: r.headers, body: r.body, client });
      await res.arrayBuffer();
      status = String(res.status);
      if (!res.ok && !out.firstError) out.firstError = `${r.method ?? "GET"} ${r.url}: ${res.status}`;
    } catch (err) {
      if (!out.firstError) out.firstError = `${r.url}: ${err}`;
    }
    if (!record) return;
    const end = performance.now();
    out.latencies.push(end - start);
    out.ends.push(end - t0);
    out.statuses[status] = (out.statuses[status] ?? 0) + 1;
    if (status.startsWith("2")) out.ok++;
    else out.errors++;
  };
  const warmup = spec.warmup ?? 0;
  await Promise.all(clients.map(async (c) => {
    for (let i = 0; i < warmup; i++) await one(c, false, 0);
  }));
  const t0 = performance.now();
  let done = 0;
  // Stops at `count` requests or after `durationMs` (but never before 3 when both are given).
  const more = () =>
    !stopped && (spec.count === undefined || done < spec.count) &&
    (spec.durationMs === undefined || (spec.count !== undefined && done < 3) ||
      performance.now() - t0 < spec.durationMs);
  await Promise.all(clients.map(async (c) => {
    while (more()) {
      done++;
      await one(c, true, t0);
    }
  }));
  out.elapsedMs = performance.now() - t0;
  for (const c of clients) c.close();
  self.postMessage(out);
};
