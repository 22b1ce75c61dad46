import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { browserTest, withBrowser } from "../../../../scripts/testing/browser.ts";
import { heldLine, lineOf, rowOf } from "../../../../api/sales/lines/checkin_fixtures.ts";
import { inventory_log } from "../../../../db/schema/mod.ts";
import { EXPENDABLE_HELD, HANDLED } from "../../../../api/sales/lines/rules.ts";

/** The status badges of the page's line table, by the item number on their row. */
async function badges(page: Page, items: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const item of items) {
    const row = page.getByRole("row").filter({ hasText: item });
    await row.first().waitFor();
    out.push((await row.first().getByRole("img").first().getAttribute("aria-label")) ?? "");
  }
  return out;
}

browserTest(
  "expendable status - a line shown Fully Checked-In! holds nothing: an expendable says it leaves stock when invoiced, and does",
  () =>
    withBrowser(async ({ env, page, base, signIn, hydrated }) => {
      // A ticket awaiting approval: 3 gasket kits (expendable, held) and a swivel checked back in.
      const kits = await heldLine(env, {
        quantity: 3,
        stock: 150,
        item: { item_number: "GK-KIT", isExpendable: true },
        ticket: { status: "RFA" },
      });
      const swivel = await heldLine(env, {
        quantity: 2,
        stock: 10,
        item: { item_number: "FI-2SW" },
        line: { ticket_id: kits.ticketId, quantity_held: 0 },
      });
      await env.tenant.db.insert(inventory_log).values({
        sale_id: swivel.lineId,
        inventory_id: swivel.inventoryId,
        date: "2026-03-01T08:00:00Z",
        quantity_in: 2,
        action: "Check In",
      });

      await signIn(undefined, undefined, `/sales/approval/${kits.ticketId}`);
      assert.deepEqual(await badges(page, ["GK-KIT", "FI-2SW"]), [EXPENDABLE_HELD, HANDLED]);

      // Approve (the invoice's approval uses the kits up), then look at them in Sales Data.
      const token = await env.login();
      await env.json("/api/sales/tickets", {
        token,
        method: "PUT",
        json: { id: kits.ticketId, status: "APP" },
      });
      assert.equal((await lineOf(env, kits.lineId))!.quantity_held, 0);
      const row = (await rowOf(env, kits.inventoryId))!;
      assert.deepEqual([row.quantity, row.quantity_out], [147, 0]);
      await page.goto(`${base}/sales/data?item_number=GK-KIT`);
      await hydrated();
      assert.deepEqual(await badges(page, ["GK-KIT"]), [HANDLED]);

      // Re-opened, the ticket holds the kits again and says so.
      await env.json("/api/sales/tickets", {
        token,
        method: "PUT",
        json: { id: kits.ticketId, status: "OPEN" },
      });
      await page.goto(`${base}/sales/tickets/${kits.ticketId}`);
      await hydrated();
      assert.deepEqual(await badges(page, ["GK-KIT", "FI-2SW"]), [EXPENDABLE_HELD, HANDLED]);
      assert.equal((await lineOf(env, kits.lineId))!.quantity_held, 3);
    }),
);
