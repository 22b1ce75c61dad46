import assert from "node:assert/strict";
import { withEnv } from "../scripts/testing/harness.ts";
import {
  AREAS,
  describe,
  fuzzedRoutes,
  fuzzRequests,
  fuzzRoutes,
  fuzzSeed,
  SKIPPED,
  withFuzzEnv,
} from "../scripts/testing/fuzz.ts";
import { fuzzSamples } from "../scripts/testing/fuzz_samples.ts";
import { seedFuzzData } from "../scripts/testing/fuzz_seed.ts";
import { mulberry32 } from "../scripts/testing/fuzz_values.ts";
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
Deno.test("fuzz - administration and pressure testing: no hostile body or path id gets a 5xx", () =>
  withFuzzEnv(async (env) => {
    const seed = fuzzSeed();
    const data = await seedFuzzData(env);
    const routes = fuzzedRoutes(env, "administration and pressure testing");
    assert.ok(
      routes.length >= 12,
      `expected the administration and pressure testing write routes, got ${routes.length}`,
    );
    const started = performance.now();
    const { failures, requests } = await fuzzRoutes(env, routes, fuzzSamples(data), mulberry32(seed));
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(
      `fuzz administration and pressure testing: ${routes.length} routes, ${requests} requests, ${seconds} s, seed ${seed}`,
    );
    assert.equal(requests, routes.length * fuzzRequests());
    assert.equal(failures.length, 0, `5xx answers (replay with FUZZ_SEED=${seed}):\n${describe(failures)}`);
  }));
