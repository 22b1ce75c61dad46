import assert from "node:assert/strict";
import { browserTest, withBrowser } from "../../../scripts/testing/browser.ts";

browserTest(
  "taxes and categories - a user without sales-admin sees no New (the server would refuse it); an admin does",
  () =>
    withBrowser(async ({ env, page, base, signIn, hydrated }) => {
      const { user } = await env.userWithToken({ name: "Clerk" });
      await signIn(user.email, "password123", "/sales/taxes");
      await page.getByRole("heading", { name: "Taxes" }).waitFor();
      await page.getByRole("searchbox").first().waitFor();
      assert.equal(await page.getByRole("button", { name: "New" }).count(), 0, "no New on taxes");
      await page.goto(`${base}/sales/inventory-categories`);
      await hydrated();
      await page.getByRole("heading", { name: "Inventory Categories" }).waitFor();
      assert.equal(await page.getByRole("button", { name: "New" }).count(), 0, "no New on categories");
      // Templates are sales-admin's: the drawer has no entry and the page sends the user on (via /signin).
      assert.equal(await page.getByRole("link", { name: "Templates" }).count(), 0);
      await page.goto(`${base}/sales/templates`);
      await page.waitForURL((u) => u.pathname === "/");

      await page.context().clearCookies();
      await signIn(undefined, undefined, "/sales/taxes");
      await page.getByRole("button", { name: "New" }).click();
      await page.getByRole("dialog").waitFor();
    }),
);
