import assert from "node:assert/strict";
import {
  describe,
  fuzzedRoutes,
  fuzzRequests,
  fuzzRoutes,
  fuzzSeed,
  withFuzzEnv,
} from "../scripts/testing/fuzz.ts";
import { fuzzSamples } from "../scripts/testing/fuzz_samples.ts";
import { seedFuzzData } from "../scripts/testing/fuzz_seed.ts";
import { mulberry32 } from "../scripts/testing/fuzz_values.ts";

// The API fuzzer over the sales catalogue: items, taxes, categories, sub categories and templates.
// FUZZ_SEED replays a run, FUZZ_REQUESTS changes the requests per route (default 1000).
Deno.test("fuzz - sales catalogue: no hostile body or path id gets a 5xx", () =>
  withFuzzEnv(async (env) => {
    const seed = fuzzSeed();
    const data = await seedFuzzData(env);
    const routes = fuzzedRoutes(env, "sales catalogue");
    assert.ok(routes.length >= 14, `expected the sales catalogue write routes, got ${routes.length}`);
    const started = performance.now();
    const { failures, requests } = await fuzzRoutes(env, routes, fuzzSamples(data), mulberry32(seed));
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(
      `fuzz sales catalogue: ${routes.length} routes, ${requests} requests, ${seconds} s, seed ${seed}`,
    );
    assert.equal(requests, routes.length * fuzzRequests());
    assert.equal(failures.length, 0, `5xx answers (replay with FUZZ_SEED=${seed}):\n${describe(failures)}`);
  }));
