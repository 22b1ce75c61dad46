import assert from "node:assert/strict";
import { dialogFor, redirectAfterSave, statusChoices } from "./status.ts";
import { documentChoices, pdfQuery } from "./DownloadDialog.tsx";
import type { TicketDetail } from "./types.ts";

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
