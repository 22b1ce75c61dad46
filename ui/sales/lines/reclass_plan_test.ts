import assert from "node:assert/strict";
import { planReclass, reclassQuantityProblem } from "./reclass_plan.ts";
import type { Line } from "./types.ts";

const line = (id: number, log: { quantity_in?: number; quantity_reclassed?: number }[]) =>
  ({
    id,
    inventory_log: log.map((e) => ({ quantity_in: 0, quantity_sold: 0, quantity_reclassed: 0, ...e })),
  }) as unknown as Line;

Deno.test("reclass plan - each row's hint, what is left and what it needs", () => {
  const plan = planReclass(
    [line(1, []), line(2, [{ quantity_in: 2 }, { quantity_reclassed: 2 }]), line(3, [{ quantity_in: 3 }])],
    { 3: { quantity: "2", to: null, date: "" } },
  );
  assert.deepEqual(plan.map((p) => p.hint), [
    "Check In Before Reclassing",
    "No Quantity Left to Reclass",
    undefined,
  ]);
  assert.equal(plan[2].left, 3);
  assert.equal(plan[2].given, true);
  assert.deepEqual(plan[2].issues, { quantity: undefined, to: "Required" });
  assert.equal(reclassQuantityProblem("4", 3), "Checked in: 3");
  assert.equal(reclassQuantityProblem("1.5", 3), "Must be a whole number");
  assert.equal(reclassQuantityProblem("0", 3), "Must be positive");
  assert.equal(reclassQuantityProblem(" ", 3), undefined, "blank: not reclassed");
});
