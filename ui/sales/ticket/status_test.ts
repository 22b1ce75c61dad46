import assert from "node:assert/strict";
import { dialogFor, redirectAfterSave, statusChoices } from "./status.ts";
import { soldOf, transferable, transferBlocked } from "./TransferDialog.tsx";
import { billable, billBackBlocked } from "./BillBackDialog.tsx";
import { documentChoices, pdfQuery } from "./DownloadDialog.tsx";
import type { Line, TicketDetail } from "./types.ts";

const ids = (t: { isQuote: boolean; status: string }, approve: boolean) =>
  statusChoices(t, { approve }).map((c) => c.id);
const ticket = (status: string) => ({ isQuote: false, status });

Deno.test("statusChoices - other users: Open, Ready To Bill, Request For Approval as the state allows", () => {
  assert.deepEqual(ids(ticket("OPEN"), false), ["OPEN", "RFB"]);
  assert.deepEqual(ids(ticket("RFB"), false), ["OPEN", "RFB", "RFA"]);
  assert.deepEqual(ids(ticket("RFA"), false), ["RFB", "RFA"], "no Approved without approval authority");
  assert.deepEqual(ids(ticket("APP"), false), ["APP"], "an invoice is re-opened by approvers only");
});

Deno.test("statusChoices - approval authority adds Approved on RFA and re-opening invoices", () => {
  assert.deepEqual(ids(ticket("OPEN"), true), ["OPEN", "RFB"]);
  assert.deepEqual(ids(ticket("RFB"), true), ["OPEN", "RFB", "RFA"]);
  assert.deepEqual(ids(ticket("RFA"), true), ["RFB", "RFA", "APP"]);
  assert.deepEqual(ids(ticket("APP"), true), ["OPEN", "APP"]);
});

Deno.test("statusChoices - quotes offer Quote and Clone To Ticket, with labels", () => {
  assert.deepEqual(statusChoices({ isQuote: true, status: "QUOTE" }, { approve: false }), [
    { id: "QUOTE", label: "Quote" },
    { id: "CLONEQUOTE", label: "Clone To Ticket" },
  ]);
  assert.deepEqual(
    statusChoices(ticket("RFA"), { approve: true }).map((c) => c.label),
    ["Ready To Bill", "Request For Approval", "Approved"],
  );
});

Deno.test("dialogFor - ticket form for RFB, RFA and CLONEQUOTE, invoice form otherwise", () => {
  assert.deepEqual(
    ["RFB", "RFA", "CLONEQUOTE", "OPEN", "APP", "QUOTE"].map(dialogFor),
    ["ticket", "ticket", "ticket", "invoice", "invoice", "invoice"],
  );
});

Deno.test("redirectAfterSave - the spec's lists, and the new ticket of a cloned quote", () => {
  assert.deepEqual(
    ["OPEN", "RFA", "RFB", "APP", "QUOTE"].map((s) => redirectAfterSave(s)),
    ["/sales/tickets", "/sales/tickets", "/sales/tickets", "/sales/invoices", "/sales/quotes"],
  );
  assert.equal(redirectAfterSave("CLONEQUOTE", { id: 42 }), "/sales/tickets/42");
  assert.throws(() => redirectAfterSave("CLONEQUOTE"));
});

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

Deno.test("documentChoices and pdfQuery - quote, ticket, and invoice once numbered", () => {
  const ids = (t: { status: string; isQuote: boolean; invoice_number: string | null }) =>
    documentChoices(t as TicketDetail).map((c) => c.id);
  assert.deepEqual(ids({ status: "QUOTE", isQuote: true, invoice_number: null }), ["quote"]);
  assert.deepEqual(ids({ status: "OPEN", isQuote: false, invoice_number: null }), ["ticket"]);
  assert.deepEqual(ids({ status: "OPEN", isQuote: false, invoice_number: "INV-00001" }), [
    "ticket",
    "invoice",
  ]);
  assert.deepEqual(ids({ status: "APP", isQuote: false, invoice_number: "INV-00001" }), [
    "invoice",
    "ticket",
  ]);
  assert.deepEqual(
    pdfQuery(
      { id: 7, ticket_number: "T-00007", invoice_number: "INV-00001" } as TicketDetail,
      "invoice",
      true,
    ),
    {
      ticket_id: 7,
      type: "invoice",
      printInvoice: true,
      ticket_number: "T-00007",
      invoice_number: "INV-00001",
      include_attachments: true,
    },
  );
});
