import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { eq } from "drizzle-orm";
import { browserTest, withBrowser } from "../../../scripts/testing/browser.ts";
import { makeInventory, makeItem, makeTicket } from "../../../db/factories.ts";
import { companies, files, inventory, sales } from "../../../db/schema/mod.ts";

const PDF = Buffer.from("%PDF-1.4\n% line document\n%%EOF\n");

browserTest(
  "line form - add a line, the availability refusal with its figures, attach a PDF and see it linked",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      const db = env.tenant.db;
      // The ticket page shows the Attachment column too.
      await db.update(companies).set({
        settings: {
          Sales: {
            TicketPage: ["order", "serial_number", "item_number", "quantity", "price", "total", "doc"],
          },
        },
      }).where(eq(companies.id, 1));
      const hose = await makeItem(db, {
        item_number: "HOSE-1",
        item_description: "2in hose",
        rate: 40.5,
        inventory_type: "Itemized",
      });
      const row = await makeInventory(db, { item_id: hose.id, serial_number: "H-100", quantity: 5 });
      const ticket = await makeTicket(db, { status: "OPEN", use_min_rate_logic: false });
      const { user } = await env.userWithToken({ name: "Sam Sales", permissions: ["sales-admin"] });

      await signIn(user.email, "password123", `/sales/tickets/${ticket.id}`);
      const table = page.getByRole("table", { name: "Line items" });
      await table.getByText("No line items yet").waitFor();

      // A new line through the form.
      await page.getByRole("button", { name: "New Line Item" }).click();
      const form = page.getByRole("dialog", { name: "New Line Item" });
      const save = form.getByRole("button", { name: "Save" });
      assert.equal(await save.isDisabled(), true, "the inventory is required");
      assert.equal(await form.getByRole("textbox", { name: "Start Date" }).inputValue() !== "", true);
      await form.getByRole("combobox", { name: "Inventory" }).fill("H-10");
      await page.getByRole("option", { name: "H-100 | HOSE-1 | 2in hose" }).click();
      const price = form.getByRole("textbox", { name: "Price" });
      await page.waitForFunction(
        () =>
          [...document.querySelectorAll<HTMLInputElement>("[role=dialog] input")]
            .some((i) => i.value === "40.5"),
      );
      assert.equal(await price.inputValue(), "40.5", "the item's rate");
      assert.equal(await form.getByRole("textbox", { name: "Available Quantity" }).inputValue(), "5");
      const quantity = form.getByRole("spinbutton", { name: "Quantity" });
      assert.equal(await quantity.inputValue(), "1");
      await quantity.fill("2");
      await form.getByRole("textbox", { name: "Start Date" }).fill("2024-03-01T08:00");
      await form.getByRole("textbox", { name: "End Date" }).fill("2024-03-01T10:30");
      assert.equal(await form.getByRole("textbox", { name: "Hours" }).inputValue(), "2.5");
      await save.click();
      await page.getByRole("status").getByText("Line item added").waitFor();
      await form.waitFor({ state: "detached" });
      const line = table.getByRole("row", { name: /H-100/ });
      await line.waitFor();
      assert.match(await line.innerText(), /H-100\s+HOSE-1\s+2\s+\$40\.50\s+\$81\.00/);
      const [saved] = await db.select().from(sales).where(eq(sales.ticket_id, ticket.id));
      assert.deepEqual(
        [saved.inventory_id, saved.quantity, saved.price, saved.start_date, saved.end_date, saved.hours],
        [row.id, 2, 40.5, "2024-03-01T08:00:00Z", "2024-03-01T10:30:00Z", 2.5],
      );
      const held = async () =>
        (await db.select().from(inventory).where(eq(inventory.id, row.id)).get())!.quantity_out;
      assert.equal(await held(), 2);

      // More than is available: the refusal with its five figures, and the form keeps what was typed.
      await page.getByRole("button", { name: "Edit line H-100" }).click();
      const edit = page.getByRole("dialog", { name: "Edit Line Item" });
      const editQuantity = edit.getByRole("spinbutton", { name: "Quantity" });
      assert.equal(await editQuantity.inputValue(), "2");
      await edit.getByRole("textbox", { name: "Available Quantity" }).waitFor();
      await editQuantity.fill("9");
      await edit.getByRole("button", { name: "Save" }).click();
      const refusal = page.getByRole("dialog", {
        name: "ERROR: Line item quantity exceeds available inventory:",
      });
      await refusal.waitFor();
      // It names the item that is short.
      assert.match(await refusal.locator(".dialog-subject").innerText(), /H-100/);
      const figures = (await refusal.locator("dl").innerText()).replace(/\s+/g, " ").trim();
      assert.equal(
        figures,
        "Inventory Quantity 5 Quantity Out (Tickets) 2 Quantity Out (Location) 0 Available Quantity 3 " +
          "Line Quantity 9",
      );
      await refusal.getByRole("button", { name: "OK" }).click();
      await refusal.waitFor({ state: "detached" });
      assert.equal(await editQuantity.inputValue(), "9", "nothing typed is lost");
      assert.equal(await held(), 2, "nothing changed on the server");

      // A fitting quantity and a PDF: saved, then the attachment uploaded and linked in the table.
      await editQuantity.fill("3");
      await edit.locator('input[type="file"]').setInputFiles({
        name: "field-ticket.pdf",
        mimeType: "application/pdf",
        buffer: PDF,
      });
      await edit.getByText("field-ticket.pdf").waitFor();
      await edit.getByRole("button", { name: "Save" }).click();
      await page.getByRole("status").getByText("Line item updated").waitFor();
      await edit.waitFor({ state: "detached" });
      const link = line.getByRole("link", { name: "field-ticket.pdf" });
      await link.waitFor();
      const [file] = await db.select().from(files);
      assert.equal(await link.getAttribute("href"), `/api/files/${file.id}`);
      // The link serves the PDF to this user (read in the page: its session, its host).
      const got = await page.evaluate(async (href) => {
        const res = await fetch(href);
        return { status: res.status, type: res.headers.get("content-type"), text: await res.text() };
      }, `/api/files/${file.id}`);
      assert.deepEqual(got, { status: 200, type: "application/pdf", text: PDF.toString() });
      const after = (await db.select().from(sales).where(eq(sales.id, saved.id)).get())!;
      assert.deepEqual([after.quantity, after.file_id, after.doc], [3, file.id, "field-ticket.pdf"]);
      assert.equal(await held(), 3);

      // Editing again shows the attachment as a link, and it can be removed.
      await page.getByRole("button", { name: "Edit line H-100" }).click();
      const again = page.getByRole("dialog", { name: "Edit Line Item" });
      await again.getByRole("link", { name: "field-ticket.pdf" }).waitFor();
      await again.getByRole("button", { name: "Remove attachment" }).click();
      await again.getByText("field-ticket.pdf (removed when saved)").waitFor();
      await again.getByRole("button", { name: "Save" }).click();
      await page.getByRole("status").getByText("Line item updated").waitFor();
      await again.waitFor({ state: "detached" });
      await link.waitFor({ state: "detached" });
      const cleared = (await db.select().from(sales).where(eq(sales.id, saved.id)).get())!;
      assert.deepEqual([cleared.file_id, cleared.doc], [null, null]);
    }),
);

