import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import ExcelJS from "exceljs";
import { companies, inventory_audit } from "../../db/schema/mod.ts";
import { makeInventory, makeItem, makeLine, makeTicket } from "../../db/factories.ts";
import { withEnv } from "../../scripts/testing/harness.ts";
import { pdfText } from "../../scripts/testing/pdf_text.ts";

async function sheet(res: Response) {
  assert.equal(res.status, 200);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(await res.arrayBuffer());
  const ws = wb.worksheets[0];
  const col = (header: string) => (ws.getRow(1).values as unknown[]).indexOf(header);
  return { ws, cell: (row: number, header: string) => ws.getRow(row).getCell(col(header)) };
}

Deno.test("time zone - downloads and PDFs show instants on the company's clock (America/Chicago)", () =>
  withEnv(async (env) => {
    const db = env.tenant.db;
    await db.update(companies).set({ settings: { timeZone: "America/Chicago" } }).where(eq(companies.id, 1));
    const token = await env.login();
    // 03:00 UTC on February 25th is 21:00 on February 24th in Chicago.
    const ticket = await makeTicket(db, {
      ticket_number: "T-TZ",
      status: "APP",
      isInvoice: true,
      invoice_number: "INV-TZ",
      invoice_date: "2026-02-25",
    });
    const item = await makeItem(db, { item_number: "TZ-1" });
    await makeLine(db, {
      ticket_id: ticket.id,
      inventory_id: (await makeInventory(db, { item_id: item.id })).id,
      start_date: "2026-02-25T03:00:00Z",
      end_date: "2026-02-27T15:00:00Z",
    });
    await db.insert(inventory_audit).values({
      action: "Batch Upload",
      action_time: "2026-03-05T03:30:00.000Z",
      updated_by_name: "Pat",
      serial_number: "TZ-AUDIT",
      item_number: "TZ-1",
      item_description: "x",
      status: "Available",
      quantity: 1,
      quantity_change: 0,
      category: "c",
      business_unit: "b",
      locations: "",
    });

    const sales = await sheet(await env.request("/api/sales/sales/download?ticket_number=T-TZ", { token }));
    assert.equal((sales.cell(2, "Start").value as Date).toISOString(), "2026-02-24T21:00:00.000Z");
    assert.equal((sales.cell(2, "End").value as Date).toISOString(), "2026-02-27T09:00:00.000Z");
    // A calendar date is that day as a date cell (no zone moves it), shown as every download's dates are.
    assert.equal((sales.cell(2, "Inv Date").value as Date).toISOString(), "2026-02-25T00:00:00.000Z");
    assert.equal(sales.cell(2, "Inv Date").numFmt, "mm-dd-yyyy");
    assert.equal(sales.cell(2, "Start").numFmt, "mm-dd-yyyy hh:mm");

    const audit = await sheet(
      await env.request("/api/sales/audit/inventory-rows/download?serial_number=TZ-AUDIT", { token }),
    );
    assert.equal((audit.cell(2, "Action Time").value as Date).toISOString(), "2026-03-04T21:30:00.000Z");

    const pdf = await env.request(`/api/sales/ticketpdf?ticket_id=${ticket.id}&type=invoice`, { token });
    const lines = pdfText(new Uint8Array(await pdf.arrayBuffer())).split("\n");
    assert.ok(
      lines.includes("02-24-2026") && lines.includes("to 02-27-2026"),
      "line dates on Chicago's calendar",
    );
    assert.ok(lines.includes("02-25-2026"), "the invoice date as stored");
  }));
