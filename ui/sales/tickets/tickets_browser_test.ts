import assert from "node:assert/strict";
import { asc, eq } from "drizzle-orm";
import { browserTest, withBrowser } from "../../../scripts/testing/browser.ts";
import { makeCategory, makeCompany, makeInventory, makeItem, makeTicket } from "../../../db/factories.ts";
import { sales, templates, tickets } from "../../../db/schema/mod.ts";

browserTest(
  "tickets - a sales user creates a ticket from a template and finds it in the Tickets list",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      const db = env.tenant.db;
      await makeCompany(db, { name: "Permian Energy" });
      const { user: rep } = await env.userWithToken({ name: "Rita Rep", isSalesRep: true });
      const unit = await makeCategory(db, { model: "Business Unit", name: "Odessa Yard" });
      const pump = await makeItem(db, { item_number: "PUMP-1", rate: 125, inventory_type: "Serialized" });
      const hose = await makeItem(db, { item_number: "HOSE-1", rate: 40.5 });
      const a = await makeInventory(db, {
        item_id: pump.id,
        business_unit_id: unit.id,
        quantity: 1,
        minimum_rate: 300,
      });
      const b = await makeInventory(db, {
        item_id: hose.id,
        business_unit_id: unit.id,
        quantity: 10,
        minimum_rate: 50.25,
      });
      await db.insert(templates).values({
        company_id: 1,
        name: "Frac Spread",
        business_unit_id: unit.id,
        inventory_ids: [b.id, a.id],
      });

      await signIn(rep.email, "password123", "/sales/tickets");
      await page.getByRole("heading", { name: "Tickets" }).waitFor();
      const table = page.getByRole("table", { name: "Tickets" });
      await table.getByText("No Data Found").waitFor();

      await page.getByRole("button", { name: "New Ticket" }).click();
      const dialog = page.getByRole("dialog", { name: "New Ticket" });
      const save = dialog.getByRole("button", { name: "Save" });
      assert.equal(await save.isDisabled(), true, "customer and sales rep are required");
      await dialog.getByRole("combobox", { name: "Customer" }).focus();
      await page.keyboard.press("Tab");
      await dialog.getByText("Customer is required").waitFor();
      // Focus has moved on to Sales Rep, whose list is open.
      await page.keyboard.type("Rita");
      await page.getByRole("option", { name: "Rita Rep" }).click();
      await dialog.getByRole("combobox", { name: "Customer" }).fill("Permian");
      await page.getByRole("option", { name: "Permian Energy" }).click();
      await dialog.getByText("Customer is required").waitFor({ state: "detached" });
      assert.equal(await dialog.getByRole("checkbox", { name: "Use Min Rate Logic" }).isChecked(), true);
      await dialog.getByRole("combobox", { name: "Business Unit" }).fill("Odessa");
      await page.getByRole("option", { name: "Odessa Yard" }).click();
      await dialog.getByRole("button", { name: /Template/ }).click();
      await page.getByRole("option", { name: "Frac Spread" }).click();
      await dialog.getByRole("textbox", { name: "Location" }).fill("Pad 7");
      await dialog.getByRole("textbox", { name: "Notes" }).fill("Rush job");
      assert.equal(await save.isDisabled(), false);
      await save.click();

      await page.getByRole("status").getByText("Ticket created: T-00001").waitFor();
      await dialog.waitFor({ state: "detached" });
      const row = table.getByRole("row", { name: /T-00001/ });
      await row.waitFor();
      // Min-rate logic on, duration 0: each line is its minimum rate.
      assert.match(
        await row.innerText(),
        /T-00001\s+\d{2}-\d{2}-\d{2}\s+Permian Energy\s+Rita Rep\s+Open\s+\$350\.25/,
      );

      const [ticket] = await db.select().from(tickets);
      assert.deepEqual(
        [
          ticket.ticket_number,
          ticket.status,
          ticket.use_min_rate_logic,
          ticket.business_unit_id,
          ticket.location,
        ],
        ["T-00001", "OPEN", true, unit.id, "Pad 7"],
      );
      const lines = await db.select().from(sales).where(eq(sales.ticket_id, ticket.id)).orderBy(
        asc(sales.order),
      );
      assert.deepEqual(
        lines.map((l) => [l.inventory_id, l.quantity, l.price, l.minimum_rate]),
        [[b.id, 1, 40.5, 50.25], [a.id, 1, 125, 300]],
      );

      await row.getByRole("button", { name: "Expand row" }).click();
      const details = table.locator(".row-details");
      await details.getByText("Rush job").waitFor();
      await details.getByText("Odessa Yard").waitFor();
      assert.match(await details.innerText(), /Subtotal\s+\$350\.25[\s\S]*Grand Total\s+\$350\.25/);

      const link = row.getByRole("link", { name: "T-00001" });
      assert.equal(await link.getAttribute("href"), `/sales/tickets/${ticket.id}`);

      await page.getByRole("searchbox", { name: "Ticket Number" }).fill("nope");
      await table.getByText("No Data Found").waitFor();
      assert.match(page.url(), /search_ticket_number=nope/);

      // The number opens the ticket's screen under this list.
      await page.getByRole("searchbox", { name: "Ticket Number" }).fill("");
      await link.waitFor();
      await link.click();
      await page.waitForURL((url) => url.pathname === `/sales/tickets/${ticket.id}`);
    }),
);

