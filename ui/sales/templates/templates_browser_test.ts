import assert from "node:assert/strict";
import { browserTest, withBrowser } from "../../../scripts/testing/browser.ts";
import { makeItemOf, makeRow, makeUnit } from "../../../api/sales/inventory/test_fixtures.ts";
import type { TemplateOut } from "../../../api/sales/templates/schemas.ts";

browserTest(
  "templates - a sales admin builds a template, reorders its inventory and saves it",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      const midland = await makeUnit(env, [], "Midland");
      await makeUnit(env, [], "Odessa");
      const row = async (
        type: "Charge Code" | "Itemized" | "Serialized",
        number: string,
        description: string,
      ) =>
        makeRow(env, {
          business_unit_id: midland.id,
          serial_number: `MID-${number}`,
          quantity: type === "Serialized" ? 1 : 30,
          item_id: (await makeItemOf(env, type, { item_number: number, item_description: description })).id,
        });
      const mileage = await row("Charge Code", "MIL", "Mileage");
      const swivel = await row("Itemized", "SW3", "3in swivel joint");
      const tee = await row("Itemized", "TEE2", "2in tee");
      await row("Serialized", "PV2", "Plug valve");

      await signIn(undefined, undefined, "/sales/templates");
      await page.getByRole("heading", { name: "Templates" }).waitFor();
      await page.getByText("Choose a business unit to see its templates").waitFor();
      // Opening the unit choice loads every unit ('!ALL').
      await page.getByRole("combobox", { name: "Business Unit" }).click();
      await page.getByRole("option", { name: "Odessa" }).waitFor();
      await page.getByRole("option", { name: "Midland" }).click();
      const table = page.getByRole("table", { name: "Templates" });
      await table.getByText("No Templates Found").waitFor();
      await page.waitForURL((u) => u.searchParams.get("search_business_unit") === String(midland.id));

      await page.getByRole("button", { name: "New", exact: true }).click();
      const dialog = page.getByRole("dialog", { name: "New Template" });
      const save = dialog.getByRole("button", { name: "Save" });
      assert.equal(await save.isDisabled(), true, "Name is required");
      assert.equal(await dialog.getByRole("combobox", { name: "Business Unit" }).inputValue(), "Midland");
      await dialog.getByRole("textbox", { name: "Name" }).fill("Flowback rig-up");

      // The picker offers the unit's charge codes and itemized rows, not its serialized ones.
      const picker = dialog.getByRole("combobox", { name: "Add Inventory" });
      await picker.click();
      await page.getByRole("option", { name: /MID-MIL/ }).waitFor();
      assert.equal(await page.getByRole("option", { name: /PV2/ }).count(), 0);
      await page.getByRole("option", { name: /MID-MIL/ }).click();
      for (const text of ["swivel", "tee"]) {
        await picker.fill(text);
        await page.getByRole("option", { name: new RegExp(text) }).click();
      }
      // The open choice list hides the rest of the dialog from the accessibility tree: close it.
      await page.keyboard.press("Escape");
      const list = dialog.getByRole("list", { name: "Template inventory" });
      const order = async () =>
        (await list.getByRole("listitem").allInnerTexts()).map((t) => t.split("\n")[1]);
      assert.deepEqual(await order(), [
        "MIL | MID-MIL | Mileage",
        "SW3 | MID-SW3 | 3in swivel joint",
        "TEE2 | MID-TEE2 | 2in tee",
      ]);

      // Reorder: the tee to the top with the keyboard, the swivel down with the mouse.
      const teeUp = list.getByRole("button", { name: "Move up TEE2 | MID-TEE2 | 2in tee" });
      await teeUp.focus();
      await page.keyboard.press("Enter");
      await page.keyboard.press("Enter");
      assert.deepEqual((await order()).map((t) => t.split(" | ")[0]), ["TEE2", "MIL", "SW3"]);
      assert.equal(await teeUp.isDisabled(), true, "at the top");
      assert.equal(
        await page.evaluate(() => document.activeElement?.getAttribute("aria-label")),
        "Move down TEE2 | MID-TEE2 | 2in tee",
        "the focus stays on the row's buttons",
      );
      await list.getByRole("button", { name: "Move down MIL | MID-MIL | Mileage" }).click();
      assert.deepEqual((await order()).map((t) => t.split(" | ")[0]), ["TEE2", "SW3", "MIL"]);
      await list.getByRole("button", { name: "Remove SW3 | MID-SW3 | 3in swivel joint" }).click();
      await picker.fill("swivel");
      await page.getByRole("option", { name: /swivel/ }).click();
      await page.keyboard.press("Escape");
      assert.deepEqual((await order()).map((t) => t.split(" | ")[0]), ["TEE2", "MIL", "SW3"]);

      await save.click();
      await page.getByRole("status").getByText("Template created").waitFor();
      await dialog.waitFor({ state: "detached" });
      const saved = table.getByRole("row", { name: /Flowback rig-up/ });
      await saved.getByRole("cell", { name: "3", exact: true }).waitFor();
      const token = await env.login();
      const [template] = (await env.json<{ results: TemplateOut[] }>(
        `/api/sales/templates?search_business_unit=${midland.id}`,
        { token },
      )).results;
      assert.deepEqual(template.inventory_ids, [tee.id, mileage.id, swivel.id]);

      // The expanded row reads the order; Delete asks first.
      await saved.getByRole("button", { name: "Expand row" }).click();
      await table.getByText("TEE2 | MID-TEE2 | 2in tee").waitFor();
      await table.getByRole("button", { name: "Delete" }).click();
      const confirm = page.getByRole("dialog", { name: "Please confirm" });
      await confirm.getByText("Are you sure you want to delete this template?").waitFor();
      await confirm.getByText("WARNING: This cannot be undone.").waitFor();
      await confirm.getByRole("button", { name: "Yes" }).click();
      await page.getByRole("status").getByText("Template deleted").waitFor();
      await table.getByText("No Templates Found").waitFor();
    }),
);

