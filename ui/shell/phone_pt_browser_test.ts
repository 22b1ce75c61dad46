import assert from "node:assert/strict";
import { browserTest, withBrowser } from "../../scripts/testing/browser.ts";
import {
  assertDialogFits,
  checkListPage,
  listPagesOf,
  PHONE,
  seedPhoneData,
} from "../../scripts/testing/phone.ts";

browserTest(
  "phone 390x844 - every Pressure Testing and admin list page: one-line top bar, rows read and acted on by touch, dialogs fit",
  () =>
    withBrowser(async ({ env, page, base, signIn, hydrated }) => {
      await seedPhoneData(env.tenant.db);
      await signIn(undefined, undefined, "/pt/jobs");
      const pages = listPagesOf("pt");
      assert.deepEqual(pages, ["/pt/jobs", "/pt/data", "/pt/parts", "/admin/companies", "/admin/accounts"]);
      for (const path of pages) {
        const seen = await checkListPage(page, hydrated, base + path);
        if (path === "/pt/jobs") {
          assert.deepEqual(seen.headers, ["Date", "Job Number", "Customer"]);
          assert.ok(
            seen.controls.includes("Inspection") && seen.controls.includes("Delete"),
            `${seen.controls}`,
          );
          assert.equal(seen.dialog, "Edit");
        }
        if (path === "/pt/data") assert.deepEqual(seen.headers, ["Date", "Serial Number", "Report"]);
      }
      // A job's inspections, reached from the job's row the way an inspector does it: the Inspection button.
      await page.goto(`${base}/pt/jobs`);
      await hydrated();
      await page.getByRole("table", { name: "Jobs" }).getByRole("button", { name: "Expand row" }).first()
        .tap();
      const to = await page.getByRole("link", { name: "Inspection" }).first().getAttribute("href");
      const seen = await checkListPage(page, hydrated, base + to);
      assert.match(seen.path, /^\/pt\/inspection\?job_id=\d+$/);
      assert.deepEqual(seen.headers, ["Date", "Serial Number", "Report"]);
      assert.ok(seen.controls.includes("Photos and signature"), `${seen.controls}`);
      assert.equal(seen.dialog, "Edit");
      // The top bar's Scan, from any page.
      await page.locator(".topbar").getByRole("button", { name: "Scan a serial number" }).tap();
      await assertDialogFits(page, "Scan a serial number");
    }, PHONE),
);
