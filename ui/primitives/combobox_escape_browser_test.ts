import assert from "node:assert/strict";
import type { Locator, Page } from "playwright-core";
import { browserTest, eventually, withBrowser } from "../../scripts/testing/browser.ts";
import { makeCompany, makeJob } from "../../db/factories.ts";
import { makeItemOf, makeRow, makeUnit } from "../../api/sales/inventory/test_fixtures.ts";

/**
 * Typing opens a combobox's list; the first Escape closes the list and leaves the dialog open, the next
 * closes the dialog. (react-aria reverts the text on Escape; a combobox that kept the typed text saw its
 * list open again on it, and the second Escape only closed that list.)
 */
async function escapeClosesListThenDialog(page: Page, dialog: Locator, box: Locator, text: string) {
  await box.click();
  await box.fill(text);
  await page.getByRole("listbox").getByRole("option").first().waitFor();
  assert.equal(await box.getAttribute("aria-expanded"), "true");
  await page.keyboard.press("Escape");
  await eventually(async () => assert.equal(await box.getAttribute("aria-expanded"), "false"));
  assert.equal(await dialog.isVisible(), true, "the first Escape closes only the list");
  await page.keyboard.press("Escape");
  await dialog.waitFor({ state: "hidden" });
}

browserTest(
  "combobox - Escape closes the list first, then the dialog (Pressure Testing and the users form)",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      await makeCompany(env.tenant.db, { name: "Bluestem Energy", company_type: "customer_company" });
      await makeJob(env.tenant.db, { job_number: "PT-100", date: "2025-03-04" });
      await signIn(undefined, undefined, "/pt/jobs");
      await page.getByRole("button", { name: "New Job" }).click();
      let dialog = page.getByRole("dialog", { name: "New Job" });
      await escapeClosesListThenDialog(
        page,
        dialog,
        dialog.getByRole("combobox", { name: "Customer" }),
        "Blue",
      );

      await page.goto(page.url().replace(/\/pt\/jobs.*/, "/admin/accounts"));
      await page.getByRole("button", { name: "Add User" }).click();
      dialog = page.getByRole("dialog", { name: "Add User" });
      await dialog.getByRole("button", { name: /Account Type/ }).click();
      await page.getByRole("option", { name: "Data-Entry" }).click();
      await escapeClosesListThenDialog(page, dialog, dialog.getByRole("combobox", { name: "Jobs" }), "PT-");
    }),
);

browserTest(
  "combobox - Escape closes the list first, then the dialog (Sales templates)",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      const midland = await makeUnit(env, [], "Midland");
      await makeUnit(env, [], "Odessa");
      await makeRow(env, {
        business_unit_id: midland.id,
        serial_number: "MID-MIL",
        quantity: 30,
        item_id:
          (await makeItemOf(env, "Charge Code", { item_number: "MIL", item_description: "Mileage" })).id,
      });
      await signIn(undefined, undefined, `/sales/templates?search_business_unit=${midland.id}`);
      await page.getByRole("button", { name: "New", exact: true }).click();
      const dialog = page.getByRole("dialog", { name: "New Template" });
      await escapeClosesListThenDialog(
        page,
        dialog,
        dialog.getByRole("combobox", { name: "Add Inventory" }),
        "MI",
      );

      await page.getByRole("button", { name: "New", exact: true }).click();
      await escapeClosesListThenDialog(
        page,
        dialog,
        dialog.getByRole("combobox", { name: "Business Unit" }),
        "Ode",
      );
    }),
);
