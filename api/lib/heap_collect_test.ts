import assert from "node:assert/strict";
import { collectAfterClosing } from "./heap_collect.ts";

Deno.test("heap collection - none without --expose-gc; with it, once enough tenants were closed, then not before the interval", async () => {
  if (typeof (globalThis as { gc?: unknown }).gc !== "function") {
    assert.equal(collectAfterClosing(), undefined);
  }
  // The server's flag, in a process of its own: the collection is really asked of V8.
  const script = `
    import { collectAfterClosing } from ${JSON.stringify(new URL("./heap_collect.ts", import.meta.url).href)};
    const collect = collectAfterClosing({ minClosed: 8, minIntervalMs: 60_000 });
    console.log(JSON.stringify([typeof collect, collect(5), collect(3), collect(20)]));
  `;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--v8-flags=--expose-gc", script],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  assert.deepEqual(JSON.parse(new TextDecoder().decode(out.stdout)), ["function", false, true, false]);
});
