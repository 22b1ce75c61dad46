import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { browserTest, withBrowser } from "../../../scripts/testing/browser.ts";
import { makeCategory, makeInventory, makeItem, makeLine, makeTicket } from "../../../db/factories.ts";
import { companies, inventory } from "../../../db/schema/mod.ts";
import { LINE_COLUMN_KEYS } from "./columns.ts";

const TABLE = 'table[aria-label="Line items"]';

/**
 * Each header of the line table that is displayed (the line's identity is not, outside check-in mode):
 * `shown` when its middle is in the window and no other cell covers it.
 */
const headers = (page: Page) =>
  page.evaluate(
    (sel) =>
      [...document.querySelector(sel)!.querySelectorAll("thead th")].filter((th) => th.checkVisibility()).map(
        (th) => {
          const r = th.getBoundingClientRect();
          const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
          return {
            name: th.textContent!.trim(),
            shown: r.left >= 0 && r.right <= innerWidth && th.contains(hit),
          };
        },
      ),
    TABLE,
  );

/** Scrolls the table sideways (a pixel offset, or "end"). */
const scroll = (page: Page, to: number | "end") =>
  page.evaluate(([sel, to]) => {
    const wrap = document.querySelector(sel)!.closest(".table-wrap")!;
    wrap.scrollLeft = to === "end" ? wrap.scrollWidth : Number(to);
  }, [TABLE, to] as const);

/** Displayed headers that cannot be brought into view by scrolling the table sideways (none when it works). */
const unreachable = (page: Page) =>
  page.evaluate(
    (sel) =>
      [...document.querySelector(sel)!.querySelectorAll("thead th")].filter((th) => th.checkVisibility())
        .flatMap((th) => {
          th.scrollIntoView({ inline: "center", block: "nearest" });
          const r = th.getBoundingClientRect();
          const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
          return th.contains(hit) ? [] : [th.textContent!.trim()];
        }),
    TABLE,
  );

async function keysInView(page: Page, keys: string[], when: string) {
  for (const at of [0, 500, "end"] as const) {
    await scroll(page, at);
    const shown = (await headers(page)).filter((h) => h.shown).map((h) => h.name);
    for (const k of keys) {
      assert.ok(shown.includes(k), `${when}: ${k} in view at scroll ${at}: ${shown.join(", ")}`);
    }
  }
}

browserTest(
  "line table - at 1366x768 Tax, Total, Status and Actions stay in view; in check-in mode the line's identity at the left and Status and Actions; every column can be scrolled to",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      const db = env.tenant.db;
      // Every column the settings offer, Status before Notes and the attachment (key columns go last).
      await db.update(companies).set({
        settings: { Sales: { TicketPage: LINE_COLUMN_KEYS.filter((k) => k !== "order") } },
      }).where(eq(companies.id, 1));
      const unit = await makeCategory(db, {
        model: "Business Unit",
        name: "Permian Basin South Yard Operations",
      });
      const item = await makeItem(db, {
        item_number: "FRAC-IRON-3IN-1502-LONG",
        item_description: "3in 1502 integral swivel joint, style 50, long radius",
        inventory_type: "Itemized",
        rate: 1234.5,
      });
      const ticket = await makeTicket(db, { business_unit_id: unit.id, use_min_rate_logic: false });
      for (let i = 0; i < 3; i++) {
        const row = await makeInventory(db, {
          item_id: item.id,
          business_unit_id: unit.id,
          serial_number: `LOT-2026-PERMIAN-${1000 + i}`,
          inventory_description: "Returned from the Tomahawk pad, inspected and recertified",
          quantity: 5000,
          quantity_out: 1200,
        });
        await makeLine(db, {
          ticket_id: ticket.id,
          inventory_id: row.id,
          order: i + 1,
          quantity: 1200,
          quantity_held: 1200,
          price: 1234.5,
          duration: 12,
          discount: 12.5,
          markup: 7.5,
          state_tax: 6.25,
          county_tax: 0.5,
          city_tax: 1.25,
          start_date: "2026-10-01T07:00:00Z",
          end_date: "2026-10-13T17:30:00Z",
          notes: "Crew asked for the long-radius joints; swap two if the short ones come back first",
        });
        await db.update(inventory).set({ quantity_out: 1200 }).where(eq(inventory.id, row.id));
      }
      const { user } = await env.userWithToken({ name: "Ada Admin", permissions: ["sales-admin"] });
      await page.setViewportSize({ width: 1366, height: 768 });
      await signIn(user.email, "password123", `/sales/tickets/${ticket.id}`);
      await page.locator(`${TABLE} tbody tr`).first().waitFor();

      const keys = ["Tax", "Total", "Status", "Actions"];
      const names = (await headers(page)).map((h) => h.name);
      assert.deepEqual(names.slice(-4), keys, "the key columns come last");
      assert.ok(names.includes("Notes") && names.includes("Attachment"));
      await keysInView(page, keys, "lines");
      assert.deepEqual(await unreachable(page), [], "each column can be scrolled into view");
      // The row's actions work wherever the table is scrolled.
      await scroll(page, 0);
      await page.getByRole("button", { name: "Edit line LOT-2026-PERMIAN-1001" }).click();
      await page.getByRole("dialog", { name: "Edit Line Item" }).getByRole("button", { name: "Cancel" })
        .click();

      // Check-in mode: the line's identity first, then six columns of inputs; the identity stays at the
      // left and Status and Actions at the right (Tax and Total scroll with the rest, issue 31).
      await page.getByRole("toolbar", { name: "Ticket actions" }).getByRole("button", { name: "Check-In" })
        .click();
      await page.getByRole("checkbox", { name: "Select LOT-2026-PERMIAN-1000" }).waitFor();
      const checkInNames = (await headers(page)).map((h) => h.name);
      assert.deepEqual(checkInNames.slice(0, 3), ["Line", "Select", "Date"], "the identity, then the inputs");
      assert.deepEqual(checkInNames.slice(-2), ["Status", "Actions"]);
      assert.ok(!checkInNames.includes("Serial #") && !checkInNames.includes("Item #"), "said once, in Line");
      await keysInView(page, ["Line", "Status", "Actions"], "check-in mode");
      assert.deepEqual(await unreachable(page), [], "each check-in column can be scrolled into view");
      await scroll(page, "end");
      await page.getByRole("textbox", { name: "Quantity in LOT-2026-PERMIAN-1000" }).fill("2");
    }),
);
