import assert from "node:assert/strict";
import type { Locator, Page } from "playwright-core";
import { browserTest, eventually, withBrowser } from "../../../scripts/testing/browser.ts";
import { makeCategory, makeInventory, makeItem } from "../../../db/factories.ts";
import { inventory } from "../../../db/schema/mod.ts";
import type { TestEnv } from "../../../scripts/testing/harness.ts";
import { PICK_ROWS_FIRST } from "./PrintLabels.tsx";

/** A row's cells, as shown. */
const cells = async (row: Locator) => (await row.getByRole("cell").allInnerTexts()).map((t) => t.trim());

/** Opens a row's actions menu and picks one. */
async function act(page: Page, row: Locator, name: string, action: string) {
  await row.getByRole("button", { name: `Actions for ${name}` }).click();
  await page.getByRole("menuitem", { name: action }).click();
}

/** Quantities of the rows of an item by business unit, as the API answers them. */
async function apiStock(env: TestEnv, token: string) {
  const body = await env.json("/api/sales/inventory?inventory_type=Itemized", { token });
  return Object.fromEntries(
    body.results.map((
      r: any,
    ) => [r.business_unit.name, [r.quantity, r.quantity_out_location, r.quantity_available, r.locations]]),
  );
}

browserTest(
  "inventory - a sales admin transfers stock to another business unit and to a location, and back to Base",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      const db = env.tenant.db;
      const odessa = await makeCategory(db, { name: "Odessa" });
      await makeCategory(db, { name: "Midland", custom: { locations: ["Yard A", "Yard B"] } });
      const iron = await makeItem(db, {
        item_number: "IRON-2",
        item_description: "2in iron",
        inventory_type: "Itemized",
      });
      await makeInventory(db, {
        item_id: iron.id,
        business_unit_id: odessa.id,
        serial_number: "LOT-7",
        quantity: 20,
      });
      const token = await env.login();
      await signIn(undefined, undefined, "/sales/itemized-inventory");
      await page.getByRole("heading", { name: "Itemized Inventory" }).waitFor();
      const table = page.getByRole("table", { name: "Itemized Inventory" });
      const odessaRow = table.getByRole("row", { name: /Odessa/ });
      assert.deepEqual((await cells(odessaRow)).slice(1, 9), [
        "LOT-7",
        "IRON-2",
        "2in iron",
        "Odessa",
        "20",
        "0",
        "0",
        "20",
      ]);

      // Business unit transfer: the quantity is checked against what is available, then confirmed.
      await act(page, odessaRow, "LOT-7", "Business Unit Transfer");
      const unitDialog = page.getByRole("dialog", { name: "Transfer quantity to other Business Unit" });
      const transfer = unitDialog.getByRole("button", { name: "Transfer" });
      await unitDialog.getByRole("spinbutton", { name: "Quantity" }).fill("25");
      await unitDialog.getByText("Cannot exceed current quantity: 20").waitFor();
      assert.equal(await transfer.isDisabled(), true);
      await unitDialog.getByRole("spinbutton", { name: "Quantity" }).fill("8");
      await unitDialog.getByRole("combobox", { name: "Business Unit" }).fill("Mid");
      await page.getByRole("option", { name: "Midland" }).click();
      await transfer.click();
      const confirm = page.getByRole("dialog", { name: "Please confirm" });
      await confirm.getByText("Are you sure you want to make this transfer?").waitFor();
      // The transfer is held until its busy state has been read, then let through to the real server.
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      const sent = new Promise<void>((resolve) => {
        page.route("**/api/sales/inventory/business-unit-transfer", async (route) => {
          resolve();
          await held;
          await route.continue();
        });
      });
      await confirm.getByRole("button", { name: "Yes" }).click();
      await sent;
      const busy = confirm.getByRole("button", { name: "Transferring..." });
      await busy.waitFor();
      assert.equal(await busy.isDisabled(), true, "a second press sends nothing");
      assert.equal(await confirm.getByRole("status").innerText(), "Transferring, please wait...");
      release();
      await page.getByRole("status").getByText("Transferred 8 to Midland").waitFor();
      await unitDialog.waitFor({ state: "detached" });
      const midlandRow = table.getByRole("row", { name: /Midland/ });
      await midlandRow.waitFor();
      await eventually(async () =>
        assert.deepEqual((await cells(odessaRow)).slice(5, 9), ["12", "0", "0", "12"])
      );
      assert.deepEqual((await cells(midlandRow)).slice(1, 9), [
        "LOT-7",
        "IRON-2",
        "2in iron",
        "Midland",
        "8",
        "0",
        "0",
        "8",
      ]);
      assert.deepEqual(
        (await cells(table.getByRole("row", { name: /Totals/ }))).slice(-7, -3),
        ["20", "0", "0", "20"],
      );
      assert.deepEqual(await apiStock(env, token), { Odessa: [12, 0, 12, []], Midland: [8, 0, 8, []] });

      // A unit without locations offers a link to the business units page.
      await act(page, odessaRow, "LOT-7", "View Locations");
      const locDialog = page.getByRole("dialog", {
        name: "Transfer quantity to other Location within current Business Unit",
      });
      assert.equal(
        await locDialog.getByRole("link", { name: /Business Units page/ }).getAttribute("href"),
        "/sales/business-units",
      );
      await locDialog.getByRole("button", { name: "Close" }).click();
      await locDialog.waitFor({ state: "detached" });

      // Base -> Yard A, no more than Base holds; then part of it back to Base.
      await act(page, midlandRow, "LOT-7", "View Locations");
      const places = locDialog.getByRole("table", { name: "Quantities by location" });
      assert.deepEqual(await places.getByRole("cell").allInnerTexts(), ["Base", "8"]);
      await locDialog.getByRole("button", { name: /From Location/ }).click();
      await page.getByRole("option", { name: "Base (8)" }).click();
      await locDialog.getByRole("button", { name: /To Location/ }).click();
      await page.getByRole("option", { name: "Yard A" }).click();
      const quantity = locDialog.getByRole("spinbutton", { name: "Quantity" });
      const submit = locDialog.getByRole("button", { name: "Submit Location Transfer" });
      await quantity.fill("9");
      await locDialog.getByText("Cannot exceed current quantity: 8").waitFor();
      assert.equal(await submit.isDisabled(), true);
      await quantity.fill("5");
      await submit.click();
      await page.getByRole("status").getByText("Moved 5 from Base to Yard A").waitFor();
      await places.getByRole("cell", { name: "Yard A" }).waitFor();
      assert.deepEqual(await places.getByRole("cell").allInnerTexts(), ["Base", "3", "Yard A", "5"]);

      await locDialog.getByRole("button", { name: /From Location/ }).click();
      await page.getByRole("option", { name: "Yard A (5)" }).click();
      await locDialog.getByRole("button", { name: /To Location/ }).click();
      await page.getByRole("option", { name: "Base" }).click();
      await quantity.fill("2");
      await submit.click();
      await page.getByRole("status").getByText("Moved 2 from Yard A to Base").waitFor();
      await places.getByRole("cell", { name: "5" }).waitFor();
      assert.deepEqual(await places.getByRole("cell").allInnerTexts(), ["Base", "5", "Yard A", "3"]);
      await locDialog.getByRole("button", { name: "Close" }).click();
      await locDialog.waitFor({ state: "detached" });

      await eventually(async () =>
        assert.deepEqual((await cells(midlandRow)).slice(5, 9), ["8", "0", "3", "5"])
      );
      await midlandRow.getByRole("button", { name: "Expand row" }).click();
      const nested = table.getByRole("table", { name: "Locations of LOT-7" });
      assert.deepEqual(await nested.getByRole("cell").allInnerTexts(), ["Base", "5", "Yard A", "3"]);
      assert.deepEqual(await apiStock(env, token), {
        Odessa: [12, 0, 12, []],
        Midland: [8, 3, 5, [{ name: "Yard A", quantity: 3 }]],
      });

      // The location view: a row per place, kept in the URL.
      await page.getByRole("link", { name: "By Location" }).click();
      await page.waitForURL(/view=location/);
      await table.getByRole("row", { name: "LOT-7 IRON-2 2in iron Odessa Base 12 Available" }).waitFor();
      const rows = table.getByRole("row");
      const shown = [];
      for (let i = 1; i < await rows.count(); i++) shown.push((await cells(rows.nth(i))).join(" | "));
      assert.deepEqual(shown, [
        "LOT-7 | IRON-2 | 2in iron | Odessa | Base | 12 | Available",
        "LOT-7 | IRON-2 | 2in iron | Midland | Base | 5 | Available",
        "LOT-7 | IRON-2 | 2in iron | Midland | Yard A | 3 | Available",
      ]);
    }),
);

