import { fuzzArea } from "../scripts/testing/fuzz.ts";

// The API fuzzer over the sales catalogue: items, taxes, categories, sub categories and templates.
// FUZZ_SEED replays a run, FUZZ_REQUESTS changes the requests per route (default 1000).
Deno.test("fuzz - sales catalogue: no hostile body or path id gets a 5xx", fuzzArea("sales catalogue", 14));
