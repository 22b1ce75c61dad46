import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { PDFDocument } from "pdf-lib";
import { companies, sales } from "../../../db/schema/mod.ts";
import { type TestEnv, withEnv } from "../../../scripts/testing/harness.ts";
import { pdfText } from "../../../scripts/testing/pdf_text.ts";
import { makeCompany, makeInventory, makeItem, makeLine, makeTicket } from "../../../db/factories.ts";
import { storeFile } from "../../files/service.ts";
import { renderPdf } from "../../lib/pdf.ts";
import { ATTACHMENT_NOTICE } from "./report.ts";

const pageCount = async (bytes: Uint8Array) => (await PDFDocument.load(bytes)).getPageCount();

const attachment = (pages: number) =>
  renderPdf((doc) => {
    for (let p = 1; p <= pages; p++) {
      if (p > 1) doc.addPage();
      doc.text(`Attachment page ${p}`);
    }
  });

async function attach(env: TestEnv, name: string, data: Uint8Array): Promise<number> {
  return await env.tenant.write((tx) => storeFile(tx, { name, content_type: "application/pdf", data }));
}

/** A ticket of a named customer with a visible line and a hidden one (H-200). */
async function ticketWithLines(env: TestEnv, over: Parameters<typeof makeTicket>[1] = {}) {
  const db = env.tenant.db;
  const customer = await makeCompany(db, {
    name: "Permian Energy",
    company_type: "customer_company",
    custom: { address_line_1: "400 Oil Rd", address_line_2: "Odessa, TX" },
  });
  const ticket = await makeTicket(db, { customer_id: customer.id, ticket_number: "T-04211", ...over });
  const visibleItem = await makeItem(db, { item_number: "A-100", item_description: "Frac valve" });
  const hiddenItem = await makeItem(db, { item_number: "H-200", item_description: "Secret hose" });
  const visible = await makeLine(db, {
    ticket_id: ticket.id,
    inventory_id: (await makeInventory(db, { item_id: visibleItem.id, serial_number: "SN-777" })).id,
    price: 1234.5,
    order: 1,
  });
  const hidden = await makeLine(db, {
    ticket_id: ticket.id,
    inventory_id: (await makeInventory(db, { item_id: hiddenItem.id })).id,
    price: 10,
    order: 2,
    custom: { hide: true },
  });
  return { customer, ticket, visible, hidden };
}

async function pdf(env: TestEnv, query: string, token: string) {
  const res = await env.request(`/api/sales/ticketpdf?${query}`, { token });
  const bytes = new Uint8Array(await res.arrayBuffer());
  if (res.status !== 200) assert.fail(`expected 200, got ${res.status}: ${new TextDecoder().decode(bytes)}`);
  return { res, bytes, text: pdfText(bytes) };
}

Deno.test("ticket pdf - the ticket's number, customer, visible lines itemized, hidden ones as Other charges", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const { ticket } = await ticketWithLines(env);
    const { res, bytes, text } = await pdf(env, `ticket_id=${ticket.id}&ticket_number=ignored`, token);
    assert.equal(res.headers.get("content-type"), "application/pdf");
    assert.equal(res.headers.get("content-disposition"), 'inline; filename="Ticket-T-04211.pdf"');
    assert.equal(new TextDecoder().decode(bytes.subarray(0, 5)), "%PDF-");
    for (
      const s of ["Ticket", "T-04211", "Permian Energy", "400 Oil Rd", "A-100", "Frac valve", "$1,234.50"]
    ) {
      assert.ok(text.includes(s), `shows ${s}`);
    }
    assert.ok(!text.includes("H-200") && !text.includes("Secret hose"), "hidden line left out");
    assert.ok(
      text.includes("Other charges") && text.includes("$10.00"),
      "the hidden line is billed, not itemized",
    );
    assert.ok(text.includes("$1,244.50"), "grand total counts the hidden line");
    assert.ok(!text.includes("Invoice"));
  }));

Deno.test("ticket pdf - quote and invoice titles; 409 for printInvoice without an invoice", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const { ticket: quote } = await ticketWithLines(env, {
      ticket_number: "Q-00009",
      isQuote: true,
      status: "QUOTE",
    });
    const q = await pdf(env, `ticket_id=${quote.id}`, token);
    assert.ok(q.text.includes("Quote") && q.text.includes("Q-00009"));
    assert.equal(q.res.headers.get("content-disposition"), 'inline; filename="Quote-Q-00009.pdf"');

    const db = env.tenant.db;
    const app = await makeTicket(db, {
      ticket_number: "T-05000",
      status: "APP",
      isInvoice: true,
      invoice_number: "INV-00042",
      invoice_date: "2026-03-04",
    });
    const inv = await pdf(env, `ticket_id=${app.id}`, token);
    assert.ok(
      inv.text.includes("Invoice") && inv.text.includes("INV-00042") && inv.text.includes("03-04-2026"),
    );
    assert.equal(inv.res.headers.get("content-disposition"), 'inline; filename="Invoice-INV-00042.pdf"');

    const open = await makeTicket(db, { ticket_number: "T-05001" });
    const res = await env.request(`/api/sales/ticketpdf?ticket_id=${open.id}&printInvoice=true`, { token });
    assert.equal(res.status, 409);
    assert.ok((await res.text()).includes("This ticket has no invoice yet."));
  }));