browserTest(
  "inventory - a sales admin creates, edits and deletes a row",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      const db = env.tenant.db;
      await makeCategory(db, { name: "Odessa" });
      await makeCategory(db, { model: "Inventory Category", name: "Pumps" });
      await makeItem(db, {
        item_number: "PUMP-3",
        item_description: "Triplex pump",
        inventory_type: "Serialized",
      });
      await makeItem(db, {
        item_number: "IRON-2",
        item_description: "Triplex iron",
        inventory_type: "Itemized",
      });
      await signIn(undefined, undefined, "/sales/serialized-inventory");
      const table = page.getByRole("table", { name: "Serialized Inventory" });
      await table.getByText("No Data Found").waitFor();

      await page.getByRole("button", { name: "New", exact: true }).click();
      const dialog = page.getByRole("dialog", { name: "New Inventory" });
      const save = dialog.getByRole("button", { name: "Save" });
      assert.equal(await save.isDisabled(), true);
      await dialog.getByRole("combobox", { name: "Item" }).fill("Triplex");
      await page.getByRole("option", { name: "Triplex pump (PUMP-3)" }).waitFor();
      assert.equal(
        await page.getByRole("listbox").getByRole("option").count(),
        1,
        "only the page's type is offered",
      );
      // The item number finds it too, whatever its case.
      await dialog.getByRole("combobox", { name: "Item" }).fill("pump-3");
      await page.getByRole("option", { name: "Triplex pump (PUMP-3)" }).waitFor();
      await page.getByRole("option", { name: "Triplex pump (PUMP-3)" }).click();
      await dialog.getByRole("combobox", { name: "Business Unit" }).fill("Ode");
      await page.getByRole("option", { name: "Odessa" }).click();
      await dialog.getByRole("combobox", { name: "Category" }).fill("Pu");
      await page.getByRole("option", { name: "Pumps" }).click();
      assert.equal(await save.isDisabled(), true, "a serial number is required for Serialized");
      await dialog.getByRole("textbox", { name: "Serial Number" }).fill("TP-0001");
      const quantity = dialog.getByRole("spinbutton", { name: "Quantity" });
      await quantity.fill("2");
      await dialog.getByText("Must be at most 1").waitFor();
      assert.equal(await save.isDisabled(), true);
      await quantity.fill("1");
      await dialog.getByText("Must be at most 1").waitFor({ state: "detached" });
      await dialog.getByRole("textbox", { name: "Manufacturer" }).fill("SPM");
      await save.click();
      await page.getByRole("status").getByText("Inventory created").waitFor();
      await dialog.waitFor({ state: "detached" });
      const row = table.getByRole("row", { name: /TP-0001/ });
      // the refetched rows arrive after the snack: wait for the new row before reading it
      await row.waitFor();
      assert.deepEqual(
        (await cells(row)).slice(1, 11),
        ["TP-0001", "PUMP-3", "Triplex pump", "Odessa", "1", "0", "0", "1", "Administrator", "Available"],
      );

      await act(page, row, "TP-0001", "Edit");
      const edit = page.getByRole("dialog", { name: "Edit Inventory" });
      assert.equal(await edit.getByRole("combobox", { name: "Category" }).inputValue(), "Pumps");
      assert.equal(await edit.getByRole("textbox", { name: "Manufacturer" }).inputValue(), "SPM");
      await edit.getByRole("textbox", { name: "Inventory Description" }).fill("Blue skid");
      await edit.getByRole("button", { name: /Status/ }).click();
      await page.getByRole("option", { name: "Repair" }).click();
      await edit.getByRole("checkbox", { name: "Hidden" }).focus();
      await page.keyboard.press("Space");
      await edit.getByRole("button", { name: "Save" }).click();
      await page.getByRole("status").getByText("Inventory updated").waitFor();
      await table.getByText("No Data Found").waitFor();
      let [stored] = await db.select().from(inventory);
      assert.deepEqual(
        [
          stored.serial_number,
          stored.inventory_description,
          stored.status,
          stored.hidden,
          stored.manufacturer,
        ],
        ["TP-0001", "Blue skid", "Repair", true, "SPM"],
      );

      await page.getByRole("checkbox", { name: "Include Hidden Inventory" }).focus();
      await page.keyboard.press("Space");
      await row.waitFor();
      await page.waitForURL(/include_hidden=true/);
      assert.equal((await cells(row))[10], "Repair Hidden", "the status, and the row marked hidden");
      await act(page, row, "TP-0001", "Delete");
      const confirm = page.getByRole("dialog", { name: "Please confirm" });
      await confirm.getByText("Are you sure you want to delete this item?").waitFor();
      await confirm.getByText("WARNING: This cannot be undone.").waitFor();
      await confirm.getByRole("button", { name: "Yes" }).click();
      await page.getByRole("status").getByText("Inventory deleted").waitFor();
      await table.getByText("No Data Found").waitFor();
      [stored] = await db.select().from(inventory);
      assert.equal(stored, undefined);
    }),
);

