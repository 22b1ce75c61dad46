import assert from "node:assert/strict";
import { soldOf, transferable, transferBlocked } from "./TransferDialog.tsx";
import { billable, billBackBlocked } from "./BillBackDialog.tsx";
import type { Line } from "./types.ts";

// The dialogs' choices mirror the server's refusals (api/sales/lines/transfer.ts, printing).
const log = (quantity_sold: number, billed = false) =>
  ({ quantity_sold, billed }) as Line["inventory_log"][number];
const line = (id: number, isSold: boolean, logs: Line["inventory_log"]) =>
  ({ id, isSold, inventory_log: logs }) as Line;

Deno.test("transferable - unsold lines of a ticket that is neither a quote nor an invoice", () => {
  const lines = [line(1, false, []), line(2, false, [log(1)]), line(3, true, []), line(4, false, [log(0)])];
  assert.deepEqual(transferable({ status: "RFB", isQuote: false }, lines).map((l) => l.id), [1, 4]);
  assert.deepEqual(transferable({ status: "APP", isQuote: false }, lines), []);
  assert.deepEqual(transferable({ status: "QUOTE", isQuote: true }, lines), []);
  assert.equal(transferBlocked({ status: "OPEN", isQuote: false }), null);
});

Deno.test("billable - sold quantity not yet billed back, on approved invoices only", () => {
  const lines = [line(1, true, [log(2, true)]), line(2, true, [log(2, true), log(1)]), line(3, false, [])];
  assert.deepEqual(billable({ status: "APP" }, lines).map((l) => [l.id, soldOf(l).unbilled]), [[2, 1]]);
  assert.deepEqual(billable({ status: "RFA" }, lines), []);
  assert.match(billBackBlocked({ status: "OPEN" })!, /approved invoice/);
});
