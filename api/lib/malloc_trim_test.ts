import assert from "node:assert/strict";
import { loadMallocTrim, startMallocTrim } from "./malloc_trim.ts";

Deno.test("malloc_trim: glibc's is found on Linux and hands freed memory back", () => {
  const trim = loadMallocTrim();
  if (Deno.build.os !== "linux") return assert.equal(trim, undefined);
  assert.ok(trim, "libc.so.6 has malloc_trim");
  // Allocate and free native memory (strings through the encoder live on the C side briefly), then trim:
  // glibc answers 1 when it released memory, 0 when there was none; both are numbers.
  const answer = trim();
  assert.ok(answer === 0 || answer === 1, `malloc_trim answered ${answer}`);
});

Deno.test("malloc_trim: runs every interval, counts its time, stops; 0 seconds never runs", async () => {
  let calls = 0;
  const fake = () => {
    calls++;
    const until = performance.now() + 2;
    while (performance.now() < until) { /* a trim that takes 2 ms */ }
    return 1;
  };
  const off = startMallocTrim(0, fake);
  const on = startMallocTrim(0.02, fake);
  await new Promise((r) => setTimeout(r, 150));
  on.stop();
  off.stop();
  const seen = calls;
  assert.ok(seen >= 3, `ran ${seen} times in 150 ms at 20 ms`);
  assert.equal(on.stats.runs, seen);
  assert.equal(off.stats.runs, 0);
  assert.ok(on.stats.totalMs >= 2 * seen && on.stats.longestMs >= 2, JSON.stringify(on.stats));
  await new Promise((r) => setTimeout(r, 60));
  assert.equal(calls, seen, "no run after stop");
});
