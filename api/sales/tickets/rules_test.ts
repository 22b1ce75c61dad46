import assert from "node:assert/strict";
import {
  BLOCKED_UNTIL_HANDLED,
  hoursBetween,
  lineHandled,
  type LineMoney,
  lineTotals,
  notCheckedInOrSold,
  roundMoney,
  statusChoices,
  ticketComplete,
  ticketTotals,
  transitionProblem,
} from "./rules.ts";

const line = (over: Partial<LineMoney>): LineMoney => ({ quantity: 1, price: 0, duration: 1, ...over });
const close = (a: number, b: number) => assert.ok(Math.abs(a - b) < 1e-9, `${a} != ${b}`);

Deno.test("rules - line totals by hand: min-rate off and on, markup, discount, every tax", () => {
  const cases: [string, LineMoney, boolean, Partial<Record<string, number>>][] = [
    ["plain", line({ quantity: 2, price: 100, duration: 3 }), false, { base: 600, total: 600 }],
    [
      "markup, discount and three taxes",
      line({
        quantity: 2,
        price: 100,
        duration: 3,
        markup: 10,
        discount: 5,
        state_tax: 6.25,
        county_tax: 1,
        city_tax: 2,
      }),
      false,
      {
        base: 600,
        markup: 60,
        discount: 33,
        taxable: 627,
        state_tax: 39.1875,
        county_tax: 6.27,
        city_tax: 12.54,
        total: 684.9975,
      },
    ],
    [
      "min-rate off ignores the minimum",
      line({ quantity: 2, price: 50, duration: 2, minimum_rate: 150 }),
      false,
      { base: 200 },
    ],
    ["min-rate on, no extra days", line({ quantity: 2, price: 50, duration: 0, minimum_rate: 150 }), true, {
      base: 300,
    }],
    ["min-rate on, two extra days", line({ quantity: 2, price: 50, duration: 2, minimum_rate: 150 }), true, {
      base: 500,
    }],
    [
      "min-rate on without a minimum",
      line({ quantity: 3, price: 10, duration: 2, minimum_rate: null }),
      true,
      { base: 60 },
    ],
    [
      "min-rate on with taxes",
      line({ quantity: 1, price: 25, duration: 4, minimum_rate: 200, state_tax: 8.25 }),
      true,
      { base: 300, taxable: 300, state_tax: 24.75, total: 324.75 },
    ],
    ["zero quantity", line({ quantity: 0, price: 100, duration: 5, minimum_rate: 50, state_tax: 8 }), true, {
      base: 0,
      total: 0,
    }],
    ["fractional quantity", line({ quantity: 1.5, price: 33.33, duration: 1 }), false, {
      base: 49.995,
      total: 49.995,
    }],
    ["full discount", line({ quantity: 1, price: 80, duration: 1, discount: 100, city_tax: 5 }), false, {
      taxable: 0,
      total: 0,
    }],
  ];
  for (const [name, l, minRate, want] of cases) {
    const got = lineTotals(l, { use_min_rate_logic: minRate });
    for (const [k, v] of Object.entries(want)) {
      assert.ok(
        Math.abs(got[k as keyof typeof got] - v!) < 1e-9,
        `${name}: ${k} ${got[k as keyof typeof got]} != ${v}`,
      );
    }
  }
});

Deno.test("rules - roundMoney rounds half up to cents, binary floats included", () => {
  const table: [number, number][] = [
    [1.005, 1.01],
    [2.675, 2.68],
    [0.125, 0.13],
    [49.995, 50],
    [1.004, 1],
    [0.1 + 0.2, 0.3],
    [684.9975, 685],
    [-1.005, -1.01],
    [-0.001, 0],
    [1234567.895, 1234567.9],
  ];
  for (const [x, want] of table) assert.equal(roundMoney(x), want, `roundMoney(${x})`);
});

Deno.test("rules - ticket totals sum exactly, then round once", () => {
  const half = lineTotals(line({ quantity: 1, price: 0.005, duration: 1 }), { use_min_rate_logic: false });
  // Rounding each line first would give 0.02; the exact sum is 0.01.
  assert.equal(ticketTotals([half, half]).subtotal, 0.01);
  const a = lineTotals(
    line({
      quantity: 2,
      price: 100,
      duration: 3,
      markup: 10,
      discount: 5,
      state_tax: 6.25,
      county_tax: 1,
      city_tax: 2,
    }),
    { use_min_rate_logic: false },
  );
  const b = lineTotals(line({ quantity: 1, price: 25, duration: 4, minimum_rate: 200, state_tax: 8.25 }), {
    use_min_rate_logic: true,
  });
  assert.deepEqual(ticketTotals([a, b]), {
    subtotal: 900,
    markup: 60,
    discount: 33,
    state_tax: 63.94, // 39.1875 + 24.75 = 63.9375
    county_tax: 6.27,
    city_tax: 12.54,
    grandtotal: 1009.75, // 684.9975 + 324.75 = 1009.7475
  });
  assert.deepEqual(ticketTotals([]).grandtotal, 0);
});