browserTest(
  "tickets - an office user filters the Tickets list by flow, shows invoices, and sees paid invoices by invoice date",
  () =>
    withBrowser(async ({ env, page, signIn, base, hydrated }) => {
      const db = env.tenant.db;
      const customer = await makeCompany(db, { name: "Permian Energy" });
      for (const status of ["OPEN", "RFB", "RFA", "APP"] as const) {
        await makeTicket(db, {
          customer_id: customer.id,
          ticket_number: `NUM-${status}`,
          status,
          ticket_date: "2026-01-05",
          ...(status === "APP"
            ? { isInvoice: true, invoice_number: "INV-00042", invoice_date: "2026-02-10", isPaid: true }
            : {}),
        });
      }
      const { user } = await env.userWithToken({ name: "Office" });
      await signIn(user.email, "password123", "/sales/tickets");
      const table = page.getByRole("table", { name: "Tickets" });
      await table.getByRole("row", { name: /NUM-OPEN/ }).waitFor();
      assert.equal(await table.getByRole("row", { name: /NUM-RFB/ }).count(), 0, "Open by default");

      // Ticket Flow: Ready To Bill.
      const flow = page.getByLabel("Ticket Flow");
      await flow.selectOption({ label: "Ready To Bill" });
      await table.getByRole("row", { name: /NUM-RFB/ }).waitFor();
      assert.equal(await table.getByRole("row", { name: /NUM-OPEN/ }).count(), 0);
      assert.match(page.url(), /ticketFlowFilter=RFB/);

      await flow.selectOption({ label: "All" });
      await table.getByRole("row", { name: /NUM-RFA/ }).waitFor();
      assert.equal(await table.getByRole("row", { name: /NUM-APP/ }).count(), 0, "no invoices yet");
      await page.getByRole("checkbox", { name: "Show Invoiced" }).focus();
      await page.keyboard.press("Space");
      await table.getByRole("row", { name: /NUM-APP/ }).waitFor();
      assert.match(page.url(), /showInvoiced=true/);
      // The state is in the URL: a reload keeps it.
      await page.reload();
      await hydrated();
      await table.getByRole("row", { name: /NUM-APP/ }).waitFor();
      assert.equal(await page.getByRole("checkbox", { name: "Show Invoiced" }).isChecked(), true);

      await page.goto(`${base}/sales/invoices`);
      await hydrated();
      const invoices = page.getByRole("table", { name: "Invoices" });
      const row = invoices.getByRole("row", { name: /NUM-APP/ });
      await row.waitFor();
      // Dated by the invoice, with its paid state.
      assert.match(await row.innerText(), /INV-00042\s+02-10-26\s+Permian Energy[\s\S]*Approved\s+Paid/);
      await invoices.getByRole("columnheader", { name: "Invoice Date" }).waitFor();
      await page.getByRole("checkbox", { name: "Hide Paid" }).focus();
      await page.keyboard.press("Space");
      await invoices.getByText("No Data Found").waitFor();
    }),
);

browserTest(
  "tickets - each stage list downloads what it lists, with its searches, as <List>-YYYY-MM-DD.xlsx",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      const db = env.tenant.db;
      const customer = await makeCompany(db, { name: "Permian Energy" });
      await makeTicket(db, {
        customer_id: customer.id,
        ticket_number: "T-00031",
        status: "APP",
        isInvoice: true,
      });
      await makeTicket(db, {
        customer_id: customer.id,
        ticket_number: "T-00032",
        status: "APP",
        isInvoice: true,
      });
      await makeTicket(db, { customer_id: customer.id, ticket_number: "T-00033", status: "OPEN" });
      const { user } = await env.userWithToken({ name: "Gil General" });
      await signIn(user.email, "password123", "/sales/invoices?search_ticket_number=00032");
      await page.getByRole("table", { name: "Invoices" }).getByRole("link", { name: "T-00032" }).waitFor();
      const [response, file] = await Promise.all([
        page.waitForResponse((r) => r.url().includes("/api/sales/tickets/download")),
        page.waitForEvent("download"),
        page.getByRole("button", { name: "Download" }).click(),
      ]);
      const url = new URL(response.url());
      assert.deepEqual(
        [url.searchParams.get("ticketFlowFilter"), url.searchParams.get("search_ticket_number")],
        ["APP", "00032"],
      );
      assert.equal(url.searchParams.get("page"), "-1");
      assert.match(file.suggestedFilename(), /^Invoices-\d{4}-\d{2}-\d{2}\.xlsx$/);
      const bytes = await Deno.readFile((await file.path())!);
      assert.deepEqual([...bytes.subarray(0, 2)], [0x50, 0x4b], "an xlsx (zip) file");
    }),
);
