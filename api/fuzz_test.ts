import assert from "node:assert/strict";
import { withEnv } from "../scripts/testing/harness.ts";
import { AREAS, fuzzArea, fuzzedRoutes, SKIPPED } from "../scripts/testing/fuzz.ts";
import { writeRoutes } from "../scripts/testing/routes.ts";

Deno.test("fuzz - every write route of the route table is fuzzed by exactly one file, or listed as skipped", () =>
  withEnv((env) => {
    const names = Object.keys(AREAS);
    for (const r of writeRoutes(env.app)) {
      const key = `${r.method} ${r.path}`;
      const areas = names.filter((a) => fuzzedRoutes(env, a).some((f) => `${f.method} ${f.path}` === key));
      assert.equal(areas.length, SKIPPED.has(key) ? 0 : 1, `${key}: ${areas.join(", ") || "no area"}`);
    }
    return Promise.resolve();
  }));

// The API fuzzer over administration and pressure testing (the sales areas have their own files, so
// deno test --parallel spreads the load). Every write route of the route table under these paths is covered.
// FUZZ_SEED replays a run, FUZZ_REQUESTS changes the requests per route (default 1000).
Deno.test(
  "fuzz - administration and pressure testing: no hostile body or path id gets a 5xx",
  fuzzArea("administration and pressure testing", 12),
);
