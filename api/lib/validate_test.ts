import assert from "node:assert/strict";
import { z } from "zod";
import { AppError } from "../../lib/errors.ts";
import {
  CONTROL_MESSAGE,
  customObject,
  duration,
  id,
  inputProblems,
  MAX_DEPTH,
  MAX_DURATION,
  MAX_MONEY,
  MAX_QUANTITY,
  money,
  NESTING_MESSAGE,
  parse,
  percent,
  quantity,
} from "./validate.ts";

const messages = (schema: z.ZodType, v: unknown) => {
  const r = schema.safeParse(v);
  return r.success ? [] : r.error.issues.map((i) => i.message);
};

Deno.test("money - 10^9 either way; min 0 for catalogue rates; huge, NaN and Infinity refused", () => {
  assert.deepEqual(messages(money(), MAX_MONEY), []);
  assert.deepEqual(messages(money(), -MAX_MONEY), []);
  assert.deepEqual(messages(money(), 1e308), ["Must be at most 1000000000"]);
  assert.deepEqual(messages(money(), -1e308), ["Must be at least -1000000000"]);
  assert.deepEqual(messages(money({ min: 0 }), -0.01), ["Must be at least 0"]);
  for (const bad of [NaN, Infinity, -Infinity, "12", null]) {
    assert.deepEqual(messages(money(), bad), ["Must be a number"], String(bad));
  }
});

Deno.test("percent - 0 to 100 (or the given max), with one sentence for both ends", () => {
  assert.deepEqual(messages(percent(), 100), []);
  assert.deepEqual(messages(percent(), 101), ["Must be between 0 and 100"]);
  assert.deepEqual(messages(percent(), -1), ["Must be between 0 and 100"]);
  assert.deepEqual(messages(percent({ max: 1000 }), 250), []);
});

Deno.test("quantity and duration - non-negative, capped; quantities whole unless told", () => {
  assert.deepEqual(messages(quantity(), MAX_QUANTITY), []);
  assert.deepEqual(messages(quantity(), MAX_QUANTITY + 1), [`Must be at most ${MAX_QUANTITY}`]);
  assert.deepEqual(messages(quantity(), 1.5), ["Must be a whole number"]);
  assert.deepEqual(messages(quantity({ whole: false }), 1.5), []);
  assert.deepEqual(messages(quantity(), -1), ["Must be at least 0"]);
  assert.deepEqual(messages(duration(), -0.5), ["Must be at least 0"]);
  assert.deepEqual(messages(duration(), MAX_DURATION + 1), [`Must be at most ${MAX_DURATION}`]);
});

Deno.test("id - positive whole numbers up to 2^31-1, every failure in the given words", () => {
  assert.deepEqual(messages(id("Required"), 7), []);
  for (const bad of [0, -3, 1.5, 2 ** 31, 1e300, "7", null]) {
    assert.deepEqual(messages(id("Required"), bad), ["Required"], String(bad));
  }
  assert.deepEqual(messages(id("Required", { coerce: true }), "42"), []);
});

Deno.test("inputProblems - control characters anywhere are named by path; tab, CR and LF pass", () => {
  assert.deepEqual(inputProblems({ notes: "line 1\r\n\tline 2", n: 3, ok: true, none: null }), []);
  assert.deepEqual(inputProblems({ item_number: "\u0000" }), [{
    path: "item_number",
    message: CONTROL_MESSAGE,
  }]);
  assert.deepEqual(inputProblems([{ a: ["x", "y\u001f"] }]), [{ path: "0.a.1", message: CONTROL_MESSAGE }]);
  assert.deepEqual(inputProblems({ custom: { "k\u0007": 1 } }), [{
    path: "custom.k\uFFFD",
    message: CONTROL_MESSAGE,
  }]);
  for (const c of ["\u0008", "\u000b", "\u000c", "\u000e", "\u007f"]) {
    assert.equal(inputProblems(`a${c}b`).length, 1, JSON.stringify(c));
  }
  assert.deepEqual(inputProblems("\u0001"), [{ path: "body", message: CONTROL_MESSAGE }]);
  assert.deepEqual(inputProblems({ a: "x\ud800" }), [{ path: "a", message: "Text must be valid Unicode" }]);
  assert.deepEqual(inputProblems({ a: "\ud83d\ude00" }), []);
});

Deno.test("inputProblems - nesting past MAX_DEPTH is refused without recursion", () => {
  let deep: unknown = "leaf";
  for (let i = 0; i < 100_000; i++) deep = [deep];
  assert.equal(inputProblems(deep)[0].message, NESTING_MESSAGE);
  let fine: unknown = 1;
  for (let i = 0; i < MAX_DEPTH - 1; i++) fine = { a: fine };
  assert.deepEqual(inputProblems(fine), []);
});

Deno.test("parse - refuses control characters before the schema (a NUL is not an empty string)", () => {
  const schema = z.object({ item_number: z.string().trim().min(1, "Required") });
  assert.throws(() => parse(schema, { item_number: "A\u0000" }), (e: unknown) => {
    assert.ok(e instanceof AppError);
    assert.equal(e.status, 422);
    assert.equal(e.message, `item_number: ${CONTROL_MESSAGE}`);
    return true;
  });
  assert.deepEqual(parse(schema, { item_number: " A " }), { item_number: "A" });
});

Deno.test("customObject - an object of at most 20000 characters of JSON", () => {
  assert.deepEqual(messages(customObject(), { hide: true }), []);
  assert.deepEqual(messages(customObject(), { big: "x".repeat(20_001) }), ["At most 20000 characters"]);
  assert.deepEqual(messages(customObject(), [1]), ["Must be an object"]);
});
