import assert from "node:assert/strict";
import {
  BLOCKED_UNTIL_HANDLED,
  hoursBetween,
  lineHandled,
  type LineMoney,
  lineTotals,
  notCheckedInOrSold,
  statusChoices,
  ticketComplete,
  ticketTotals,
  transitionProblem,
} from "./rules.ts";

const line = (over: Partial<LineMoney>): LineMoney => ({ quantity: 1, price: 0, duration: 1, ...over });
const close = (a: number, b: number) => assert.ok(Math.abs(a - b) < 1e-9, `${a} != ${b}`);

Deno.test("rules - line totals by hand, each amount rounded half-up to cents: min-rate off and on, markup, discount, every tax", () => {
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
        state_tax: 39.19, // 39.1875, rounded half-up
        county_tax: 6.27,
        city_tax: 12.54,
        tax: 58,
        total: 685,
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
      base: 50, // 49.995 (a binary 49.99499...) rounds up
      total: 50,
    }],
    [
      "INV-00001's FI-2SW: 6 x 45 over 3 extra days plus the minimum, 10% off, 8.25% tax is 1,578.285 exact",
      line({
        quantity: 6,
        price: 45,
        duration: 3,
        minimum_rate: 135,
        discount: 10,
        state_tax: 6.25,
        county_tax: 1.5,
        city_tax: 0.5,
      }),
      true,
      {
        base: 1620,
        discount: 162,
        taxable: 1458,
        state_tax: 91.13,
        county_tax: 21.87,
        city_tax: 7.29,
        total: 1578.29,
      },
    ],
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

Deno.test("rules - ticket totals are the sums of the lines' rounded amounts", () => {
  const half = lineTotals(line({ quantity: 1, price: 0.005, duration: 1 }), { use_min_rate_logic: false });
  // Each line prints 0.01, so the ticket says 0.02: the printed lines add up to the printed total.
  assert.equal(half.total, 0.01);
  assert.equal(ticketTotals([half, half]).subtotal, 0.02);
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
    state_tax: 63.94, // 39.19 + 24.75
    county_tax: 6.27,
    city_tax: 12.54,
    grandtotal: 1009.75, // 685 + 324.75
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