/** What a paste from a spreadsheet fires: a paste event carrying tab-separated text. */
function pasteInto(cell: Locator, text: string) {
  return cell.evaluate((el, pasted) => {
    const data = new DataTransfer();
    data.setData("text/plain", pasted);
    el.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);
}

browserTest(
  "inventory - a sales admin uploads pasted rows into the business unit chosen for them, after a preview of each row's count before and after",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      const db = env.tenant.db;
      const unit = await makeCategory(db, { name: "Odessa" });
      const item = await makeItem(db, {
        item_number: "IRON-2",
        item_description: "2in iron",
        inventory_type: "Itemized",
      });
      // 100 in stock: a row of 20 sets it to 20 (issue 31: the upload must say so before it saves).
      await makeInventory(db, {
        item_id: item.id,
        business_unit_id: unit.id,
        serial_number: "LOT-1",
        quantity: 100,
      });
      await signIn(undefined, undefined, "/sales/itemized-inventory");
      await page.getByRole("button", { name: "Batch Upload" }).click();
      const dialog = page.getByRole("dialog", { name: "Batch Upload" });
      // The dialog says an upload sets a stored row's count, it does not add to it.
      await dialog.getByText(/Quantity sets the count.*make 20, not 120/).waitFor();
      const grid = dialog.getByRole("table", { name: "Rows to upload" });
      await pasteInto(
        grid.getByRole("textbox", { name: "Row 1, Serial Number" }),
        "Serial Number\tItem Number\tQuantity\nLOT-1\tIRON-2\t20\nLOT-2\tIRON-2\t7\n",
      );
      await dialog.getByText("2 rows to upload").waitFor();
      const upload = dialog.getByRole("button", { name: "Upload" });
      assert.equal(await upload.isDisabled(), true, "a business unit is required");
      await dialog.getByRole("combobox", { name: "Business Unit" }).fill("Ode");
      await page.getByRole("option", { name: "Odessa" }).click();
      await upload.click();

      // The preview: per row, the count in stock now and after; nothing saved yet.
      const preview = dialog.getByRole("table", { name: /Check the counts: 1 to create, 1 to update/ });
      await preview.waitFor();
      assert.deepEqual(await cells(preview.getByRole("row", { name: /LOT-1/ })), [
        "1",
        "IRON-2\nLOT-1",
        "100",
        "20",
      ]);
      assert.deepEqual(await cells(preview.getByRole("row", { name: /LOT-2/ })), [
        "2",
        "IRON-2\nLOT-2",
        "New",
        "7",
      ]);
      assert.equal((await db.select().from(inventory)).length, 1, "nothing saved before Save");
      // Back returns to the rows as they were; a second look, then Save.
      await dialog.getByRole("button", { name: "Back" }).click();
      assert.equal(await grid.getByRole("textbox", { name: "Row 1, Quantity" }).inputValue(), "20");
      await upload.click();
      await preview.waitFor();
      await dialog.getByRole("button", { name: "Save" }).click();
      await page.getByRole("status").getByText("1 created, 1 updated").waitFor();
      await dialog.waitFor({ state: "detached" });
      const table = page.getByRole("table", { name: "Itemized Inventory" });
      await table.getByRole("row", { name: /LOT-2/ }).waitFor();
      assert.deepEqual((await cells(table.getByRole("row", { name: /LOT-1/ }))).slice(1, 6), [
        "LOT-1",
        "IRON-2",
        "2in iron",
        "Odessa",
        "20",
      ]);
      const saved = await db.select().from(inventory).orderBy(inventory.serial_number);
      assert.deepEqual(saved.map((r) => [r.serial_number, r.business_unit_id, r.quantity]), [
        ["LOT-1", unit.id, 20],
        ["LOT-2", unit.id, 7],
      ]);
    }),
);

browserTest(
  "inventory - Print QR labels, dimmed until rows are picked, says why beside it",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      const item = await makeItem(env.tenant.db, { inventory_type: "Serialized", item_number: "VLV-9" });
      await makeInventory(env.tenant.db, { item_id: item.id, serial_number: "SN-A" });
      await signIn(undefined, undefined, "/sales/serialized-inventory");
      const print = page.getByRole("button", { name: /Print QR labels/ });
      assert.equal(await print.isDisabled(), true);
      const hint = await print.evaluate((b) =>
        document.getElementById(b.getAttribute("aria-describedby") ?? "")
      );
      assert.ok(hint, "the dimmed button is described");
      await page.getByText(PICK_ROWS_FIRST).waitFor();
      await page.getByRole("checkbox", { name: "Select SN-A" }).check();
      await page.getByRole("button", { name: "Print QR labels (1)" }).waitFor();
      assert.equal(await page.getByText(PICK_ROWS_FIRST).count(), 0, "the hint goes once a row is picked");
      assert.equal(await print.getAttribute("aria-describedby"), null);
    }),
);
