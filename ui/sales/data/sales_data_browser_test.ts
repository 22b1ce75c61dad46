import assert from "node:assert/strict";
import { browserTest, withBrowser } from "../../../scripts/testing/browser.ts";
import { makeCategory, makeInventory, makeItem, makeLine, makeTicket } from "../../../db/factories.ts";

browserTest(
  "sales data - View Sales from inventory lands filtered; the filter clears from the URL; a sales admin deletes a line",
  () =>
    withBrowser(async ({ env, page, signIn, hydrated }) => {
      const db = env.tenant.db;
      const unit = await makeCategory(db, { name: "Midland" });
      const item = await makeItem(db, {
        item_number: "PV2",
        item_description: "2in plug valve",
        inventory_type: "Serialized",
      });
      const mine = await makeInventory(db, {
        item_id: item.id,
        business_unit_id: unit.id,
        serial_number: "PV2-1001",
        quantity: 1,
      });
      const other = await makeInventory(db, {
        item_id: item.id,
        business_unit_id: unit.id,
        serial_number: "PV2-2002",
        quantity: 1,
      });
      const invoice = await makeTicket(db, {
        ticket_number: "T-INV",
        invoice_number: "INV-9",
        invoice_date: "2024-06-03",
        status: "APP",
        isInvoice: true,
      });
      await makeLine(db, {
        ticket_id: invoice.id,
        inventory_id: mine.id,
        start_date: "2024-05-01T08:00:00Z",
      });
      await makeLine(db, {
        ticket_id: invoice.id,
        inventory_id: other.id,
        start_date: "2024-05-01T08:00:00Z",
      });
      const open = await makeTicket(db, { ticket_number: "T-OPEN" });
      await makeLine(db, { ticket_id: open.id, inventory_id: mine.id, start_date: "2024-05-20T08:00:00Z" });

      // From the inventory row's actions: View Sales.
      await signIn(undefined, undefined, "/sales/serialized-inventory");
      await page.getByRole("button", { name: "Actions for PV2-1001" }).click();
      await page.getByRole("menuitem", { name: "View Sales" }).click();
      await page.getByRole("heading", { name: "Sales Data" }).waitFor();
      await hydrated();
      const serial = page.getByRole("searchbox", { name: "Serial Number" });
      assert.equal(await serial.inputValue(), "PV2-1001");
      // The link's parameter leaves the address bar; the filter stays.
      await page.waitForURL((u) => u.pathname === "/sales/data" && !u.searchParams.has("serial_number"));
      const table = page.getByRole("table", { name: "Sales Data" });
      const rows = table.locator("tbody tr");
      await table.getByRole("row", { name: /T-INV/ }).waitFor();
      assert.equal(await rows.count(), 1, "invoiced lines of PV2-1001 only");
      assert.doesNotMatch(await table.innerText(), /PV2-2002/);
      await table.getByRole("img", { name: "Item not fully checked in or sold" }).first().waitFor();

      // 'Invoiced Only' off: the open ticket's line shows up too, still only PV2-1001.
      await page.getByText("Invoiced Only").click();
      const openRow = table.getByRole("row", { name: /T-OPEN/ });
      await openRow.waitFor();
      assert.equal(await rows.count(), 2);
      assert.doesNotMatch(await table.innerText(), /PV2-2002/);
      assert.equal(await serial.inputValue(), "PV2-1001");

      // Expand the open line: only Delete, with the spec's confirmation.
      await openRow.getByRole("button", { name: "Expand row" }).click();
      assert.equal(await table.getByRole("button", { name: /^Edit/ }).count(), 0);
      await table.getByRole("button", { name: "Delete line PV2-1001 on T-OPEN" }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByText("Are you sure you want to delete this item?").waitFor();
      await dialog.getByText("WARNING: This cannot be undone.").waitFor();
      await dialog.getByRole("button", { name: "Yes" }).click();
      await page.getByText("Line item deleted").waitFor();
      // Both the row and its expansion go (the expansion also names T-OPEN, in its Delete button).
      await openRow.first().waitFor({ state: "detached" });
      assert.equal(await openRow.count(), 0);
      assert.equal(await rows.count(), 1);
      await table.getByRole("row", { name: /T-INV/ }).waitFor();
    }),
);
