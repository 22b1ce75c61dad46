import assert from "node:assert/strict";
import { cleanColumns, DEFAULT_COLUMNS, pageColumns, pageOf } from "./columns.ts";

Deno.test("line columns - settings lists are cleaned: unknown and id dropped, Order added in front", () => {
  assert.deepEqual(cleanColumns(["serial_number", "id", "bogus", "total", "total"]), [
    "order",
    "serial_number",
    "total",
  ]);
  assert.deepEqual(cleanColumns(["quantity", "order", "price"]), ["quantity", "order", "price"]);
  assert.equal(cleanColumns([]), null);
  assert.equal(cleanColumns(["id"]), null);
  assert.equal(cleanColumns("serial_number"), null);
});

Deno.test("line columns - each page from settings, a plain list for both modes, defaults elsewhere", () => {
  const cols = pageColumns({
    Sales: {
      TicketPage: { columns: ["item_description", "total"], minRateColumns: ["minimum_rate", "total"] },
      QuotePage: ["item_number", "price"],
      InvoicePage: { columns: ["nope"] },
    },
  });
  assert.deepEqual(cols.ticket, {
    normal: ["order", "item_description", "total"],
    minRate: ["order", "minimum_rate", "total"],
  });
  assert.deepEqual(cols.quote, {
    normal: ["order", "item_number", "price"],
    minRate: ["order", "item_number", "price"],
  });
  assert.deepEqual(cols.invoice, DEFAULT_COLUMNS.invoice);
  assert.deepEqual(pageColumns(null), DEFAULT_COLUMNS);
  // a ticket-page columns list without a min-rate list serves both modes
  assert.deepEqual(pageColumns({ Sales: { TicketPage: { columns: ["total"] } } }).ticket.minRate, [
    "order",
    "total",
  ]);
});

Deno.test("line columns - the page a ticket uses", () => {
  assert.equal(pageOf({ status: "APP", isInvoice: true, isQuote: false }), "invoice");
  assert.equal(pageOf({ status: "QUOTE", isInvoice: false, isQuote: true }), "quote");
  assert.equal(pageOf({ status: "RFA", isInvoice: false, isQuote: false }), "ticket");
  // a re-opened invoice is a ticket again
  assert.equal(pageOf({ status: "OPEN", isInvoice: false, isQuote: false }), "ticket");
});
