import assert from "node:assert/strict";
import { browserTest, withBrowser } from "../../../scripts/testing/browser.ts";
import { taxes } from "../../../db/schema/mod.ts";
import type { TaxOut } from "../../../api/sales/taxes/schemas.ts";

browserTest(
  "taxes - a sales admin creates, searches and deletes a tax",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      await env.tenant.db.insert(taxes).values({
        company_id: 1,
        name: "Lea County",
        state: "NM",
        county: "Lea",
      });
      const token = await env.login();
      const all = async () => (await env.json<{ results: TaxOut[] }>("/api/sales/taxes", { token })).results;
      await signIn(undefined, undefined, "/sales/taxes");
      await page.getByRole("heading", { name: "Taxes" }).waitFor();
      const table = page.getByRole("table", { name: "Taxes" });

      // Create: a bad rate keeps Save disabled; the combined rate is the sum.
      await page.getByRole("button", { name: "New", exact: true }).click();
      const dialog = page.getByRole("dialog", { name: "New Tax" });
      await dialog.getByRole("textbox", { name: "Name" }).fill("Odessa");
      await dialog.getByRole("textbox", { name: "State", exact: true }).fill("TX");
      await dialog.getByRole("textbox", { name: "County", exact: true }).fill("Ector");
      await dialog.getByRole("textbox", { name: "City", exact: true }).fill("Odessa");
      await dialog.getByRole("textbox", { name: "State Rate (%)" }).fill("6.25x");
      await dialog.getByText("Must be a number").waitFor();
      assert.equal(await dialog.getByRole("button", { name: "Save" }).isDisabled(), true);
      // Enter on the form says why nothing is saved, and the button stays reachable by keyboard.
      await dialog.getByRole("textbox", { name: "State Rate (%)" }).press("Enter");
      await dialog.getByRole("status").getByText("Check the fields marked above.").waitFor();
      assert.equal(await dialog.getByRole("button", { name: "Save" }).getAttribute("aria-disabled"), "true");
      await dialog.getByRole("textbox", { name: "State Rate (%)" }).fill("6.25");
      await dialog.getByRole("textbox", { name: "County Rate (%)" }).fill("0.5");
      await dialog.getByRole("textbox", { name: "City Rate (%)" }).fill("1.5");
      await dialog.getByText("Rate: 8.250%").waitFor();
      await dialog.getByRole("button", { name: "Save" }).click();
      await page.getByRole("status").getByText("Tax created").waitFor();
      await dialog.waitFor({ state: "detached" });
      const row = table.getByRole("row", { name: /Odessa/ });
      await row.getByRole("cell", { name: "8.250%" }).waitFor();
      const saved = (await all()).find((t) => t.name === "Odessa");
      assert.deepEqual([saved?.state_rate, saved?.county_rate, saved?.city_rate, saved?.rate], [
        6.25,
        0.5,
        1.5,
        8.25,
      ]);

      // Search by name, then by 'State | County'; the URL keeps the split filters.
      const search = page.getByRole("searchbox", { name: "Search name, state, county or city" });
      await search.fill("lea");
      await table.getByRole("row", { name: /Odessa/ }).waitFor({ state: "detached" });
      await table.getByRole("row", { name: /Lea County/ }).waitFor();
      await search.fill("TX | Ector");
      await table.getByRole("row", { name: /Lea County/ }).waitFor({ state: "detached" });
      await row.waitFor();
      assert.match(page.url(), /search_state=TX&search_county=Ector/);

      // Delete, through the confirmation.
      await row.getByRole("button", { name: "Expand row" }).click();
      await table.getByRole("button", { name: "Delete" }).click();
      const confirm = page.getByRole("dialog", { name: "Please confirm" });
      await confirm.getByText("Are you sure you want to delete this item?").waitFor();
      await confirm.getByText("WARNING: This cannot be undone.").waitFor();
      await confirm.getByRole("button", { name: "Yes" }).click();
      await page.getByRole("status").getByText("Tax deleted").waitFor();
      await table.getByText("No Data Found").waitFor();
      assert.deepEqual((await all()).map((t) => t.name), ["Lea County"]);
    }),
);