browserTest(
  "line form - a quote in min-rate mode: no dates or attachment, the min-rate fields",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      const db = env.tenant.db;
      const pump = await makeItem(db, {
        item_number: "PUMP-1",
        item_description: "Triplex pump",
        rate: 125,
        inventory_type: "Serialized",
      });
      const row = await makeInventory(db, {
        item_id: pump.id,
        serial_number: "P-7",
        quantity: 1,
        minimum_rate: 300,
        additional_day: 60,
      });
      const quote = await makeTicket(db, { status: "QUOTE", isQuote: true, use_min_rate_logic: true });
      const { user } = await env.userWithToken({ name: "Quinn Quote" });

      await signIn(user.email, "password123", `/sales/quotes/${quote.id}`);
      await page.getByRole("button", { name: "New Line Item" }).click();
      const form = page.getByRole("dialog", { name: "New Line Item" });
      await form.getByRole("combobox", { name: "Inventory" }).fill("P-7");
      await page.getByRole("option", { name: "P-7 | PUMP-1 | Triplex pump" }).click();
      const minRate = form.getByRole("textbox", { name: "Min Rate" });
      await page.waitForFunction(() =>
        [...document.querySelectorAll<HTMLInputElement>("[role=dialog] input")].some((i) => i.value === "300")
      );
      assert.equal(await minRate.inputValue(), "300", "the row's minimum rate");
      assert.equal(await form.getByRole("textbox", { name: "Addl. Day Rate" }).inputValue(), "60");
      assert.equal(await form.getByRole("textbox", { name: "Addl. Days" }).inputValue(), "0");
      for (const gone of ["Start Date", "End Date", "Hours", "Available Quantity", "Price"]) {
        assert.equal(await form.getByRole("textbox", { name: gone, exact: true }).count(), 0, gone);
      }
      assert.equal(await form.getByText("Attachment").count(), 0);
      // Serialized: at most 1, the server's message.
      const quantity = form.getByRole("spinbutton", { name: "Quantity" });
      await quantity.fill("2");
      await quantity.blur();
      await form.getByText("Must be at most 1").waitFor();
      assert.equal(await form.getByRole("button", { name: "Save" }).isDisabled(), true);
      await quantity.fill("1");
      await form.getByText("Hide when printing").click();
      assert.equal(await form.getByRole("checkbox", { name: "Hide when printing" }).isChecked(), true);
      await form.getByRole("button", { name: "Save" }).click();
      await page.getByRole("status").getByText("Line item added").waitFor();
      await form.waitFor({ state: "detached" });
      await page.getByRole("table", { name: "Line items" }).getByRole("row", { name: /PUMP-1/ }).waitFor();
      const [line] = await db.select().from(sales).where(eq(sales.ticket_id, quote.id));
      assert.deepEqual(
        [line.inventory_id, line.minimum_rate, line.price, line.duration, line.start_date, line.custom],
        [row.id, 300, 60, 0, null, { hide: true }],
      );
    }),
);
