import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { browserTest, withBrowser } from "../../../scripts/testing/browser.ts";
import { makeCategory, makeInventory, makeItem, makeLine, makeTicket } from "../../../db/factories.ts";
import { sales } from "../../../db/schema/mod.ts";

browserTest(
  "line picker - each row's business unit, availability and status; what cannot go out is disabled; Save says what it needs",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      const db = env.tenant.db;
      const midland = await makeCategory(db, { model: "Business Unit", name: "Midland" });
      const odessa = await makeCategory(db, { model: "Business Unit", name: "Odessa" });
      const valve = await makeItem(db, {
        item_number: "PV-2",
        item_description: "2in plug valve",
        rate: 150,
        inventory_type: "Serialized",
      });
      const row = (serial_number: string, business_unit_id: number, status: "Available" | "Repair") =>
        makeInventory(db, { item_id: valve.id, business_unit_id, serial_number, quantity: 1, status });
      const ours = await row("PV-2-10001", midland.id, "Available");
      await row("PV-2-10005", midland.id, "Repair");
      await row("PV-2-10007", odessa.id, "Available");
      const ticket = await makeTicket(db, { business_unit_id: midland.id, use_min_rate_logic: false });
      const { user } = await env.userWithToken({ name: "Sam Sales" });

      await signIn(user.email, "password123", `/sales/tickets/${ticket.id}`);
      await page.getByRole("button", { name: "New Line Item" }).click();
      const form = page.getByRole("dialog", { name: "New Line Item" });
      await form.getByText("Save needs: Inventory, Price.").waitFor();
      await form.getByRole("combobox", { name: "Inventory" }).fill("PV-2");
      const option = (serial: string) => page.getByRole("option", { name: new RegExp(serial) });
      await option("PV-2-10007").waitFor();
      const texts = (await page.getByRole("option").allInnerTexts()).map((t) =>
        t.replace(/\s+/g, " ").trim()
      );
      assert.deepEqual(texts, [
        "PV-2-10001 | PV-2 | 2in plug valve Midland · 1 available · Available",
        "PV-2-10005 | PV-2 | 2in plug valve Midland · 1 available · Repair — cannot go out on this ticket",
        "PV-2-10007 | PV-2 | 2in plug valve Odessa · 1 available · Available — cannot go out on this ticket",
      ], "the ticket's unit first");
      assert.deepEqual(
        await Promise.all(
          ["PV-2-10001", "PV-2-10005", "PV-2-10007"].map((s) => option(s).getAttribute("aria-disabled")),
        ),
        [null, "true", "true"],
      );
      await option("PV-2-10005").click({ force: true });
      assert.equal(
        await form.getByRole("combobox", { name: "Inventory" }).inputValue(),
        "PV-2",
        "not chosen",
      );
      await option("PV-2-10001").click();

      // Save is disabled with the reason under the form, and enabled once the fields are right.
      const save = form.getByRole("button", { name: "Save" });
      await form.getByRole("textbox", { name: "Start Date" }).fill("");
      await form.getByText("Save needs: Start Date.").waitFor();
      assert.equal(await save.isDisabled(), true);
      await form.getByRole("textbox", { name: "Start Date" }).fill("2026-11-02T08:00");
      await form.getByText(/^Save needs/).waitFor({ state: "detached" });
      await save.click();
      await page.getByRole("status").getByText("Line item added").waitFor();
      const [line] = await db.select().from(sales).where(eq(sales.ticket_id, ticket.id));
      assert.equal(line.inventory_id, ours.id);

      // Editing a line is sales-admin's: a sales user has no Edit on the row.
      await page.getByRole("button", { name: "Inventory log PV-2-10001" }).waitFor();
      assert.equal(await page.getByRole("button", { name: "Edit line PV-2-10001" }).count(), 0);
    }),
);

browserTest(
  "line form - a line without a start date (copied from a quote) opens with one and saves",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      const db = env.tenant.db;
      const item = await makeItem(db, { item_number: "HOSE-1", item_description: "2in hose", rate: 40 });
      const row = await makeInventory(db, { item_id: item.id, serial_number: "H-1", quantity: 5 });
      const ticket = await makeTicket(db, { use_min_rate_logic: false });
      const line = await makeLine(db, {
        ticket_id: ticket.id,
        inventory_id: row.id,
        price: 40,
        start_date: null,
      });
      const { user } = await env.userWithToken({ name: "Ada Admin", permissions: ["sales-admin"] });

      await signIn(user.email, "password123", `/sales/tickets/${ticket.id}`);
      await page.getByRole("button", { name: "Edit line H-1" }).click();
      const form = page.getByRole("dialog", { name: "Edit Line Item" });
      assert.notEqual(await form.getByRole("textbox", { name: "Start Date" }).inputValue(), "");
      assert.equal(await form.getByText(/^Save needs/).count(), 0);
      await form.getByRole("button", { name: "Save" }).click();
      await page.getByRole("status").getByText("Line item updated").waitFor();
      const saved = (await db.select().from(sales).where(eq(sales.id, line.id)).get())!;
      assert.ok(saved.start_date);
    }),
);
