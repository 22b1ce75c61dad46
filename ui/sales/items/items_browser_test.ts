import assert from "node:assert/strict";
import type { Locator } from "playwright-core";
import { browserTest, withBrowser } from "../../../scripts/testing/browser.ts";
import { makeCategory, makeItem } from "../../../db/factories.ts";
import { inventory, inventory_audit, items } from "../../../db/schema/mod.ts";

browserTest(
  "items - a sales admin creates an item with add-to-inventory",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      const unit = await makeCategory(env.tenant.db, { model: "Business Unit", name: "Odessa Yard" });
      await makeCategory(env.tenant.db, { model: "Item Category", name: "Flow Iron" });
      await signIn(undefined, undefined, "/sales/items");
      await page.getByRole("heading", { name: "Items" }).waitFor();
      const table = page.getByRole("table", { name: "Items" });
      await table.getByText("No Items Found").waitFor();

      await page.getByRole("button", { name: "New", exact: true }).click();
      const dialog = page.getByRole("dialog", { name: "New Item" });
      const save = dialog.getByRole("button", { name: "Save" });
      assert.equal(await save.isDisabled(), true, "item number and inventory type are required");
      await dialog.getByRole("textbox", { name: "Item Number" }).fill("PUMP-3");
      await dialog.getByRole("button", { name: /Inventory Type/ }).click();
      await page.getByRole("option", { name: "Serialized" }).click();
      await dialog.getByRole("textbox", { name: "Item Description" }).fill("Triplex pump");
      await dialog.getByRole("spinbutton", { name: "Rate" }).fill("1250.5");
      await dialog.getByRole("button", { name: /Units/ }).click();
      await page.getByRole("option", { name: "Per Day" }).click();
      await dialog.getByRole("button", { name: /Item Type/ }).click();
      await page.getByRole("option", { name: "Rental" }).click();
      await dialog.getByRole("combobox", { name: "Category" }).fill("Flow");
      await page.getByRole("option", { name: "Flow Iron" }).click();
      await dialog.getByRole("checkbox", { name: "Taxable" }).focus();
      await page.keyboard.press("Space");

      await dialog.getByRole("checkbox", { name: "Add to inventory" }).focus();
      await page.keyboard.press("Space");
      await dialog.getByRole("textbox", { name: "Serial Number" }).fill("TP-0001");
      const quantity = dialog.getByRole("spinbutton", { name: "Quantity" });
      await quantity.fill("2");
      await dialog.getByText("Cannot exceed 1 for Serialized items").waitFor();
      assert.equal(await save.isDisabled(), true);
      await quantity.fill("1");
      await dialog.getByText("Cannot exceed 1 for Serialized items").waitFor({ state: "detached" });
      assert.equal(await save.isDisabled(), true, "a business unit is required");
      await dialog.getByRole("combobox", { name: "Business Unit" }).fill("Odessa");
      await page.getByRole("option", { name: "Odessa Yard" }).click();
      await save.click();
      await page.getByRole("status").getByText("Item created").waitFor();
      await dialog.waitFor({ state: "detached" });
      const row = table.getByRole("row", { name: /PUMP-3/ });
      await row.waitFor();
      assert.match(
        await row.innerText(),
        /Triplex pump\s+\$1,250\.50\s+Per Day\s+Serialized\s+Rental\s+Yes\s+No\s+No\s+Flow Iron/,
      );

      const [item] = await env.tenant.db.select().from(items);
      assert.deepEqual([item.item_number, item.isTaxable, item.rate], ["PUMP-3", true, 1250.5]);
      const stock = await env.tenant.db.select().from(inventory);
      assert.deepEqual(
        stock.map((s) => [s.item_id, s.business_unit_id, s.serial_number, s.quantity]),
        [[item.id, unit.id, "TP-0001", 1]],
      );
      const log = await env.tenant.db.select().from(inventory_audit);
      assert.deepEqual(log.map((a) => [a.action, a.inventory_id, a.quantity_change]), [[
        "Created",
        stock[0].id,
        1,
      ]]);

      // The expanded row offers Edit, View Sales and Delete; an item with stock is not deleted.
      await row.getByRole("button", { name: "Expand row" }).click();
      assert.equal(
        await table.getByRole("link", { name: "View Sales" }).getAttribute("href"),
        "/sales/data?item_number=PUMP-3",
      );
      await table.getByRole("button", { name: "Delete" }).click();
      const confirm = page.getByRole("dialog", { name: "Please confirm" });
      await confirm.getByText("Are you sure you want to delete this item?").waitFor();
      await confirm.getByText("WARNING: This cannot be undone.").waitFor();
      await confirm.getByRole("button", { name: "Yes" }).click();
      await page.getByRole("alert").getByText("This item has inventory.").waitFor();
    }),
);

const HEADER = "Item Number\tItem\tRate\tCategory\tUnits\tType\tTaxable\tExpendable\tService";

