import assert from "node:assert/strict";
import { todayStart } from "./save_fields.ts";

Deno.test("a new line's default start - the start of today on the company's clock, kept only while today lasts", () => {
  const chicago = "America/Chicago"; // UTC-6 in January
  const before = Date.parse("2026-01-15T05:59:59Z"); // 23:59:59 on the 14th in Chicago
  const after = Date.parse("2026-01-15T06:00:00Z"); // midnight of the 15th
  assert.equal(todayStart(chicago, before), "2026-01-14T06:00:00Z");
  assert.equal(
    todayStart(chicago, before - 3_600_000),
    "2026-01-14T06:00:00Z",
    "the same day, from the kept one",
  );
  assert.equal(todayStart(chicago, after), "2026-01-15T06:00:00Z", "a new day is worked out again");
  assert.equal(todayStart(chicago, before), "2026-01-14T06:00:00Z", "and an earlier instant too");
  // Each zone its own; a change of daylight saving time moves the start (Chicago is UTC-5 in July).
  assert.equal(todayStart("UTC", after), "2026-01-15T00:00:00Z");
  assert.equal(todayStart(chicago, Date.parse("2026-07-04T12:00:00Z")), "2026-07-04T05:00:00Z");
});
