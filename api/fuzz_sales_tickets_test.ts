import { fuzzArea } from "../scripts/testing/fuzz.ts";

// The API fuzzer over tickets: tickets, lines, reorder, transfer, bill back and rejections.
// FUZZ_SEED replays a run, FUZZ_REQUESTS changes the requests per route (default 1000).
Deno.test("fuzz - sales tickets: no hostile body or path id gets a 5xx", fuzzArea("sales tickets", 10));
