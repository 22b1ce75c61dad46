import assert from "node:assert/strict";
import { asc, eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { browserTest, eventually, withBrowser } from "../../../../scripts/testing/browser.ts";
import { makeCategory, makeCompany, makeInventory, makeItem } from "../../../../db/factories.ts";
import { inventory, sales, taxes, templates, tickets } from "../../../../db/schema/mod.ts";
import { pdfText } from "../../../../scripts/testing/pdf_text.ts";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { Buffer } from "node:buffer";

const toolbar = (page: Page) => page.getByRole("toolbar", { name: "Ticket actions" });

async function chooseStatus(page: Page, label: string) {
  await toolbar(page).getByRole("button", { name: /Change Status/ }).click();
  await page.getByRole("option", { name: label, exact: true }).click();
}

/** A one-page PDF saying `text` (a line's attachment). */
async function attachmentPdf(text: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([300, 200]).drawText(text, { x: 20, y: 100, size: 14, font });
  return await doc.save();
}

/**
 * The screen's lines by their first column after Order (the serial, or a quote's item number): after the
 * drag handle, the line's identity cell (shown in check-in mode and on narrow screens) and Order.
 */
const serials = (page: Page) =>
  page.getByRole("table", { name: "Line items" }).locator("tbody tr td:nth-child(4)").allInnerTexts();

browserTest(
  "whole flow - quote, clone, template lines, reorder, bill, check in and sell, reject, approve, print, sales data",
  () =>
    withBrowser(async ({ env, page, base, signIn, hydrated }) => {
      const db = env.tenant.db;
      await makeCompany(db, { name: "Permian Energy" });
      // A rep who is also sales-admin: editing line rows is sales-admin's (spec, roles).
      const { user: rep } = await env.userWithToken({
        name: "Rita Rep",
        isSalesRep: true,
        permissions: ["sales-admin"],
      });
      const { user: boss } = await env.userWithToken({
        name: "Alma Approver",
        permissions: ["approval-authority"],
      });
      const unit = await makeCategory(db, { model: "Business Unit", name: "Odessa Yard" });
      await db.insert(taxes).values({
        company_id: 1,
        name: "Ector County",
        state_rate: 6.25,
        county_rate: 0.5,
        city_rate: 1.25,
      });
      const hoseItem = await makeItem(db, {
        item_number: "HOSE-1",
        item_description: "2in hose",
        rate: 40.5,
        inventory_type: "Itemized",
        isTaxable: true,
      });
      const pumpItem = await makeItem(db, {
        item_number: "PUMP-1",
        item_description: "Triplex pump",
        rate: 125,
        inventory_type: "Serialized",
        isTaxable: true,
      });
      const hose = await makeInventory(db, {
        item_id: hoseItem.id,
        business_unit_id: unit.id,
        serial_number: "H-100",
        quantity: 10,
      });
      const pump = await makeInventory(db, {
        item_id: pumpItem.id,
        business_unit_id: unit.id,
        serial_number: "P-7",
        quantity: 1,
      });
      await db.insert(templates).values({
        company_id: 1,
        name: "Frac Spread",
        business_unit_id: unit.id,
        inventory_ids: [hose.id, pump.id],
      });

      // 1. A quote from the template (the rep), without min-rate logic.
      await signIn(rep.email, "password123", "/sales/quotes");
      await page.getByRole("button", { name: "New Quote" }).click();
      const form = page.getByRole("dialog", { name: "New Quote" });
      await form.getByRole("combobox", { name: "Customer" }).fill("Permian");
      await page.getByRole("option", { name: "Permian Energy" }).click();
      await form.getByRole("combobox", { name: "Sales Rep" }).fill("Rita");
      await page.getByRole("option", { name: "Rita Rep" }).click();
      await form.getByRole("combobox", { name: "Tax" }).fill("Ector");
      await page.getByRole("option", { name: "Ector County" }).click();
      await form.getByRole("combobox", { name: "Business Unit" }).fill("Odessa");
      await page.getByRole("option", { name: "Odessa Yard" }).click();
      await form.getByRole("button", { name: /Template/ }).click();
      await page.getByRole("option", { name: "Frac Spread" }).click();
      await form.getByText("Use Min Rate Logic").click();
      await form.getByRole("button", { name: "Save" }).click();
      await page.getByRole("status").getByText(/Quote created: Q-00001/).waitFor();

      // 2. Open it from the list and clone it into a ticket.
      await page.getByRole("table", { name: "Quotes" }).getByRole("link", { name: "Q-00001" }).click();
      await page.waitForURL(/\/sales\/quotes\/\d+$/);
      await hydrated();
      // a quote's columns start with the item number (no serials)
      assert.deepEqual(await serials(page), ["HOSE-1", "PUMP-1"]);
      await chooseStatus(page, "Clone To Ticket");
      await page.getByRole("dialog", { name: /Edit Quote|Edit Ticket/ }).getByRole("button", { name: "Save" })
        .click();
      await page.waitForURL(/\/sales\/tickets\/\d+$/);
      await hydrated();
      const ticketId = Number(new URL(page.url()).pathname.split("/").pop());
      const ticket = (await db.select().from(tickets).where(eq(tickets.id, ticketId)).get())!;
      assert.equal(ticket.status, "OPEN");
      assert.equal(ticket.ticket_number, "T-00001");
      await page.getByRole("heading", { name: "Tickets: T-00001" }).waitFor();
      assert.deepEqual(await serials(page), ["H-100", "P-7"]);

      // 3. Reorder: drag the pump above the hose, then move it back down with the keyboard and up again.
      const orderOnServer = async () =>
        (await db.select({ inv: sales.inventory_id }).from(sales).where(eq(sales.ticket_id, ticketId))
          .orderBy(asc(sales.order), asc(sales.id))).map((r) => r.inv);
      const rows = page.getByRole("table", { name: "Line items" }).locator("tbody tr");
      const pumpFirst = async () => {
        assert.deepEqual(await orderOnServer(), [pump.id, hose.id]);
        assert.deepEqual(await serials(page), ["P-7", "H-100"]);
      };
      await rows.nth(1).dragTo(rows.nth(0));
      await eventually(pumpFirst);
      await page.getByRole("button", { name: /^Reorder P-7/ }).press("ArrowDown");
      await eventually(async () => {
        assert.deepEqual(await orderOnServer(), [hose.id, pump.id]);
        assert.deepEqual(await serials(page), ["H-100", "P-7"]);
      });
      await page.getByText("Moved P-7 to position 2 of 2").waitFor({ state: "attached" });
      await page.getByRole("button", { name: /^Reorder P-7/ }).press("ArrowUp");
      await eventually(pumpFirst);

      // 4. The hose line: 4 for two and a half days; the pump line: dated, with its PDF attached.
      await page.getByRole("button", { name: "Edit line H-100" }).click();
      let line = page.getByRole("dialog", { name: "Edit Line Item" });
      await line.getByRole("spinbutton", { name: "Quantity" }).fill("4");
      await line.getByRole("textbox", { name: "Duration" }).fill("2.5");
      await line.getByRole("textbox", { name: "Start Date" }).fill("2026-11-02T07:00");
      await line.getByRole("textbox", { name: "End Date" }).fill("2026-11-04T19:00");
      await line.getByRole("button", { name: "Save" }).click();
      await page.getByRole("status").getByText("Line item updated").waitFor();
      await line.waitFor({ state: "detached" });
      await page.getByRole("button", { name: "Edit line P-7" }).click();
      line = page.getByRole("dialog", { name: "Edit Line Item" });
      await line.getByRole("textbox", { name: "Start Date" }).fill("2026-11-02T07:00");
      await line.locator('input[type="file"]').setInputFiles({
        name: "pump-cert.pdf",
        mimeType: "application/pdf",
        buffer: Buffer.from(await attachmentPdf("PUMP P-7 PRESSURE CERTIFICATE")),
      });
      await line.getByText("pump-cert.pdf").waitFor();
      await line.getByRole("button", { name: "Save" }).click();
      await page.getByRole("status").getByText("Line item updated").last().waitFor();
      await line.waitFor({ state: "detached" });
      // 4 held of the hose's 10, the pump's 1 of 1
      const outOf = async (id: number) =>
        (await db.select({ q: inventory.quantity_out }).from(inventory).where(eq(inventory.id, id)).get())!.q;
      assert.equal(await outOf(hose.id), 4);
      assert.equal(await outOf(pump.id), 1);

      // Totals to the cent: hose 4 x 40.50 x 2.5 = 405.00, pump 1 x 125 x 1 = 125.00; subtotal 530.00;
      // taxes 6.25% 33.125 -> 33.13, 0.5% 2.65, 1.25% 6.625 -> 6.63; grand total 572.40 (exact sum 572.40).
      const totals = page.getByRole("definition").filter({ hasText: "$" });
      await page.getByText("$572.40").waitFor();
      assert.ok((await totals.allInnerTexts()).includes("$530.00"));

      // 5. Ready To Bill.
      await chooseStatus(page, "Ready To Bill");
      await page.getByRole("dialog", { name: "Edit Ticket" }).getByRole("button", { name: "Save" }).click();
      await page.waitForURL(/\/sales\/tickets$/);
      await page.goto(`${base}/sales/ready-for-billing/${ticketId}`);
      await hydrated();

      // 6. Check in partly: 2 hoses back, then the other 2 hoses: 1 in, 1 sold, and the pump back.
      await page.getByRole("button", { name: "Check-In" }).click();
      await page.getByRole("textbox", { name: "Quantity in H-100" }).fill("2");
      await page.getByRole("button", { name: "Submit Check-In" }).click();
      await page.getByRole("status").getByText("Checked in 1 line").waitFor();
      // Gone once the check-in is saved: while it is sent the button reads "Checking in...".
      await page.getByRole("button", { name: /^(Submit Check-In|Checking in)/ }).waitFor({
        state: "detached",
      });
      assert.equal(await outOf(hose.id), 2);
      await page.getByRole("button", { name: "Check-In" }).click();
      page.once("dialog", (d) => d.accept());
      await page.getByRole("textbox", { name: "Quantity in H-100" }).fill("2");
      await page.getByRole("textbox", { name: "Quantity sold H-100" }).fill("1");
      await page.getByRole("button", { name: "Submit Check-In" }).click();
      // 2 in + 2 new in + 1 sold > 4: the spec's alert, nothing sent
      assert.equal(await outOf(hose.id), 2);
      await page.getByRole("textbox", { name: "Quantity in H-100" }).fill("1");
      await page.getByRole("textbox", { name: "Quantity in P-7" }).fill("1");
      await page.getByRole("button", { name: "Submit Check-In" }).click();
      // Gone once the check-in is saved: while it is sent the button reads "Checking in...".
      await page.getByRole("button", { name: /^(Submit Check-In|Checking in)/ }).waitFor({
        state: "detached",
      });
      assert.equal(await outOf(hose.id), 0);
      assert.equal(await outOf(pump.id), 0);
      const hoseRow = (await db.select().from(inventory).where(eq(inventory.id, hose.id)).get())!;
      assert.equal(hoseRow.quantity, 9, "the sold hose left stock");

      // 7. Request approval.
      await chooseStatus(page, "Request For Approval");
      await page.getByRole("dialog", { name: "Edit Ticket" }).getByRole("button", { name: "Save" }).click();
      await page.waitForURL(/\/sales\/tickets$/);

      // 8. The approver rejects it with a comment; it goes back to Ready For Billing.
      await page.context().clearCookies();
      await signIn(boss.email, "password123", `/sales/approval/${ticketId}`);
      await toolbar(page).getByRole("button", { name: "Reject" }).click();
      const reject = page.getByRole("dialog", { name: "Reject" });
      await reject.getByRole("textbox", { name: "Comment" }).fill("Hose rate should be the yard rate");
      await reject.getByRole("button", { name: "Submit" }).click();
      await page.waitForURL(/\/sales\/ready-for-billing$/);
      await page.getByRole("table", { name: "Ready For Billing" }).getByRole("row", { name: /T-00001/ })
        .waitFor();

      // 9. Resolved in the rejection notice, resubmitted for approval.
      await page.goto(`${base}/sales/ready-for-billing/${ticketId}`);
      await hydrated();
      await toolbar(page).getByRole("button", { name: "Rejection Notice" }).click();
      const notice = page.getByRole("dialog", { name: "Rejection Notice" });
      await notice.getByText("Hose rate should be the yard rate").waitFor();
      await notice.locator("label", { hasText: "Resolved" }).click();
      await notice.getByRole("textbox", { name: "Comment" }).fill("Rate confirmed with the customer");
      await notice.getByRole("button", { name: "Submit" }).click();
      await notice.waitFor({ state: "detached" });
      await chooseStatus(page, "Request For Approval");
      await page.getByRole("dialog", { name: "Edit Ticket" }).getByRole("button", { name: "Save" }).click();
      await page.waitForURL(/\/sales\/tickets$/);

      // 10. Approved: an invoice with its number.
      await page.goto(`${base}/sales/approval/${ticketId}`);
      await hydrated();
      await chooseStatus(page, "Approved");
      await page.getByRole("dialog", { name: "Invoice" }).getByRole("button", { name: "Save" }).click();
      await page.waitForURL(/\/sales\/invoices$/);
      const invoiced = (await db.select().from(tickets).where(eq(tickets.id, ticketId)).get())!;
      assert.deepEqual([invoiced.status, invoiced.isInvoice, invoiced.invoice_number], [
        "APP",
        true,
        "INV-00001",
      ]);
      const invoiceRow = page.getByRole("table", { name: "Invoices" }).getByRole("row", {
        name: /INV-00001/,
      });
      await invoiceRow.waitFor();
      assert.match(await invoiceRow.innerText(), /\$572\.40/);

      // 11. The invoice PDF with the pump's certificate appended.
      await invoiceRow.getByRole("link", { name: "T-00001" }).click();
      await page.waitForURL(new RegExp(`/sales/invoices/${ticketId}$`));
      await hydrated();
      await page.getByRole("heading", { name: "Invoices: INV-00001" }).waitFor();
      await toolbar(page).getByRole("button", { name: "Download" }).click();
      const download = page.getByRole("dialog", { name: "Download" });
      await download.getByText("Include attachments").click();
      const [file] = await Promise.all([
        page.waitForEvent("download"),
        download.getByRole("button", { name: "Download" }).click(),
      ]);
      assert.equal(file.suggestedFilename(), "Invoice-INV-00001.pdf");
      const text = pdfText(await Deno.readFile((await file.path())!));
      assert.match(text, /INV-00001/);
      assert.match(text, /572\.40/);
      assert.match(text, /PUMP P-7 PRESSURE CERTIFICATE/);

      // 12. Both lines in Sales Data, found by the invoice number.
      await page.goto(`${base}/sales/data?invoice_number=INV-00001`);
      await hydrated();
      const data = page.getByRole("table", { name: "Sales Data" });
      await data.getByRole("row", { name: /H-100/ }).waitFor();
      await data.getByRole("row", { name: /P-7/ }).waitFor();
      assert.match(await data.getByRole("row", { name: /H-100/ }).innerText(), /Permian Energy/);
    }),
);
