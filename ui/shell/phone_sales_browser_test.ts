import assert from "node:assert/strict";
import { bookedUnitNextMonth } from "../sales/availability/test_fixtures.ts";
import { browserTest, withBrowser } from "../../scripts/testing/browser.ts";
import {
  assertNoSideways,
  assertTappable,
  assertTopBar,
  checkListPage,
  checkTable,
  listPagesOf,
  PHONE,
  seedPhoneData,
} from "../../scripts/testing/phone.ts";
import { templates } from "../../db/schema/mod.ts";
import { formatDate, formatDateTime } from "../../lib/format.ts";

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

browserTest(
  "phone 390x844 - availability: the month and the chosen day's bookings, read and opened by touch",
  () =>
    withBrowser(async ({ env, page, signIn, hydrated }) => {
      const token = await env.login();
      const { item, ticket, month } = await bookedUnitNextMonth(env, token);
      const path = `/sales/availability?item_id=${item.id}&month=${month}&day=${month}-11`;
      await signIn(undefined, undefined, path);
      await hydrated();
      await assertTopBar(page, path);
      await assertNoSideways(page, path);
      // The month: every week inside the window, a booked day opened by a tap.
      const calendar = page.locator("table.calendar");
      const [width, inner] = await calendar.evaluate((t) => [t.getBoundingClientRect().right, innerWidth]);
      assert.ok(width <= inner, `the month is ${width}px wide in ${inner}px`);
      for (const name of ["Previous month", "Next month"]) {
        await assertTappable(name, page.getByRole("link", { name }));
      }
      const booked = page.getByRole("link", { name: `${formatDate(`${month}-10`)}: 0 of 1 free, 1 booking` });
      await assertTappable("a booked day", booked);
      await booked.tap();
      await page.waitForURL((u) => u.searchParams.get("day") === `${month}-10`);
      // Its bookings: Ticket #, Serial # and Start as columns, the ticket's link in reach, the rest under them.
      const wrap = page.locator(".table-wrap").filter({
        has: page.getByRole("table", { name: `Bookings on ${formatDate(`${month}-10`)}` }),
      });
      const seen = await checkTable(path, wrap);
      assert.deepEqual(seen.headers.map((h) => h.name), ["Ticket #", "Serial #", "Start"]);
      assert.deepEqual(seen.controls, ["T-00088"]);
      const text = await seen.row.innerText();
      for (
        const line of [
          "State: Booked",
          "Quantity: 1",
          `End: ${formatDateTime(`${month}-12T08:00:00.000Z`, "UTC")}`,
        ]
      ) {
        assert.ok(text.includes(line), `the booking shows "${line}": ${text}`);
      }
      await seen.row.getByRole("link", { name: "T-00088" }).tap();
      await page.waitForURL((u) => u.pathname === `/sales/tickets/${ticket.id}`);
    }, PHONE),
);
