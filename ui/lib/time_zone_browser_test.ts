import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { companies, inventory_audit } from "../../db/schema/mod.ts";
import type { TestEnv } from "../../scripts/testing/harness.ts";
import { browserTest, withBrowser } from "../../scripts/testing/browser.ts";

const cookie = (token: string) => ({ cookie: `session=${token}` });

/** One audit row at 03:30 UTC on March 5th: 21:30 on March 4th in Chicago. */
async function auditRow(env: TestEnv) {
  await env.tenant.db.insert(inventory_audit).values({
    action: "Batch Upload",
    action_time: "2026-03-05T03:30:00.000Z",
    updated_by_name: "Pat Admin",
    serial_number: "SN-TZ",
    item_number: "SW3",
    item_description: "3in swivel",
    status: "Available",
    quantity: 40,
    quantity_change: 0,
    category: "Rental Fleet",
    business_unit: "Midland",
    locations: "Yard A: 10",
  });
}

const setZone = (env: TestEnv, timeZone: string | undefined) =>
  env.tenant.db.update(companies).set({ settings: timeZone ? { timeZone } : {} }).where(eq(companies.id, 1));

browserTest(
  "time zone - audit Action Time is on the company's clock, in the server's HTML and after hydration",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      await auditRow(env);
      const token = await env.login();

      // No setting: UTC, already in the HTML (no blank before JavaScript runs).
      let html = await (await env.request("/sales/inventory-audit", cookie(token))).text();
      assert.match(html, /<time dateTime="2026-03-05T03:30:00.000Z">03-05-26 03:30<\/time>/);

      await setZone(env, "America/Chicago");
      html = await (await env.request("/sales/inventory-audit", cookie(token))).text();
      assert.match(html, /<html lang="en" data-time-zone="America\/Chicago">/);
      assert.match(html, /<time dateTime="2026-03-05T03:30:00.000Z">03-04-26 21:30<\/time>/);

      // The browser runs in Tokyo: the island still shows Chicago time, and hydrates without a mismatch.
      const cdp = await page.context().newCDPSession(page);
      await cdp.send("Emulation.setTimezoneOverride", { timezoneId: "Asia/Tokyo" });
      const errors: string[] = [];
      page.on("console", (m) => {
        if (m.type() === "error") errors.push(m.text());
      });
      await signIn(undefined, undefined, "/sales/inventory-audit?serial_number=SN-TZ");
      assert.equal(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone), "Asia/Tokyo");
      const time = page.getByRole("table", { name: "Inventory Audit" }).locator("tbody tr time").first();
      assert.equal(await time.innerText(), "03-04-26 21:30");
      assert.deepEqual(errors.filter((e) => /hydrat/i.test(e)), []);
    }),
);
