import assert from "node:assert/strict";
import { withEnv } from "../scripts/testing/harness.ts";

const TOKEN = "metrics-token-for-tests-0123";

function parse(text: string): Map<string, number> {
  const m = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (!line || line.startsWith("#")) continue;
    const at = line.lastIndexOf(" ");
    m.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return m;
}

Deno.test("metrics - Prometheus text with the metrics token: requests, latency histogram, tenants, queue, memory", () =>
  withEnv(async (env) => {
    assert.equal((await env.request("/metrics")).status, 401);
    // compared in constant time over hashes: a token one character short or long is refused as any other
    for (const near of [TOKEN.slice(0, -1), TOKEN + "x", TOKEN.toUpperCase()]) {
      const r = await env.request("/metrics", { headers: { authorization: `Bearer ${near}` } });
      assert.equal(r.status, 401, near);
      await r.body?.cancel();
    }
    const scrape = async () => {
      const r = await env.request("/metrics", { headers: { authorization: `Bearer ${TOKEN}` } });
      assert.equal(r.status, 200);
      assert.match(r.headers.get("content-type") ?? "", /^text\/plain; version=0\.0\.4/);
      return parse(await r.text());
    };
    const token = await env.login();
    const before = await scrape();
    for (let i = 0; i < 5; i++) {
      const r = await env.request("/api/companies?rowsPerPage=5", { token });
      assert.equal(r.status, 200);
      await r.body?.cancel();
    }
    const missing = await env.request("/api/companies/999999", { token });
    await missing.body?.cancel();
    const after = await scrape();
    const ok = (m: Map<string, number>) => m.get('http_requests_total{status="2xx"}') ?? 0;
    assert.ok(ok(after) - ok(before) >= 5, "the five list requests are counted");
    assert.ok((after.get('http_requests_total{status="4xx"}') ?? 0) >= 1);
    assert.equal(after.get("event_loop_stalls_total"), 0);
    assert.ok((after.get("event_loop_longest_stall_seconds") ?? -1) >= 0);
    // The test app does not start the periodic trim (api/main.ts does): its figures are there, at zero.
    assert.equal(after.get("malloc_trim_runs_total"), 0);
    assert.equal(after.get("malloc_trim_longest_seconds"), 0);
    const buckets = [...after].filter(([k]) => k.startsWith("http_request_duration_seconds_bucket"));
    assert.ok(buckets.length >= 5);
    for (let i = 1; i < buckets.length; i++) {
      assert.ok(buckets[i][1] >= buckets[i - 1][1], "cumulative buckets");
    }
    assert.equal(buckets.at(-1)![1], after.get("http_request_duration_seconds_count"));
    assert.ok(after.get("tenants_open")! >= 1);
    assert.equal(after.get("write_queue_depth"), 0);
    assert.equal(after.get("sqlite_checkpoints_failed_total"), 0);
    assert.ok(after.get("sqlite_connections_open")! >= 1, "the tenant's and the catalog's");
    assert.ok((after.get("sqlite_checkpoints_total") ?? -1) >= 0);
    assert.ok((after.get("deep_reads_total") ?? -1) >= 0);
    assert.equal(after.get("http_requests_waiting"), 0);
    assert.ok(after.get("process_heap_used_bytes")! > 1e6);
    assert.ok(after.get("process_resident_memory_bytes")! > after.get("process_heap_used_bytes")!);
  }, { METRICS_TOKEN: TOKEN }));

Deno.test("metrics - without a configured token /metrics does not exist", () =>
  withEnv(async (env) => {
    const r = await env.request("/metrics", { headers: { authorization: "Bearer anything-at-all-here" } });
    assert.equal(r.status, 404);
    await r.body?.cancel();
  }));
