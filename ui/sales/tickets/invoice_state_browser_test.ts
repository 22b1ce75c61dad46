import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { browserTest, withBrowser } from "../../../scripts/testing/browser.ts";
import { makeCompany, makeLine, makeTicket } from "../../../db/factories.ts";
import { tickets } from "../../../db/schema/mod.ts";

browserTest(
  "invoices - an office user marks an approved invoice paid straight from its screen; its billed fields stay fixed",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      const db = env.tenant.db;
      const customer = await makeCompany(db, { name: "Permian Energy" });
      const inv = await makeTicket(db, {
        customer_id: customer.id,
        ticket_number: "T-00012",
        status: "APP",
        isInvoice: true,
        invoice_number: "INV-00012",
        invoice_date: "2026-02-10",
        notes: "Net 30",
      });
      await makeLine(db, { ticket_id: inv.id });
      const { user } = await env.userWithToken({ name: "Office" });
      await signIn(user.email, "password123", `/sales/invoices/${inv.id}`);

      const toolbar = page.getByRole("toolbar", { name: "Ticket actions" });
      assert.equal(await toolbar.getByRole("button", { name: "Edit Ticket" }).count(), 0);
      assert.equal(await toolbar.getByRole("button", { name: "New Line Item" }).count(), 0);
      await toolbar.getByRole("button", { name: "Edit Invoice" }).click();
      const form = page.getByRole("dialog", { name: "Invoice" });
      await form.getByText("Invoice Number: INV-00012").waitFor();
      assert.equal(await form.getByRole("textbox", { name: "Notes" }).getAttribute("readonly"), "");
      assert.equal(await form.getByLabel("Invoice Date").getAttribute("readonly"), "");
      await form.getByRole("checkbox", { name: "Paid" }).focus();
      await page.keyboard.press("Space");
      await form.getByRole("button", { name: "Save" }).click();

      // Still an invoice, now paid, and the invoices list says so.
      await page.waitForURL((u) => u.pathname === "/sales/invoices");
      const row = page.getByRole("table", { name: "Invoices" }).getByRole("row", { name: /T-00012/ });
      assert.match(await row.innerText(), /Approved\s+Paid/);
      const saved = await db.select().from(tickets).where(eq(tickets.id, inv.id)).get();
      assert.deepEqual([saved!.status, saved!.isPaid, saved!.invoice_number, saved!.notes], [
        "APP",
        true,
        "INV-00012",
        "Net 30",
      ]);
    }),
);
