import assert from "node:assert/strict";
import { browserTest, withBrowser } from "../../scripts/testing/browser.ts";
import { checkListPage, listPagesOf, PHONE, seedPhoneData } from "../../scripts/testing/phone.ts";
import { templates } from "../../db/schema/mod.ts";

browserTest(
  "phone 390x844 - every Sales & Inventory list page: one-line top bar, rows read and acted on by touch, dialogs fit",
  () =>
    withBrowser(async ({ env, page, base, signIn, hydrated }) => {
      await seedPhoneData(env.tenant.db);
      const [template] = await env.tenant.db.select().from(templates).limit(1);
      await signIn(undefined, undefined, "/sales/tickets");
      // The admin pages are in the Pressure Testing test.
      const pages = listPagesOf("sales").filter((p) => p.startsWith("/sales/"));
      assert.ok(pages.length >= 18, `${pages}`);
      for (const path of pages) {
        // Templates are listed once a business unit is chosen.
        const url = path === "/sales/templates"
          ? `${path}?search_business_unit=${template.business_unit_id}`
          : path;
        const seen = await checkListPage(page, hydrated, base + url);
        if (path === "/sales/serialized-inventory") {
          assert.deepEqual(seen.headers, ["Serial Number", "Status", "Actions"]);
        }
        if (path === "/sales/invoices") assert.deepEqual(seen.headers, ["Ticket #", "Inv #", "Customer"]);
      }
    }, PHONE),
);
