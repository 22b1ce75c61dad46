import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { companies, inventory_audit, inventory_log, sales } from "../../db/schema/mod.ts";
import { makeInventory, makeItem, makeLine, makeTicket } from "../../db/factories.ts";
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

browserTest(
  "time zone - line dates are shown, typed and checked in on the company's clock, stored in UTC",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      const db = env.tenant.db;
      await db.update(companies).set({
        settings: {
          timeZone: "America/Chicago",
          Sales: { TicketPage: ["order", "serial_number", "start_date", "end_date", "quantity", "total"] },
        },
      }).where(eq(companies.id, 1));
      const item = await makeItem(db, {
        item_number: "HOSE-1",
        item_description: "2in hose",
        inventory_type: "Itemized",
      });
      const row = await makeInventory(db, {
        item_id: item.id,
        serial_number: "H-100",
        quantity: 5,
        quantity_out: 2,
      });
      const ticket = await makeTicket(db, { status: "RFB", use_min_rate_logic: false });
      const line = await makeLine(db, {
        ticket_id: ticket.id,
        inventory_id: row.id,
        quantity: 2,
        quantity_held: 2,
        start_date: "2026-03-05T03:30:00Z", // 21:30 on March 4th in Chicago
      });
      const path = `/sales/ready-for-billing/${ticket.id}`;

      // The server's HTML: the line's start and the service dates on Chicago's clock, no "(UTC)".
      const html = await (await env.request(path, cookie(await env.login()))).text();
      assert.match(html, />03-04-26 21:30<\/time>/);
      // The line has not ended: the service dates are open from its start (decision 044).
      assert.match(html, /<dd>From 03-04-2026 21:30<\/dd>/);
      assert.doesNotMatch(html, /\(UTC\)/);

      await signIn(undefined, undefined, path);
      const table = page.getByRole("table", { name: "Line items" });
      assert.match(await table.getByRole("row", { name: /H-100/ }).innerText(), /03-04-26 21:30/);

      // The form shows Chicago's wall clock and sends UTC.
      await page.getByRole("button", { name: "Edit line H-100" }).click();
      const form = page.getByRole("dialog", { name: "Edit Line Item" });
      assert.equal(await form.getByRole("textbox", { name: "Start Date" }).inputValue(), "2026-03-04T21:30");
      await form.getByRole("textbox", { name: "End Date" }).fill("2026-03-05T08:00");
      assert.equal(await form.getByRole("textbox", { name: "Hours" }).inputValue(), "10.5");
      await form.getByRole("button", { name: "Save" }).click();
      await form.waitFor({ state: "detached" });
      const saved = (await db.select().from(sales).where(eq(sales.id, line.id)).get())!;
      assert.deepEqual([saved.start_date, saved.end_date], ["2026-03-05T03:30:00Z", "2026-03-05T14:00:00Z"]);
      await table.getByText("03-05-26 08:00").waitFor();

      // Check-in: the date typed is Chicago's, stored as UTC.
      await page.getByRole("button", { name: "Check-In" }).click();
      const date = page.getByRole("textbox", { name: "Date H-100" });
      assert.match(await date.inputValue(), /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
      await date.fill("2026-03-06T09:00");
      await page.getByRole("textbox", { name: "Quantity in H-100" }).fill("2");
      await page.getByRole("button", { name: "Submit Check-In" }).click();
      // Gone once the check-in is saved: while it is sent the button reads "Checking in...".
      await page.getByRole("button", { name: /^(Submit Check-In|Checking in)/ }).waitFor({
        state: "detached",
      });
      const [log] = await db.select().from(inventory_log).where(eq(inventory_log.sale_id, line.id));
      assert.equal(log.date.slice(0, 16), "2026-03-06T15:00");
    }),
);
