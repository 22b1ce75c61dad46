import assert from "node:assert/strict";
import { conflictRows, mineOnTop, same, theyChangedAny } from "./conflict.ts";

Deno.test("conflict - mine on top keeps their changes and mine", () => {
  const base = { discount: "0", quantity: "1", notes: "" };
  const theirs = { discount: "20", quantity: "1", notes: "" };
  const mine = { discount: "0", quantity: "2", notes: "" };
  assert.deepEqual(mineOnTop(base, mine, theirs), { discount: "20", quantity: "2", notes: "" });
  assert.deepEqual(conflictRows(base, mine, theirs, { discount: "Discount" }), [
    { key: "discount", label: "Discount", yours: "0", theirs: "20", clash: false },
    { key: "quantity", label: "Quantity", yours: "2", theirs: "1", clash: false },
  ]);
  assert.equal(theyChangedAny(base, theirs), true);
  assert.equal(theyChangedAny(base, base), false);
});

Deno.test("conflict - both changed one field: a clash, mine wins on top; pickers compare by id", () => {
  const base = { notes: "a", customer: { id: 1, name: "Acme" } };
  const theirs = { notes: "b", customer: { id: 2, name: "Beta" } };
  const mine = { notes: "c", customer: { id: 1, name: "Acme (renamed)" } };
  assert.equal(same(base.customer, mine.customer), true);
  const rows = conflictRows(base, mine, theirs);
  assert.deepEqual(rows.map((r) => [r.label, r.yours, r.theirs, r.clash]), [
    ["Notes", "c", "b", true],
    ["Customer", "Acme (renamed)", "Beta", false],
  ]);
  assert.deepEqual(mineOnTop(base, mine, theirs), { notes: "c", customer: { id: 2, name: "Beta" } });
});
