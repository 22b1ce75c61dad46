import assert from "node:assert/strict";
import { browserTest, withBrowser } from "../../../scripts/testing/browser.ts";
import { makeCategory, makeUser } from "../../../db/factories.ts";
import type { SubCategoryOut } from "../../../api/sales/sub_categories/schemas.ts";

browserTest(
  "sub product lines - a sales admin picks a product line and adds one; others only read",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      const line = await makeCategory(env.tenant.db, { model: "Product Line", name: "Flowback" });
      await makeCategory(env.tenant.db, { model: "Product Line", name: "Well Testing" });
      await makeUser(env.tenant.db, { company_id: 1, email: "rep@acme.test", password: "rep-pass-1" });
      await signIn(undefined, undefined, "/sales/sub-product-lines");
      const table = page.getByRole("table", { name: "Sub Product Lines" });

      await page.getByRole("button", { name: "New", exact: true }).click();
      const dialog = page.getByRole("dialog", { name: "New Sub Product Line" });
      await dialog.getByRole("textbox", { name: "Name" }).fill("Iron");
      assert.equal(await dialog.getByRole("button", { name: "Save" }).isDisabled(), true);
      await dialog.getByRole("combobox", { name: "Product Line" }).fill("flow");
      await page.getByRole("option", { name: "Flowback" }).click();
      await dialog.getByRole("button", { name: "Save" }).click();
      await page.getByRole("status").getByText("Sub Product Line created").waitFor();
      await table.getByRole("row", { name: /Iron Flowback/ }).waitFor();
      const token = await env.login();
      const { results } = await env.json<{ results: SubCategoryOut[] }>(
        `/api/sales/sub_categories?search_parent=${line.id}`,
        { token },
      );
      assert.deepEqual(results.map((s) => s.name), ["Iron"]);

      await page.context().clearCookies();
      await signIn("rep@acme.test", "rep-pass-1", "/sales/sub-product-lines");
      await table.getByRole("row", { name: /Iron/ }).getByRole("button", { name: "Expand row" }).click();
      await table.getByText("None").waitFor();
      assert.equal(await table.getByRole("button", { name: "Edit" }).count(), 0);
      assert.equal(await table.getByRole("button", { name: "Delete" }).count(), 0);
    }),
);