browserTest(
  "templates - Download shows once a unit is chosen and sends the list's unit and search",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      const midland = await makeUnit(env, [], "Midland");
      await signIn(undefined, undefined, "/sales/templates");
      await page.getByText("Choose a business unit to see its templates").waitFor();
      const download = page.getByRole("button", { name: "Download" });
      assert.equal(await download.count(), 0, "no unit, no list: nothing to download");
      await page.goto(`${page.url().split("?")[0]}?search_business_unit=${midland.id}&search_name=rig`);
      await page.waitForSelector("body[data-hydrated]", { state: "attached" });
      const [response, file] = await Promise.all([
        page.waitForResponse((r) => r.url().includes("/api/sales/templates/download")),
        page.waitForEvent("download"),
        download.click(),
      ]);
      const url = new URL(response.url());
      assert.deepEqual(
        [
          url.searchParams.get("search_business_unit"),
          url.searchParams.get("search_name"),
          response.status(),
        ],
        [String(midland.id), "rig", 200],
      );
      assert.match(file.suggestedFilename(), /^Templates-\d{4}-\d{2}-\d{2}\.xlsx$/);
    }),
);

browserTest(
  "templates - the unit choice filters every unit as the user types and offers them all again after a pick",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      for (const name of ["Midland", "Odessa", "Pecos"]) await makeUnit(env, [], name);
      await signIn(undefined, undefined, "/sales/templates");
      const choice = page.getByRole("combobox", { name: "Business Unit" });
      await choice.click();
      await page.getByRole("option", { name: "Pecos" }).waitFor();
      await choice.fill("dess");
      await page.getByRole("option", { name: "Odessa" }).waitFor();
      assert.deepEqual(await page.getByRole("option").allInnerTexts(), ["Odessa"]);
      await choice.fill("zzz");
      await page.getByText("No Business Units Found").waitFor();
      await choice.fill("mid");
      await page.getByRole("option", { name: "Midland" }).click();
      await page.waitForURL((u) => u.searchParams.has("search_business_unit"));
      assert.equal(await choice.inputValue(), "Midland");
      await page.getByRole("button", { name: "Show Business Unit options" }).click();
      await page.getByRole("option", { name: "Pecos" }).waitFor();
      assert.equal(await page.getByRole("option").count(), 3);
    }),
);
