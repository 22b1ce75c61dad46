import { fuzzArea } from "../scripts/testing/fuzz.ts";

// The API fuzzer over stock: inventory saves, quantities, transfers and batches, check-in and reclass.
// FUZZ_SEED replays a run, FUZZ_REQUESTS changes the requests per route (default 1000).
Deno.test("fuzz - sales stock: no hostile body or path id gets a 5xx", fuzzArea("sales stock", 8));
