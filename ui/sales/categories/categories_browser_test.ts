import assert from "node:assert/strict";
import { browserTest, withBrowser } from "../../../scripts/testing/browser.ts";
import { eq } from "drizzle-orm";
import type { CategoryOut } from "../../../api/sales/categories/schemas.ts";
import { makeCategory, makeInventory } from "../../../db/factories.ts";
import { inventory, inventory_locations } from "../../../db/schema/mod.ts";

browserTest(
  "business units - a sales admin creates a unit with two locations, renames one and deletes the unit",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      const token = await env.login();
      const units = async () =>
        (await env.json<{ results: CategoryOut[] }>("/api/sales/categories?model=Business%20Unit", { token }))
          .results;
      await signIn(undefined, undefined, "/sales/business-units");
      await page.getByRole("heading", { name: "Business Units" }).waitFor();
      const table = page.getByRole("table", { name: "Business Units" });
      await table.getByText("No Data Found").waitFor();

      // Create with two locations; 'Base' is refused before anything is sent.
      await page.getByRole("button", { name: "New", exact: true }).click();
      let dialog = page.getByRole("dialog", { name: "New Business Unit" });
      const save = dialog.getByRole("button", { name: "Save" });
      assert.equal(await save.isDisabled(), true, "Name is required");
      await dialog.getByRole("textbox", { name: "Name" }).fill("Odessa Yard");
      await dialog.getByRole("button", { name: "Add Location" }).click();
      await dialog.getByRole("textbox", { name: "Location 1" }).fill("base");
      await dialog.getByRole("textbox", { name: "Location 1" }).blur();
      await dialog.getByText("'Base' is the default location").waitFor();
      assert.equal(await save.isDisabled(), true);
      await dialog.getByRole("textbox", { name: "Location 1" }).fill("North Rack");
      await dialog.getByRole("button", { name: "Add Location" }).click();
      await dialog.getByRole("textbox", { name: "Location 2" }).fill("South Rack");
      await save.click();
      await page.getByRole("status").getByText("Business Unit created").waitFor();
      await dialog.waitFor({ state: "detached" });
      const row = table.getByRole("row", { name: /Odessa Yard/ });
      await row.getByText("North Rack, South Rack").waitFor();
      assert.deepEqual((await units())[0].custom.locations, ["North Rack", "South Rack"]);

      // Rename the second location: the stock held there keeps up.
      const stock = await makeInventory(env.tenant.db, {
        business_unit_id: (await units())[0].id,
        quantity: 3,
        quantity_out_location: 2,
      });
      await env.tenant.db.insert(inventory_locations).values({
        inventory_id: stock.id,
        name: "South Rack",
        quantity: 2,
      });
      await row.getByRole("button", { name: "Expand row" }).click();
      await table.getByRole("button", { name: "Edit" }).click();
      dialog = page.getByRole("dialog", { name: "Edit Business Unit" });
      const second = dialog.getByRole("textbox", { name: "Location 2" });
      assert.equal(await second.inputValue(), "South Rack");
      await second.fill("Pipe Yard");
      await dialog.getByRole("button", { name: "Save" }).click();
      await page.getByRole("status").getByText("Business Unit updated").waitFor();
      await row.getByText("North Rack, Pipe Yard").waitFor();
      assert.deepEqual((await units())[0].custom.locations, ["North Rack", "Pipe Yard"]);
      const held = await env.tenant.db.select().from(inventory_locations);
      assert.deepEqual(held.map((l) => [l.name, l.quantity]), [["Pipe Yard", 2]]);

      // Delete the unit, through the confirmation: refused while it holds stock, then done.
      const expand = row.getByRole("button", { name: "Expand row" });
      if (await expand.count()) await expand.click();
      const confirm = page.getByRole("dialog", { name: "Please confirm" });
      await table.getByRole("button", { name: "Delete" }).click();
      await confirm.getByText("Are you sure you want to delete this item?").waitFor();
      await confirm.getByText("WARNING: This cannot be undone.").waitFor();
      await confirm.getByRole("button", { name: "Yes" }).click();
      await page.getByRole("alert").getByText("This business unit is used by 1 inventory row.").waitFor();
      await env.tenant.db.delete(inventory).where(eq(inventory.id, stock.id));
      await table.getByRole("button", { name: "Delete" }).click();
      await confirm.getByRole("button", { name: "Yes" }).click();
      await page.getByRole("status").getByText("Business Unit deleted").waitFor();
      await table.getByText("No Data Found").waitFor();
      assert.deepEqual(await units(), []);
    }),
);

browserTest(
  "categories - each list downloads its own model with its search, as <List>-YYYY-MM-DD.xlsx",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      await makeCategory(env.tenant.db, { model: "Business Unit", name: "Odessa Yard" });
      await makeCategory(env.tenant.db, { model: "Business Unit", name: "Midland Yard" });
      const { user } = await env.userWithToken({ name: "Gil General" });
      await signIn(user.email, "password123", "/sales/business-units?search_name=odessa");
      await page.getByRole("table", { name: "Business Units" }).getByText("Odessa Yard").waitFor();
      const [response, file] = await Promise.all([
        page.waitForResponse((r) => r.url().includes("/api/sales/categories/download")),
        page.waitForEvent("download"),
        page.getByRole("button", { name: "Download" }).click(),
      ]);
      const url = new URL(response.url());
      assert.deepEqual(
        [url.searchParams.get("model"), url.searchParams.get("search_name"), url.searchParams.get("page")],
        ["Business Unit", "odessa", "-1"],
      );
      assert.match(file.suggestedFilename(), /^Business-Units-\d{4}-\d{2}-\d{2}\.xlsx$/);
    }),
);
