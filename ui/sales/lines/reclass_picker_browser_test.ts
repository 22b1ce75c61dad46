import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { browserTest, withBrowser } from "../../../scripts/testing/browser.ts";
import { makeCategory, makeInventory, makeItem } from "../../../db/factories.ts";
import { inventory } from "../../../db/schema/mod.ts";
import { heldLine, post } from "../../../api/sales/lines/checkin_fixtures.ts";

browserTest(
  "reclass - the target picker shows each serial's business unit, availability and status, and offers only valid targets",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      const db = env.tenant.db;
      const midland = await makeCategory(db, { model: "Business Unit", name: "Midland" });
      const odessa = await makeCategory(db, { model: "Business Unit", name: "Odessa" });
      const swivel = await makeItem(db, {
        item_number: "SW3",
        item_description: "3in swivel",
        inventory_type: "Itemized",
      });
      const s = await heldLine(env, {
        quantity: 5,
        stock: 10,
        row: { serial_number: "LOT-A", item_id: swivel.id, business_unit_id: midland.id },
      });
      const row = (serial_number: string, over: Parameters<typeof makeInventory>[1] = {}) =>
        makeInventory(db, { item_id: swivel.id, business_unit_id: midland.id, serial_number, ...over });
      await row("LOT-B", { quantity: 4, quantity_out: 1 });
      await row("LOT-R", { quantity: 2, status: "Repair" });
      // Not targets: another unit's serial, the same serial (case aside) and a charge code of the unit.
      await row("LOT-C", { business_unit_id: odessa.id });
      await row("lot-a", { item_id: (await makeItem(db, { inventory_type: "Itemized" })).id });
      const mileage = await makeItem(db, { item_number: "LOT-MILES", inventory_type: "Charge Code" });
      await row("LOT-CC", { item_id: mileage.id, quantity: 0 });
      const token = await env.login();
      await post(env, token, "/api/sales/inventory/check-in", {
        ticket_id: s.ticketId,
        line_items: [s.lineId],
        quantities_in: [3],
      });

      await signIn(undefined, undefined, `/sales/tickets/${s.ticketId}`);
      await page.getByRole("button", { name: "Check-In" }).click();
      await page.getByRole("button", { name: "Reclass" }).click();
      const dialog = page.getByRole("dialog", { name: "Reclass" });
      const to = dialog.locator("tbody tr", { hasText: "LOT-A" }).getByRole("combobox", {
        name: "To (Serial #)",
      });
      await to.fill("LOT");
      await page.getByRole("option", { name: /LOT-R/ }).waitFor();
      const texts = (await page.getByRole("option").allInnerTexts()).map((t) =>
        t.replace(/\s+/g, " ").trim()
      );
      assert.deepEqual(texts, [
        "LOT-B | SW3 | 3in swivel Midland · 3 available · Available",
        "LOT-R | SW3 | 3in swivel Midland · 2 available · Repair",
      ]);
      await page.getByRole("option", { name: /LOT-R/ }).click();
      assert.equal(await to.inputValue(), "LOT-R | SW3 | 3in swivel");
      // The date starts at now on the company's clock (UTC here), to the minute.
      const lotA = dialog.locator("tbody tr", { hasText: "LOT-A" });
      const date = await lotA.getByLabel("Date").inputValue();
      assert.match(date, /^\d{4}-\d\d-\d\dT\d\d:\d\d$/);
      assert.ok(Math.abs(Date.parse(`${date}Z`) - Date.now()) < 5 * 60_000, date);
      // A search with no target says so, not "Type to begin searching".
      await to.fill("");
      await to.fill("NOTHING-LIKE-IT");
      await page.getByRole("listbox").getByText("No serial number of this unit and type has room for it")
        .waitFor();
    }),
);

browserTest(
  "reclass - the target picker does not offer a Serialized serial that already holds 1; an empty one reclasses",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      const db = env.tenant.db;
      const midland = await makeCategory(db, { model: "Business Unit", name: "Midland" });
      const s = await heldLine(env, {
        quantity: 1,
        stock: 1,
        item: { item_number: "PV2", item_description: "Plug valve", inventory_type: "Serialized" },
        row: { serial_number: "PV-1", business_unit_id: midland.id },
      });
      const row = (serial_number: string, quantity: number) =>
        makeInventory(db, { item_id: s.itemId, business_unit_id: s.unitId, serial_number, quantity });
      await row("PV-2", 1); // holds its one valve: the server refuses it as a target
      const empty = await row("PV-3", 0);
      const token = await env.login();
      await post(env, token, "/api/sales/inventory/check-in", {
        ticket_id: s.ticketId,
        line_items: [s.lineId],
        quantities_in: [1],
      });

      await signIn(undefined, undefined, `/sales/tickets/${s.ticketId}`);
      await page.getByRole("button", { name: "Check-In" }).click();
      await page.getByRole("button", { name: "Reclass" }).click();
      const dialog = page.getByRole("dialog", { name: "Reclass" });
      const line = dialog.locator("tbody tr", { hasText: "PV-1" });
      const to = line.getByRole("combobox", { name: "To (Serial #)" });
      await to.fill("PV");
      await page.getByRole("option", { name: /PV-3/ }).waitFor();
      const names = (await page.getByRole("option").allInnerTexts()).map((t) =>
        t.replace(/\s+/g, " ").trim()
      );
      assert.deepEqual(names, ["PV-3 | PV2 | Plug valve Midland · 0 available · Available"]);
      await page.getByRole("option", { name: /PV-3/ }).click();
      await line.getByRole("spinbutton", { name: "Reclass Quantity" }).fill("1");
      await line.getByLabel("Date").fill("2026-03-02T09:00");
      await dialog.getByRole("button", { name: "Reclass" }).click();
      await dialog.waitFor({ state: "detached" });
      const moved = await db.select().from(inventory).where(eq(inventory.id, empty.id)).get();
      assert.equal(moved!.quantity, 1);
    }),
);