Deno.test("ticket pdf - include_attachments appends each printed line's PDF; a corrupt one is a notice page", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const { ticket, visible, hidden } = await ticketWithLines(env);
    const good = await attach(env, "cert.pdf", await attachment(2));
    const hiddenFile = await attach(env, "hidden.pdf", await attachment(3));
    const db = env.tenant.db;
    await db.update(sales).set({ file_id: good }).where(eq(sales.id, visible.id));
    await db.update(sales).set({ file_id: hiddenFile }).where(eq(sales.id, hidden.id));

    const plain = await pdf(env, `ticket_id=${ticket.id}`, token);
    const own = await pageCount(plain.bytes);
    const withFiles = await pdf(env, `ticket_id=${ticket.id}&include_attachments=true`, token);
    assert.equal(
      await pageCount(withFiles.bytes),
      own + 2,
      "the visible line's 2 pages, not the hidden one's",
    );
    assert.ok(withFiles.text.includes("Attachment page 2"));
    // The appended pages say what they are: the document's own are numbered among themselves.
    assert.ok(withFiles.text.includes("Attachment cert.pdf, page 1 of 2"), withFiles.text);
    assert.ok(withFiles.text.includes("Attachment cert.pdf, page 2 of 2"));

    const broken = await attach(env, "broken.pdf", new TextEncoder().encode("%PDF-1.7 not really a pdf"));
    await db.update(sales).set({ file_id: broken }).where(eq(sales.id, visible.id));
    const withBroken = await pdf(env, `ticket_id=${ticket.id}&include_attachments=true`, token);
    assert.equal(await pageCount(withBroken.bytes), own + 1);
    assert.ok(withBroken.text.includes(ATTACHMENT_NOTICE));
  }));

Deno.test("ticket pdf - 404 unknown ticket, 403 for a customer company's user", () =>
  withEnv(async (env) => {
    const token = await env.login();
    assert.equal((await env.request(`/api/sales/ticketpdf?ticket_id=999999`, { token })).status, 404);
    const { ticket, customer } = await ticketWithLines(env);
    const outsider = await env.userWithToken({ company_id: customer.id });
    const res = await env.request(`/api/sales/ticketpdf?ticket_id=${ticket.id}`, { token: outsider.token });
    assert.equal(res.status, 403);
  }));

const PNG = "data:image/png;base64," +
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

Deno.test("ticket pdf - the logo the screen shows: a PNG in companyLogo or in logoSVG, SVG as vector paths", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const { ticket } = await ticketWithLines(env);
    const db = env.tenant.db;
    const settings = async (s: Record<string, unknown>) =>
      await db.update(companies).set({ settings: s }).where(eq(companies.id, ticket.company_id));
    const hasImage = (b: Uint8Array) => new TextDecoder("latin1").decode(b).includes("/Subtype /Image");
    await settings({ companyLogo: PNG });
    assert.ok(hasImage((await pdf(env, `ticket_id=${ticket.id}`, token)).bytes));
    // A PNG kept in logoSVG (the screen showed it as a broken image, the PDFs ignored it).
    await settings({ logoSVG: PNG });
    assert.ok(hasImage((await pdf(env, `ticket_id=${ticket.id}`, token)).bytes));
    // SVG is drawn as paths (no image); its text comes out as the document's text.
    await settings({
      logoSVG:
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 80"><text x="0" y="50">Z</text></svg>',
    });
    const svg = await pdf(env, `ticket_id=${ticket.id}`, token);
    assert.ok(!hasImage(svg.bytes));
    assert.ok(svg.text.includes("T-04211"));
    await settings({ companyLogo: "data:image/svg+xml;base64,PHN2Zy8+" });
    assert.ok(
      (await pdf(env, `ticket_id=${ticket.id}`, token)).text.includes("T-04211"),
      "an empty SVG fails nothing",
    );
  }));

Deno.test("ticket pdf - line notes print under their item; service dates are open until a line ends", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const { ticket, visible } = await ticketWithLines(env);
    await env.tenant.db.update(sales).set({
      notes: "Left at pad 7",
      start_date: "2026-11-02T15:00:00Z",
      end_date: null,
    })
      .where(eq(sales.id, visible.id));
    const open = (await pdf(env, `ticket_id=${ticket.id}`, token)).text;
    assert.ok(open.includes("Note: Left at pad 7"), open);
    assert.ok(
      open.includes("Service Dates") && open.includes("From 11-02-2026"),
      "not 11-02-2026 to 11-02-2026",
    );
    await env.tenant.db.update(sales).set({ end_date: "2026-11-06T15:00:00Z" }).where(
      eq(sales.id, visible.id),
    );
    assert.ok((await pdf(env, `ticket_id=${ticket.id}`, token)).text.includes("11-02-2026 to 11-06-2026"));
  }));

Deno.test("ticket pdf - every page after the first names the document, its number and the customer", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const { ticket } = await ticketWithLines(env);
    const db = env.tenant.db;
    const item = await makeItem(db, { item_number: "B-300", item_description: "Pump" });
    for (let i = 0; i < 45; i++) {
      await makeLine(db, {
        ticket_id: ticket.id,
        inventory_id: (await makeInventory(db, { item_id: item.id })).id,
        price: 5,
        order: 10 + i,
      });
    }
    const { bytes, text } = await pdf(env, `ticket_id=${ticket.id}`, token);
    const pages = await pageCount(bytes);
    assert.ok(pages >= 2, `${pages} pages`);
    const heads = text.split("\n").filter((l) => l === "Ticket T-04211 (continued) - Permian Energy");
    assert.equal(heads.length, pages - 1);
  }));
