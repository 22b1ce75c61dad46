import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { browserTest, withBrowser } from "../../../scripts/testing/browser.ts";
import { makeCategory, makeInventory, makeItem } from "../../../db/factories.ts";

/**
 * Where each header of the table is, at the table's current sideways scroll: `shown` when its middle is
 * inside the window and no other cell covers it there.
 */
function headers(page: Page, label: string) {
  return page.evaluate((label) => {
    const table = document.querySelector(`table[aria-label="${label}"]`)!;
    return [...table.querySelectorAll("thead th")].map((th) => {
      const r = th.getBoundingClientRect();
      const [x, y] = [(r.left + r.right) / 2, (r.top + r.bottom) / 2];
      const inWindow = r.left >= 0 && r.right <= innerWidth;
      return {
        name: th.textContent!.trim(),
        shown: inWindow && th.contains(document.elementFromPoint(x, y)),
      };
    });
  }, label);
}

/** Scrolls the table sideways to `to` (a pixel offset, or "end"). */
const scrollTable = (page: Page, label: string, to: number | "end") =>
  page.evaluate(([label, to]) => {
    const wrap = document.querySelector(`table[aria-label="${label}"]`)!.closest(".table-wrap")!;
    wrap.scrollLeft = to === "end" ? wrap.scrollWidth : Number(to);
  }, [label, to] as const);

/** Brings each header to the middle of the table in turn: every one can be read. */
const reachable = (page: Page, label: string) =>
  page.evaluate((label) => {
    const table = document.querySelector(`table[aria-label="${label}"]`)!;
    return [...table.querySelectorAll("thead th")].flatMap((th) => {
      th.scrollIntoView({ inline: "center", block: "nearest" });
      const r = th.getBoundingClientRect();
      const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
      return th.contains(hit) ? [] : [th.textContent!.trim()];
    });
  }, label);

browserTest(
  "inventory - at 1366x768 the serial number, Status and Actions stay in view; every column can be scrolled to",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      const db = env.tenant.db;
      const unit = await makeCategory(db, {
        name: "Permian Basin South Yard Operations",
        custom: { locations: ["North laydown yard"] },
      });
      const item = await makeItem(db, {
        item_number: "FRAC-IRON-3IN-1502-LONG",
        item_description: "3in 1502 integral swivel joint, style 50, long radius",
        inventory_type: "Itemized",
      });
      for (let i = 0; i < 3; i++) {
        await makeInventory(db, {
          item_id: item.id,
          business_unit_id: unit.id,
          serial_number: `LOT-2026-PERMIAN-${1000 + i}`,
          quantity: 123456,
          quantity_out: 12345,
          status: i === 1 ? "Repair" : "Available",
          hidden: i === 2,
        });
      }
      await page.setViewportSize({ width: 1366, height: 768 });
      await signIn(undefined, undefined, "/sales/itemized-inventory?include_hidden=true");
      const label = "Itemized Inventory";
      const keys = ["Serial Number", "Status", "Actions"];
      for (const at of [0, 400, "end"] as const) {
        await scrollTable(page, label, at);
        const shown = (await headers(page, label)).filter((h) => h.shown).map((h) => h.name);
        for (const k of keys) {
          assert.ok(shown.includes(k), `${k} in view at scroll ${at}: ${shown.join(", ")}`);
        }
      }
      const all = (await headers(page, label)).map((h) => h.name);
      assert.ok(all.includes("Quantity Available") && all.includes("Last Updated by"));
      assert.deepEqual(await reachable(page, label), [], "each column can be scrolled into view");

      // The key cells of a row work wherever the table is scrolled.
      await scrollTable(page, label, 0);
      const row = page.getByRole("table", { name: label }).getByRole("row", {
        name: /LOT-2026-PERMIAN-1001/,
      });
      assert.match(await row.getByRole("cell").nth(-2).innerText(), /^Repair/);
      await row.getByRole("button", { name: "Actions for LOT-2026-PERMIAN-1001" }).click();
      await page.getByRole("menuitem", { name: "Edit" }).waitFor();
      await page.keyboard.press("Escape");

      // The location view too.
      await page.getByRole("link", { name: "By Location" }).click();
      await page.waitForURL(/view=location/);
      await page.getByRole("row", { name: /North laydown yard|Base/ }).first().waitFor();
      for (const at of [0, "end"] as const) {
        await scrollTable(page, label, at);
        const shown = (await headers(page, label)).filter((h) => h.shown).map((h) => h.name);
        for (const k of ["Serial Number", "Status"]) {
          assert.ok(shown.includes(k), `${k} (location view): ${shown}`);
        }
      }
      assert.deepEqual(await reachable(page, label), []);
    }),
);