Deno.test("rules - hours between start and end, to 2 decimals", () => {
  assert.equal(hoursBetween("2025-03-01T08:00:00Z", "2025-03-01T17:20:00Z"), 9.33);
  assert.equal(hoursBetween("2025-03-01T08:00:00Z", "2025-03-01T09:01:00Z"), 1.02);
  assert.equal(hoursBetween("2025-03-01T08:00:00Z", "2025-03-03T08:00:00Z"), 48);
  assert.equal(hoursBetween("2025-03-01T08:00:00Z", null), null);
  close(hoursBetween("2025-03-01T08:00:00Z", "2025-03-01T08:00:00Z")!, 0);
});

Deno.test("rules - line status: in, removed and sold account for the quantity; sold and expendable lines are handled", () => {
  const logs = [
    { quantity_in: 3, quantity_sold: 0, remove_quantity: false },
    { quantity_in: 2, quantity_sold: 0, remove_quantity: true },
    { quantity_in: 0, quantity_sold: 4, remove_quantity: false },
  ];
  assert.equal(notCheckedInOrSold({ quantity: 10 }, logs), 1);
  assert.equal(lineHandled({ quantity: 10, isSold: false }, { isExpendable: false }, logs), false);
  assert.equal(lineHandled({ quantity: 9, isSold: false }, { isExpendable: false }, logs), true);
  // units lost on the job (removed) close the line with the rest checked in: no dead end
  const lost = [
    { quantity_in: 3, quantity_sold: 0, remove_quantity: false },
    { quantity_in: 2, quantity_sold: 0, remove_quantity: true },
  ];
  assert.equal(lineHandled({ quantity: 5, isSold: false }, { isExpendable: false }, lost), true);
  assert.equal(lineHandled({ quantity: 10, isSold: true }, { isExpendable: false }, []), true);
  assert.equal(lineHandled({ quantity: 10, isSold: false }, { isExpendable: true }, []), true);
  // a charge code holds nothing and is never checked in
  assert.equal(
    lineHandled({ quantity: 140, isSold: false }, { isExpendable: false, inventory_type: "Charge Code" }, []),
    true,
  );
  assert.equal(
    lineHandled({ quantity: 1, isSold: false }, { isExpendable: false, inventory_type: "Itemized" }, []),
    false,
  );
  assert.equal(lineHandled({ quantity: 0, isSold: false }, { isExpendable: false }, []), true);
  assert.equal(ticketComplete([]), true);
  assert.equal(
    ticketComplete([
      { line: { quantity: 1, isSold: true }, item: { isExpendable: false }, logs: [] },
      { line: { quantity: 2, isSold: false }, item: { isExpendable: false }, logs: [] },
    ]),
    false,
  );
});

Deno.test("rules - transitions: allowed, refused with 409, role-limited with 403", () => {
  const ok = { approver: true, complete: true };
  const allowed: [string, string][] = [
    ["OPEN", "RFB"],
    ["RFB", "RFA"],
    ["RFA", "APP"],
    ["APP", "OPEN"],
    [
      "RFB",
      "OPEN",
    ],
    ["RFA", "RFB"],
    ["QUOTE", "CLONEQUOTE"],
    ["QUOTE", "QUOTE"],
  ];
  // deno-lint-ignore no-explicit-any
  for (const [f, t] of allowed) assert.equal(transitionProblem(f as any, t as any, ok), null, `${f}->${t}`);
  const refused: [string, string][] = [
    ["OPEN", "RFA"],
    ["OPEN", "APP"],
    ["RFA", "OPEN"],
    ["APP", "RFB"],
    [
      "QUOTE",
      "OPEN",
    ],
    ["OPEN", "CLONEQUOTE"],
    ["OPEN", "QUOTE"],
  ];
  for (const [f, t] of refused) {
    // deno-lint-ignore no-explicit-any
    assert.deepEqual(transitionProblem(f as any, t as any, ok), {
      code: "conflict",
      message: `Cannot change status from ${f} to ${t}.`,
    });
  }
  assert.equal(transitionProblem("RFA", "APP", { approver: false, complete: true })?.code, "forbidden");
  assert.equal(transitionProblem("APP", "OPEN", { approver: false, complete: true })?.code, "forbidden");
  assert.deepEqual(transitionProblem("RFB", "RFA", { approver: false, complete: false }), {
    code: "conflict",
    message: BLOCKED_UNTIL_HANDLED,
  });
  assert.deepEqual(statusChoices({ isQuote: false }, false), ["OPEN", "RFB", "RFA"]);
  assert.deepEqual(statusChoices({ isQuote: false }, true), ["OPEN", "RFB", "RFA", "APP"]);
  assert.deepEqual(statusChoices({ isQuote: true }, false), ["QUOTE", "CLONEQUOTE"]);
});
