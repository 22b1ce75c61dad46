import assert from "node:assert/strict";
import { browserTest, withBrowser } from "../../../../scripts/testing/browser.ts";
import { makeCategory, makeCompany, makeInventory, makeItem } from "../../../../db/factories.ts";
import { templates, tickets } from "../../../../db/schema/mod.ts";

browserTest(
  "new ticket from a template short of stock - the message names the line and its five figures; the form keeps what was typed",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      const db = env.tenant.db;
      await makeCompany(db, { name: "Permian Energy" });
      const { user: rep } = await env.userWithToken({ name: "Rita Rep", isSalesRep: true });
      const unit = await makeCategory(db, { model: "Business Unit", name: "Midland" });
      const charge = await makeInventory(db, {
        item_id: (await makeItem(db, { item_number: "CC-DEL", inventory_type: "Charge Code", rate: 350 })).id,
        business_unit_id: unit.id,
        serial_number: "MID-CC-DEL",
        quantity: 0,
      });
      const swivel = await makeInventory(db, {
        item_id: (await makeItem(db, {
          item_number: "FI-2SW",
          item_description: "2in 1502 Chiksan swivel joint",
          inventory_type: "Itemized",
          rate: 45,
        })).id,
        business_unit_id: unit.id,
        serial_number: "MID-FI-2SW",
        quantity: 12,
        quantity_out: 8,
        quantity_out_location: 4,
      });
      await db.insert(templates).values({
        company_id: 1,
        name: "Midland flowback rig-up",
        business_unit_id: unit.id,
        inventory_ids: [charge.id, swivel.id],
      });

      await signIn(rep.email, "password123", "/sales/tickets");
      await page.getByRole("button", { name: "New Ticket" }).click();
      const dialog = page.getByRole("dialog", { name: "New Ticket" });
      await dialog.getByRole("combobox", { name: "Sales Rep" }).fill("Rita");
      await page.getByRole("option", { name: "Rita Rep" }).click();
      await dialog.getByRole("combobox", { name: "Customer" }).fill("Permian");
      await page.getByRole("option", { name: "Permian Energy" }).click();
      await dialog.getByRole("combobox", { name: "Business Unit" }).fill("Midland");
      await page.getByRole("option", { name: "Midland" }).click();
      await dialog.getByRole("button", { name: /Template/ }).click();
      await page.getByRole("option", { name: "Midland flowback rig-up" }).click();
      await dialog.getByRole("textbox", { name: "Location" }).fill("Pad 7");
      await dialog.getByRole("button", { name: "Save" }).click();

      const snack = page.getByRole("status").getByText(
        /^ERROR: Line item quantity exceeds available inventory:/,
      );
      await snack.waitFor();
      assert.equal(
        (await snack.innerText()).trim(),
        "ERROR: Line item quantity exceeds available inventory: Line 2, FI-2SW | MID-FI-2SW | " +
          "2in 1502 Chiksan swivel joint: Inventory Quantity 12, Quantity Out (Tickets) 8, " +
          "Quantity Out (Location) 4, Available Quantity 0, Line Quantity 1.",
      );
      assert.equal(await dialog.getByRole("textbox", { name: "Location" }).inputValue(), "Pad 7");
      assert.equal((await db.select().from(tickets)).length, 0, "no ticket is made");
    }),
);
