import assert from "node:assert/strict";
import { RecurringCache } from "./recurring.ts";

Deno.test("RecurringCache: an object offered once is never stored; offered again soon, it is", () => {
  const cache = new RecurringCache<object, string>(4);
  const constant = {};
  cache.offer(constant, "a");
  assert.equal(cache.get(constant), undefined, "seen once: not stored");
  cache.offer({}, "x");
  cache.offer(constant, "a");
  assert.equal(cache.get(constant), "a", "seen again: stored");
  assert.equal(cache.has(constant), true);
});

Deno.test("RecurringCache: one-off objects never enter the store, and the ring forgets them", () => {
  const cache = new RecurringCache<object, number>(4);
  const once = {};
  cache.offer(once, 1);
  // Four other offers push it out of the ring: offered again, it counts as new.
  for (let i = 0; i < 4; i++) cache.offer({}, i);
  cache.offer(once, 1);
  assert.equal(cache.get(once), undefined);
  cache.offer(once, 1);
  assert.equal(cache.get(once), 1);
});
