import assert from "node:assert/strict";
import { InFlight, type StallReport, watchStalls } from "./stall_watch.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

Deno.test("stall watch - a long synchronous turn is logged with the requests in progress, oldest first", async () => {
  const inflight = new InFlight();
  const seen: StallReport[] = [];
  const stop = watchStalls(inflight, 100, (r) => seen.push(r));
  try {
    inflight.begin("GET", "/api/sales/sales/download", "acme.example.com");
    await sleep(5);
    const done = inflight.begin("GET", "/api/pt/jobs");
    inflight.begin("POST", "/api/sales/sales");
    inflight.end(done);
    await sleep(60); // quiet turns: nothing logged
    assert.equal(seen.length, 0);
    const until = performance.now() + 250;
    while (performance.now() < until) { /* one turn that holds the thread */ }
    await sleep(50);
    assert.equal(seen.length, 1);
    assert.ok(seen[0].stall_ms >= 150, `stall of ${seen[0].stall_ms} ms`);
    assert.equal(seen[0].in_flight, 2);
    assert.deepEqual(seen[0].requests.map((r) => [r.method, r.path, r.host]), [
      ["GET", "/api/sales/sales/download", "acme.example.com"],
      ["POST", "/api/sales/sales", undefined],
    ]);
    assert.equal(inflight.stats.stalls, 1);
    assert.ok(inflight.stats.longestMs >= 150);
  } finally {
    stop();
  }
});

Deno.test("stall watch - threshold 0 is off", () => {
  const stop = watchStalls(new InFlight(), 0, () => assert.fail("no watch"));
  stop();
});
