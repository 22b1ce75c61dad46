import assert from "node:assert/strict";
import { bookedUnitNextMonth } from "./test_fixtures.ts";
import { browserTest, withBrowser } from "../../../scripts/testing/browser.ts";
import { formatDate } from "../../../lib/format.ts";
import { monthTitle, shiftMonth } from "./month.ts";

browserTest(
  "availability - from an inventory row's menu to its calendar; days by keyboard; next month",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      const token = await env.login();
      const { month } = await bookedUnitNextMonth(env, token);

      await signIn(undefined, undefined, "/sales/serialized-inventory");
      await page.getByRole("button", { name: "Actions for PV-1" }).click();
      await page.getByRole("menuitem", { name: "Availability" }).click();
      await page.getByRole("heading", { name: "Availability: PV-3IN" }).waitFor();
      await page.getByRole("link", { name: "Next month" }).click();
      await page.getByRole("heading", { name: monthTitle(month) }).waitFor();

      // a booked day, reached and opened with the keyboard
      const day = `${month}-11`;
      const cell = page.getByRole("link", { name: `${formatDate(day)}: 0 of 1 free, 1 booking` });
      await cell.focus();
      await page.keyboard.press("Enter");
      await page.waitForURL((u) => u.searchParams.get("day") === day);
      const bookings = page.getByRole("table", { name: `Bookings on ${formatDate(day)}` });
      const booking = bookings.getByRole("row", { name: /T-00088/ });
      // The columns a wide screen shows (a phone's lines under the kept columns repeat them, hidden here).
      await booking.getByRole("cell", { name: "PV-1", exact: true }).waitFor();
      await booking.getByRole("cell", { name: "Booked", exact: true }).waitFor();
      assert.equal(
        await page.getByRole("link", { name: `${formatDate(day)}: 0 of 1 free, 1 booking` }).getAttribute(
          "aria-current",
        ),
        "date",
      );
      // a free day lists nothing
      await page.getByRole("link", { name: `${formatDate(`${month}-20`)}: 1 of 1 free, 0 bookings` }).click();
      await page.getByText("No bookings on this day").waitFor();
      await page.getByRole("link", { name: "Previous month" }).click();
      await page.getByRole("heading", { name: monthTitle(shiftMonth(month, -1)) }).waitFor();
    }),
);
