import assert from "node:assert/strict";
import { withEnv } from "../../scripts/testing/harness.ts";
import { readFileSync } from "node:fs";
import { DIST, readManifest } from "../../scripts/bench/page_js.ts";

// Reads dist/ (`npm run build`, which `npm test` runs first).
Deno.test("service worker - /sw.js is the built worker after every file the inspection page may load, never cached", () =>
  withEnv(async (env) => {
    const res = await env.request("/sw.js");
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^text\/javascript/);
    assert.equal(res.headers.get("cache-control"), "no-cache");
    const code = await res.text();
    const precache: string[] = JSON.parse(/^const PRECACHE = (.*);$/m.exec(code)![1]);
    const manifest = readManifest();
    const file = (src: string) => "/" + manifest[src].file;
    // What the page loads at start, and the dialogs it opens later (loaded on demand, needed offline).
    for (
      const src of [
        "ui/client.ts",
        "ui/pt/inspections/islands/InspectionsTable.tsx",
        "ui/pt/inspections/InspectionForm.tsx",
        "ui/pt/inspections/BatchForm.tsx",
        "ui/offline/queue.ts",
        "ui/pt/inspections/QueuedTable.tsx",
      ]
    ) {
      assert.ok(precache.includes(file(src)), src);
    }
    assert.ok(precache.includes("/" + manifest["ui/styles.css"].file));
    assert.match(code, /^const VERSION = "[0-9a-f]{16}";$/m);
    assert.ok(code.endsWith(readFileSync(`${DIST}/${manifest["ui/offline/sw.ts"].file}`, "utf8")));
    // The same script on any host: it holds no tenant's data.
    assert.equal(await (await env.request("/sw.js", { host: "elsewhere.test" })).text(), code);
  }));
