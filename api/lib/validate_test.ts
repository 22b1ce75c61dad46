import assert from "node:assert/strict";
import { z } from "zod";
import { AppError } from "../../lib/errors.ts";
import {
  CONTROL_MESSAGE,
  customObject,
  DECIMALS,
  directionMessage,
  duration,
  id,
  inputProblems,
  invisibleMessage,
  joinerMessage,
  markMessage,
  MAX_DEPTH,
  MAX_DURATION,
  MAX_MONEY,
  MAX_QUANTITY,
  measurement,
  money,
  NESTING_MESSAGE,
  parse,
  percent,
  quantity,
  textProblem,
  unitPrice,
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

Deno.test("textProblem - direction overrides, separators and invisible characters are refused in every kind of text", () => {
  const cases: [string, string][] = [
    ["Acme\u202E Ltd", "Direction-changing character U+202E is not allowed"],
    ["\u202Aa", "Direction-changing character U+202A is not allowed"],
    ["a\u2066b\u2069", "Direction-changing character U+2066 is not allowed"],
    ["a\u2028b", "Line or paragraph separator U+2028 is not allowed (use a line break)"],
    ["a\u2029b", "Line or paragraph separator U+2029 is not allowed (use a line break)"],
    ["Ac\u200Bme", "Invisible character U+200B is not allowed"],
    ["Ac\u2060me", "Invisible character U+2060 is not allowed"],
    ["\uFEFFAcme", "Invisible character U+FEFF is not allowed"],
    ["Ac\u180Eme", "Invisible character U+180E is not allowed"],
    ["Ac\u00ADme", "Invisible character U+00AD is not allowed"],
    ["\u3164", "Invisible character U+3164 is not allowed"],
    ["a\u2062b", "Invisible character U+2062 is not allowed"],
    ["a\u{E0001}", "Invisible character U+E0001 is not allowed"],
  ];
  for (const [text, message] of cases) {
    for (const kind of ["name", "free"] as const) {
      assert.equal(textProblem(text, kind), message, JSON.stringify(text));
    }
  }
  // Passwords are never shown: only the control and Unicode checks, so an older password still signs in.
  assert.equal(textProblem("pass\u200Bword", "secret"), undefined);
  assert.equal(textProblem("pass\u0000word", "secret"), CONTROL_MESSAGE);
});

Deno.test("textProblem - names keep what scripts and emoji need; joiners and marks that join nothing are refused", () => {
  const fine = [
    "Acme Ltd",
    "می\u200Cخواهم", // Persian: ZWNJ between Arabic letters
    "क्\u200Dष", // Devanagari: ZWJ after a virama
    "👨\u200D👩\u200D👧", // an emoji family
    "❤\uFE0F",
    "1\uFE0F\u20E3", // a keycap
    "🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}", // the flag of Scotland (tags)
    "葛\u{E0100}", // an ideographic variation sequence
    "שלום\u200E Inc.", // LRM in text with Hebrew
    "e\u0301", // a combining accent is visible
    "\u0600١٢", // an Arabic number sign prints
  ];
  for (const text of fine) assert.equal(textProblem(text), undefined, JSON.stringify(text));
  assert.equal(textProblem("Acme\u200D"), joinerMessage("\u200D"));
  assert.equal(textProblem("Ac\u200Cme"), joinerMessage("\u200C"));
  assert.equal(textProblem("\u200Dمی"), joinerMessage("\u200D"));
  assert.equal(textProblem("Acme\uFE0F"), joinerMessage("\uFE0F"));
  assert.equal(textProblem("Acme\u200E"), markMessage("\u200E"));
  assert.equal(textProblem("\u200FAcme"), markMessage("\u200F"));
  // Free text (notes, descriptions) may hold them anywhere.
  for (const text of ["Acme\u200D", "Ac\u200Cme", "Acme\u200E", "Acme\uFE0F"]) {
    assert.equal(textProblem(text, "free"), undefined, JSON.stringify(text));
  }
});

Deno.test("inputProblems - the kind of text follows the key: notes, descriptions, addresses and custom are free", () => {
  const zwj = "Acme\u200D";
  assert.deepEqual(
    inputProblems({
      name: zwj,
      serial_numbers: [zwj],
      notes: zwj,
      item_description: zwj,
      comments: zwj,
      custom: { address_line_1: zwj, anything: [zwj] },
      password: "a\u200Bb",
      new_password: "a\u200Bb",
    }).map((p) => p.path).sort(),
    ["name", "serial_numbers.0"],
  );
  // Keys are checked too (as free text), and every kind refuses an override.
  assert.deepEqual(inputProblems({ "k\u202E": 1 }), [{
    path: "k\u202E",
    message: directionMessage("\u202E"),
  }]);
  assert.deepEqual(inputProblems({ notes: "x\u202Ey" }), [{
    path: "notes",
    message: directionMessage("\u202E"),
  }]);
  assert.deepEqual(inputProblems({ notes: "x\u200By" }), [{
    path: "notes",
    message: invisibleMessage("\u200B"),
  }]);
});

Deno.test("decimals - each kind of figure holds its places; 1e-30 and long fractions are refused with the field's words", () => {
  assert.deepEqual(messages(unitPrice({ label: "Price" }), 12.3456), []);
  assert.deepEqual(messages(unitPrice({ label: "Price" }), 0.1 + 0.2), []);
  assert.deepEqual(messages(unitPrice({ label: "Price" }), 12.34567), [
    "Price may have at most 4 decimal places",
  ]);
  assert.deepEqual(messages(unitPrice({ label: "Rate", min: 0 }), 1e-30), [
    "Rate may have at most 4 decimal places",
  ]);
  assert.deepEqual(messages(money({ min: 0, label: "Purchase Price" }), 1e-30), [
    "Purchase Price may have at most 4 decimal places",
  ]);
  assert.deepEqual(messages(money(), -0.00001), ["Must have at most 4 decimal places"]);
  assert.deepEqual(messages(percent(), 8.875), []);
  assert.deepEqual(messages(percent(), 8.8755), ["Must have at most 3 decimal places"]);
  assert.deepEqual(messages(percent({ max: 1000 }), 1e-30), ["Must have at most 3 decimal places"]);
  assert.deepEqual(messages(quantity({ whole: false }), 12.5), []);
  assert.deepEqual(messages(quantity({ whole: false }), 12.125), []);
  assert.deepEqual(messages(quantity({ whole: false }), 12.12345), ["Must have at most 4 decimal places"]);
  assert.deepEqual(messages(quantity({ whole: false }), 1e-30), ["Must have at most 4 decimal places"]);
  assert.deepEqual(messages(duration(), 2.25), []);
  assert.deepEqual(messages(duration(), 1 / 3), ["Must have at most 2 decimal places"]);
  assert.deepEqual(messages(measurement(), 0.3125), []);
  assert.deepEqual(messages(measurement(), 0.31255), ["Must have at most 4 decimal places"]);
  // Zero and whole numbers always pass; the range is still checked first.
  for (const schema of [money(), percent(), duration(), measurement(), quantity({ whole: false })]) {
    assert.deepEqual(messages(schema, 0), []);
    assert.deepEqual(messages(schema, 7), []);
  }
  assert.deepEqual(messages(percent(), 100.0001), ["Must be between 0 and 100"]);
  assert.equal(DECIMALS.money, 4);
});
