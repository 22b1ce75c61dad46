import assert from "node:assert/strict";
import { until } from "../../scripts/testing/until.ts";
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
  await until(() => calls >= 3, "three runs at 20 ms", 10_000);
  on.stop();
  const seen = calls;
  assert.equal(on.stats.runs, seen);
  assert.ok(on.stats.totalMs >= 2 * seen && on.stats.longestMs >= 2, JSON.stringify(on.stats));
  // While another trimmer at the same interval runs three times, the stopped one and the 0-second one do not.
  let witness = 0;
  const other = startMallocTrim(0.02, () => (witness++, 1));
  await until(() => witness >= 3, "three runs of another trimmer", 10_000);
  other.stop();
  off.stop();
  assert.equal(calls, seen, "no run after stop");
  assert.equal(off.stats.runs, 0);
});
