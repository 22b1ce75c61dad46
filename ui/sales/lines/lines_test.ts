import assert from "node:assert/strict";
import { emptyEntry, logFigures, moved, planCheckIn, quantityMessage, searchLines } from "./lines.ts";
import type { Line } from "./types.ts";

type Log = Partial<Line["inventory_log"][number]>;
const entry = (over: Log) =>
  ({
    quantity_in: 0,
    quantity_sold: 0,
    quantity_reclassed: 0,
    remove_quantity: false,
    ...over,
  }) as Line["inventory_log"][number];

function line(id: number, over: Partial<Line> = {}, log: Log[] = []): Line {
  return {
    id,
    ticket_id: 1,
    order: id,
    quantity: 5,
    price: 10,
    duration: 1,
    minimum_rate: null,
    discount: 0,
    markup: null,
    notes: "",
    doc: null,
    isSold: false,
    start_date: null,
    end_date: null,
    custom: {},
    calculated_total: 50,
    calculated_tax: 0,
    calculated_inventory_status: "",
    sales_inventory: {
      id,
      serial_number: `SN-${id}`,
      inventory_description: "",
      item: { item_description: `Item ${id}`, item_number: `IT-${id}`, inventory_type: "Itemized" },
    },
    inventory_log: log.map(entry),
    ...over,
  } as unknown as Line;
}

Deno.test("ticket lines - log figures: removed entries are not checked in", () => {
  const l = line(1, {}, [
    { quantity_in: 2 },
    { quantity_in: 1, remove_quantity: true },
    { quantity_sold: 1 },
    {
      quantity_reclassed: 2,
    },
  ]);
  assert.deepEqual(logFigures(l), { checkedIn: 2, removed: 1, sold: 1, reclassed: 2 });
});

Deno.test("ticket lines - search across fields, case-insensitive; move", () => {
  const lines = [line(1, { notes: "Left at Pad 7" }), line(2)];
  assert.deepEqual(searchLines(lines, "pad 7").map((l) => l.id), [1]);
  assert.deepEqual(searchLines(lines, "it-2").map((l) => l.id), [2]);
  assert.deepEqual(searchLines(lines, "  ").map((l) => l.id), [1, 2]);
  assert.deepEqual(moved([1, 2, 3, 4], 3, 0), [4, 1, 2, 3]);
  assert.deepEqual(moved([1, 2, 3, 4], 0, 2), [2, 3, 1, 4]);
  assert.deepEqual(moved([1, 2], 0, 5), [1, 2]);
});

Deno.test("ticket lines - check-in quantities: positive whole numbers, blank is none", () => {
  assert.equal(quantityMessage(""), undefined);
  assert.equal(quantityMessage("3"), undefined);
  assert.equal(quantityMessage("0"), "Must be a positive number");
  assert.equal(quantityMessage("-1"), "Must be a positive number");
  assert.equal(quantityMessage("1.5"), "Must be a whole number");
  assert.equal(quantityMessage("x"), "Must be a number");
});

Deno.test("ticket lines - check-in plan: the cap alert, field messages, and the request", () => {
  const lines = [line(1, {}, [{ quantity_in: 2 }, { quantity_sold: 1 }]), line(2), line(3, { isSold: true })];
  const e = (over: Partial<ReturnType<typeof emptyEntry>>) => ({
    ...emptyEntry("2026-03-04T10:00"),
    ...over,
  });
  assert.deepEqual(planCheckIn(9, lines, { 1: e({}), 2: e({}), 3: e({}) }), {
    ok: false,
    alert: "Select at least one line to check in.",
  });
  // 2 in + 1 sold + 2 new in + 1 new sold = 6 > 5
  assert.deepEqual(
    planCheckIn(9, lines, {
      1: e({ selected: true, quantityIn: "2", quantitySold: "1" }),
      2: e({}),
      3: e({}),
    }),
    { ok: false, alert: "All Checked-In and Sold can't exceed Quantity: Item 1" },
  );
  assert.deepEqual(
    planCheckIn(9, lines, { 1: e({ selected: true }), 2: e({ selected: true, quantityIn: "1.5" }) }),
    {
      ok: false,
      errors: { 1: "Enter a quantity in or sold", 2: "Must be a whole number" },
    },
  );
  assert.deepEqual(planCheckIn(9, lines, { 3: e({ selected: true, quantityIn: "1" }) }), {
    ok: false,
    errors: { 3: "A sold line is not checked in again" },
  });
  assert.deepEqual(
    planCheckIn(9, lines, {
      1: e({ selected: true, quantityIn: "2" }),
      2: e({ selected: true, quantityIn: "3", remove: true, quantitySold: "2" }),
      3: e({}),
    }),
    {
      ok: true,
      body: {
        ticket_id: 9,
        line_items: [1, 2],
        quantities_in: [2, 3],
        quantities_sold: [null, 2],
        quantity_dates: ["2026-03-04T10:00", "2026-03-04T10:00"],
        remove_quantities: [false, true],
      },
    },
  );
});
