import assert from "node:assert/strict";
import { browserTest, withBrowser } from "../../scripts/testing/browser.ts";
import { inventory_audit } from "../../db/schema/mod.ts";
import { serialWithHistory } from "../../api/serials/test_fixtures.ts";

browserTest(
  "serial history - opened from an inventory row's serial: the timeline, its second page, the download, another serial",
  () =>
    withBrowser(async ({ env, page, signIn, hydrated }) => {
      await serialWithHistory(env);
      // 25 changes between the ticket (Jan 3) and the check-in (today): 31 events, two pages of 25.
      await env.tenant.db.insert(inventory_audit).values(
        Array.from({ length: 25 }, (_, i) => ({
          action: "Updated",
          serial_number: "PV-100",
          updated_by_name: "Old Timer",
          action_time: `2026-01-${String(i + 5).padStart(2, "0")}T12:00:00.000Z`,
        })),
      );
      await signIn(undefined, undefined, "/sales/itemized-inventory");
      const inventory = page.getByRole("table", { name: "Itemized Inventory" });
      await inventory.getByRole("row", { name: /Odessa/ }).getByRole("link", { name: "PV-100" }).click();
      await page.waitForURL((u) => u.pathname === "/serials/PV-100");
      await hydrated();
      await page.getByRole("heading", { name: "Serial PV-100" }).waitFor();
      const units = page.getByRole("table", { name: "Inventory rows" });
      assert.equal(await units.getByRole("row").count(), 3, "a header and the two rows holding PV-100");

      const history = page.getByRole("table", { name: "History" });
      const rows = history.getByRole("row");
      assert.equal(await rows.count(), 26);
      assert.match(await rows.nth(1).innerText(), /Inspection\s+Job J-NEW/);
      assert.match(await rows.nth(4).innerText(), /Check In/);
      assert.match(await rows.nth(5).innerText(), /Updated.*Old Timer/);
      const pager = page.getByRole("navigation", { name: "Pagination" });
      await pager.getByText("1-25 of 31").waitFor();

      await pager.getByRole("link", { name: "Next page" }).click();
      await pager.getByText("26-31 of 31").waitFor();
      assert.equal(await rows.count(), 7);
      assert.match(await rows.nth(5).innerText(), /Ticket\s+T-900/);
      assert.match(await rows.last().innerText(), /Inspection\s+Job J-OLD/);
      await history.getByRole("link", { name: "T-900" }).waitFor();
      await hydrated();

      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("button", { name: "Download" }).click(),
      ]);
      assert.match(download.suggestedFilename(), /^Serial-PV-100-\d{4}-\d{2}-\d{2}\.xlsx$/);

      const search = page.getByRole("searchbox", { name: "Serial Number" });
      await search.fill("pv-200");
      await search.press("Enter");
      await page.waitForURL((u) => u.pathname === "/serials/pv-200");
      await page.getByRole("heading", { name: "Serial pv-200" }).waitFor();
      assert.match(await history.getByRole("row").nth(1).innerText(), /Reclass In/);
    }),
);
