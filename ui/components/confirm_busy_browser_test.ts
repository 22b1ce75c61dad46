import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import type { Route } from "playwright-core";
import { browserTest, withBrowser } from "../../scripts/testing/browser.ts";
import { makeItem } from "../../db/factories.ts";
import { items } from "../../db/schema/mod.ts";

browserTest(
  "delete confirmation - while the delete is sent Yes reads Deleting..., is disabled and a status says so",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      const item = await makeItem(env.tenant.db, { item_number: "GONE-1", item_description: "Old valve" });
      // The DELETE is held until the busy state has been read, then let through to the real server.
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      const sent = new Promise<void>((resolve) => {
        page.route(`**/api/sales/items/${item.id}`, async (route: Route) => {
          if (route.request().method() !== "DELETE") return route.continue();
          resolve();
          await held;
          await route.continue();
        });
      });
      await signIn(undefined, undefined, "/sales/items");
      const table = page.getByRole("table", { name: "Items" });
      await table.getByRole("button", { name: "Expand row" }).first().click();
      await table.getByRole("button", { name: "Delete" }).click();
      const confirm = page.getByRole("dialog", { name: "Please confirm" });
      const yes = confirm.getByRole("button", { name: "Yes" });
      assert.equal(await confirm.locator(".dialog-status").textContent(), "", "nothing is said before Yes");
      await yes.click();
      await sent;
      const busy = confirm.getByRole("button", { name: "Deleting..." });
      await busy.waitFor();
      assert.equal(await busy.isDisabled(), true, "a second press sends nothing");
      assert.equal(await confirm.getByRole("status").innerText(), "Deleting, please wait...");
      release();
      await confirm.waitFor({ state: "hidden" });
      await page.getByRole("status").getByText("Success").or(page.getByRole("status").getByText(/deleted/i))
        .first().waitFor();
      assert.equal((await env.tenant.db.select().from(items).where(eq(items.id, item.id))).length, 0);
    }),
);
