import assert from "node:assert/strict";
import ExcelJS from "exceljs";
import { withEnv } from "../../../scripts/testing/harness.ts";
import { pdfText } from "../../../scripts/testing/pdf_text.ts";
import {
  makeCategory,
  makeCompany,
  makeInventory,
  makeItem,
  makeLine,
  makeTicket,
} from "../../../db/factories.ts";

/**
 * INV-00001's FI-2SW line as the demo bills it: 6 swivels, the 3-day minimum (135) plus 3 extra days at
 * 45, 10% off, 8.25% tax. Exact: 1,458 + 91.125 + 21.87 + 7.29 = 1,578.285, which a float holds as
 * 1,578.28499999...: the screen said 1,578.28, the PDF and xlsx 1,578.29.
 */
Deno.test("figures agree - a line whose exact total ends in half a cent shows 1,578.29 on every surface", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const db = env.tenant.db;
    const customer = await makeCompany(db, {
      name: "Permian Well Services",
      company_type: "customer_company",
    });
    const unit = await makeCategory(db, { name: "Midland" });
    const ticket = await makeTicket(db, {
      customer_id: customer.id,
      business_unit_id: unit.id,
      ticket_number: "T-00001",
      status: "APP",
      isInvoice: true,
      invoice_number: "INV-00001",
      invoice_date: "2026-03-04",
      use_min_rate_logic: true,
    });
    const item = await makeItem(db, {
      item_number: "FI-2SW",
      item_description: "2in 1502 Chiksan swivel joint",
    });
    await makeLine(db, {
      ticket_id: ticket.id,
      inventory_id: (await makeInventory(db, { item_id: item.id, business_unit_id: unit.id })).id,
      start_date: "2026-02-25T08:00:00Z",
      end_date: "2026-03-03T08:00:00Z",
      quantity: 6,
      minimum_rate: 135,
      price: 45,
      duration: 3,
      discount: 10,
      state_tax: 6.25,
      county_tax: 1.5,
      city_tax: 0.5,
    });

    // The API: the line's and the ticket's figures are whole cents.
    const lines = await (await env.request(`/api/sales/sales?ticket_number=T-00001`, { token })).json();
    assert.equal(lines.results[0].calculated_total, 1578.29);
    assert.equal(lines.results[0].calculated_tax, 120.29);
    const t = await (await env.request(`/api/sales/tickets/${ticket.id}`, { token })).json();
    assert.equal(t.totals.grandtotal, 1578.29);

    // The screens: the invoice's detail page and Sales Data, as the server renders them.
    const cookie = { cookie: `session=${token}` };
    for (const path of [`/sales/invoices/${ticket.id}`, `/sales/data?ticket_number=T-00001`]) {
      const res = await env.request(path, cookie);
      assert.equal(res.status, 200, path);
      const html = await res.text();
      assert.match(html, />\$1,578\.29</, path);
      assert.doesNotMatch(html, /1,578\.28/, path);
    }

    // The invoice PDF.
    const pdf = await env.request(`/api/sales/ticketpdf?ticket_id=${ticket.id}&type=invoice`, { token });
    assert.equal(pdf.status, 200);
    const text = pdfText(new Uint8Array(await pdf.arrayBuffer()));
    assert.ok(text.includes("$1,578.29"), text);
    assert.ok(!text.includes("1,578.28"));

    // The Sales Data download.
    const xlsx = await env.request(`/api/sales/sales/download?ticket_number=T-00001`, { token });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(await xlsx.arrayBuffer());
    const ws = wb.worksheets[0];
    const col = (header: string) => (ws.getRow(1).values as unknown[]).findIndex((v) => v === header);
    assert.equal(ws.getRow(2).getCell(col("Total")).value, 1578.29);
    assert.equal(ws.getRow(2).getCell(col("Tax")).value, 120.29);
  }));