/** What a paste from a spreadsheet fires: a paste event carrying tab-separated text. */
function pasteInto(cell: Locator, text: string) {
  return cell.evaluate((el, pasted) => {
    const data = new DataTransfer();
    data.setData("text/plain", pasted);
    el.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);
}

browserTest(
  "items - a pasted batch with one bad row saves nothing and names the row; fixed, it uploads",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      await makeCategory(env.tenant.db, { model: "Item Category", name: "Flow Iron" });
      await signIn(undefined, undefined, "/sales/items");
      await page.getByRole("button", { name: "Batch Upload" }).click();
      const dialog = page.getByRole("dialog", { name: "Batch Upload" });
      const grid = dialog.getByRole("table", { name: "Rows to upload" });
      const rows = [
        HEADER,
        "B-1\t2in plug valve\t40\tFlow Iron\tPer Day\tRental\tyes\tno\t",
        `B-2\t"3"" hose\nwith fittings"\tcheap\t\tPer Item\tSales\t\tx\t`,
        "\t\t\t\t\t\t\t\t",
        "B-3\tCrew hour\t95\t\tPer Hour\tSales\t\t\tyes",
        "",
      ].join("\n");
      await pasteInto(grid.getByRole("textbox", { name: "Row 1, Item Number" }), rows);
      await dialog.getByText("3 rows to upload").waitFor();
      assert.equal(await grid.getByRole("textbox", { name: "Row 3, Item Number" }).inputValue(), "");
      assert.equal(await grid.getByRole("textbox", { name: "Row 4, Item Number" }).inputValue(), "B-3");
      await dialog.getByRole("button", { name: "Upload" }).click();
      const alert = dialog.getByRole("alert");
      await alert.getByText("1 row has errors").waitFor();
      await alert.getByText("Row 2, Rate: Must be a number").waitFor();
      const bad = grid.getByRole("textbox", { name: "Row 2, Rate" });
      assert.equal(await bad.getAttribute("aria-invalid"), "true");
      assert.equal(await bad.inputValue(), "cheap");
      assert.equal((await env.tenant.db.select().from(items)).length, 0, "nothing is saved");

      await bad.fill("$12.50");
      await alert.waitFor({ state: "detached" });
      assert.equal(await bad.getAttribute("aria-invalid"), null);
      await dialog.getByRole("button", { name: "Upload" }).click();
      await dialog.getByRole("table", { name: /Check the changes: 3 items to create, 0 to replace/ })
        .waitFor();
      await dialog.getByRole("button", { name: "Save" }).click();
      await page.getByRole("status").getByText("3 items created, 0 updated").waitFor();
      await dialog.waitFor({ state: "detached" });
      const table = page.getByRole("table", { name: "Items" });
      await table.getByRole("row", { name: /B-3/ }).waitFor();
      const saved = await env.tenant.db.select().from(items).orderBy(items.item_number);
      assert.deepEqual(
        saved.map((
          i,
        ) => [i.item_number, i.item_description, i.rate, i.isTaxable, i.isExpendable, i.isService]),
        [
          ["B-1", "2in plug valve", 40, true, false, false],
          ["B-2", '3" hose\nwith fittings', 12.5, false, true, false],
          ["B-3", "Crew hour", 95, false, false, true],
        ],
      );
      assert.notEqual(saved[0].category_id, null);
    }),
);

browserTest(
  "items - a batch row with a catalogue's Item Number says it replaces that item, field by field, before Save",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      const db = env.tenant.db;
      const flow = await makeCategory(db, { model: "Item Category", name: "Flow Iron" });
      await makeCategory(db, { model: "Item Category", name: "Valves" });
      await makeItem(db, {
        item_number: "PV-2",
        item_description: "2in plug valve",
        rate: 40,
        category_id: flow.id,
        units: "Per Day",
      });
      await signIn(undefined, undefined, "/sales/items");
      await page.getByRole("button", { name: "Batch Upload" }).click();
      const dialog = page.getByRole("dialog", { name: "Batch Upload" });
      // The dialog says what a known Item Number does before anything is typed.
      await dialog.getByText(/already in the catalogue replaces that item's fields/).waitFor();
      const grid = dialog.getByRole("table", { name: "Rows to upload" });
      await pasteInto(
        grid.getByRole("textbox", { name: "Row 1, Item Number" }),
        "Item Number\tItem\tRate\tCategory\nPV-2\t2in plug valve\t45\tValves\nPV-3\t3in plug valve\t60\t\n",
      );
      await dialog.getByText("2 rows to upload").waitFor();
      await dialog.getByRole("button", { name: "Upload" }).click();
      const preview = dialog.getByRole("table", {
        name: /Check the changes: 1 item to create, 1 to replace/,
      });
      await preview.waitFor();
      const replaced = await preview.getByRole("row", { name: /PV-2/ }).innerText();
      assert.match(replaced, /Replaces the item/);
      assert.match(replaced, /Rate: 40 \u2192 45/);
      assert.match(replaced, /Category: Flow Iron \u2192 Valves/);
      assert.doesNotMatch(replaced, /Item: /, "an unchanged field is not listed");
      assert.match(await preview.getByRole("row", { name: /PV-3/ }).innerText(), /New item/);
      const before = await db.select().from(items).orderBy(items.item_number);
      assert.deepEqual(
        before.map((i) => [i.item_number, i.rate]),
        [["PV-2", 40]],
        "nothing saved before Save",
      );
      await dialog.getByRole("button", { name: "Save" }).click();
      await page.getByRole("status").getByText("1 item created, 1 updated").waitFor();
      const after = await db.select().from(items).orderBy(items.item_number);
      assert.deepEqual(after.map((i) => [i.item_number, i.rate]), [["PV-2", 45], ["PV-3", 60]]);
    }),
);
