import assert from "node:assert/strict";
import { browserTest, withBrowser } from "../../../scripts/testing/browser.ts";
import { makeCategory, makeInventory, makeItem } from "../../../db/factories.ts";
import { heldLine, logOf, post, rowOf } from "../../../api/sales/lines/checkin_fixtures.ts";

const CHECK_IN = "/api/sales/inventory/check-in";

/** A ticket line holding LOT-A with 3 checked in, an unchecked LOT-D line, and reclass targets. */
async function reclassSetup(env: Parameters<Parameters<typeof withBrowser>[0]>[0]["env"]) {
  const db = env.tenant.db;
  const s = await heldLine(env, { quantity: 5, stock: 10, row: { serial_number: "LOT-A" } });
  const other = await heldLine(env, {
    quantity: 1,
    stock: 2,
    row: { serial_number: "LOT-D", business_unit_id: s.unitId },
    line: { ticket_id: s.ticketId },
  });
  const target = await makeInventory(db, {
    item_id: s.itemId,
    business_unit_id: s.unitId,
    serial_number: "LOT-B",
    quantity: 1,
  });
  // Not offered: the same serial on another item of the unit, and a serial of another unit.
  const sameSerial = await makeItem(db, { inventory_type: "Itemized" });
  await makeInventory(db, { item_id: sameSerial.id, business_unit_id: s.unitId, serial_number: "lot-a" });
  const elsewhere = await makeCategory(db, { model: "Business Unit", name: "Far Yard" });
  await makeInventory(db, { item_id: s.itemId, business_unit_id: elsewhere.id, serial_number: "LOT-C" });
  // Nor rows of another inventory type: a charge code (holds no stock) and a serialized unit.
  for (
    const [inventory_type, serial_number] of [["Charge Code", "LOT-CC"], ["Serialized", "LOT-S"]] as const
  ) {
    const item = await makeItem(db, { inventory_type });
    await makeInventory(db, { item_id: item.id, business_unit_id: s.unitId, serial_number, quantity: 0 });
  }
  const token = await env.login();
  await post(env, token, CHECK_IN, { ticket_id: s.ticketId, line_items: [s.lineId], quantities_in: [3] });
  return { ...s, otherLineId: other.lineId, targetId: target.id };
}

browserTest(
  "line dialogs - the inventory log of a checked-in line, and a reclass to another serial",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      const s = await reclassSetup(env);
      await signIn(undefined, undefined, `/sales/tickets/${s.ticketId}`);

      await page.getByRole("button", { name: "Inventory log LOT-A" }).click();
      const log = page.getByRole("dialog", { name: "Inventory Log" });
      const logTable = log.getByRole("table", { name: "Inventory log of LOT-A" });
      const checkIn = logTable.getByRole("row", { name: /Check In/ });
      await checkIn.waitFor();
      const admin = (await logOf(env, s.lineId))[0].user_name;
      assert.ok(admin, "the log names who checked in");
      const cells = await checkIn.getByRole("cell").allInnerTexts();
      assert.equal(cells.length, 11);
      assert.deepEqual(cells.slice(1, 10), ["3", "0", "0", "10", "10", "No", "No", "Check In", admin]);
      await log.getByRole("button", { name: "Close" }).click();
      await log.waitFor({ state: "detached" });

      await page.getByRole("button", { name: "Inventory log LOT-D" }).click();
      await page.getByRole("dialog", { name: "Inventory Log" }).getByText(
        "No inventory log entries for this item",
      )
        .waitFor();
      await page.keyboard.press("Escape");
      await page.getByRole("dialog", { name: "Inventory Log" }).waitFor({ state: "detached" });

      await page.getByRole("button", { name: "Check-In" }).click();
      await page.getByRole("button", { name: "Reclass" }).click();
      const dialog = page.getByRole("dialog", { name: "Reclass" });
      const rowD = dialog.locator("tbody tr", { hasText: "LOT-D" });
      await rowD.getByText("Check In Before Reclassing").waitFor();
      assert.equal(await rowD.getByLabel("Reclass Quantity").isDisabled(), true);

      const rowA = dialog.locator("tbody tr", { hasText: "LOT-A" });
      const submit = dialog.getByRole("button", { name: "Reclass" });
      assert.equal(await submit.isDisabled(), true, "nothing to reclass yet");
      const quantity = rowA.getByLabel("Reclass Quantity");
      await quantity.fill("4");
      await rowA.getByText("Checked in: 3").waitFor();
      await quantity.fill("2");
      await rowA.getByText("Checked in: 3").waitFor({ state: "detached" });
      assert.equal(await submit.isDisabled(), true, "the recipient is required");

      const to = rowA.getByRole("combobox", { name: "To (Serial #)" });
      await to.fill("LOT");
      await page.getByRole("option", { name: /LOT-B/ }).waitFor();
      // Same unit and inventory type, another serial: LOT-B and LOT-D; not LOT-A (either item), LOT-C,
      // the charge code LOT-CC nor the serialized LOT-S.
      const offered = (await page.getByRole("option").allInnerTexts()).map((o) => o.split(" | ")[0]).sort();
      assert.deepEqual(offered, ["LOT-B", "LOT-D"]);
      await page.getByRole("option", { name: /LOT-B/ }).click();
      await rowA.getByLabel("Date", { exact: true }).fill("2026-03-02T09:00");
      assert.equal(await submit.isDisabled(), false);
      await submit.click();

      await page.getByRole("status").getByText("Reclassed 1 row").waitFor();
      await dialog.waitFor({ state: "detached" });
      assert.deepEqual([
        (await rowOf(env, s.inventoryId))!.quantity,
        (await rowOf(env, s.targetId))!.quantity,
      ], [8, 3]);
      const entry = (await logOf(env, s.lineId)).at(-1)!;
      assert.deepEqual([entry.action, entry.quantity_reclassed], ["Reclass", 2]);
      assert.equal(entry.date, "2026-03-02T09:00:00Z", "dates are entered in UTC, like the table shows them");

      await page.getByRole("button", { name: "Inventory log LOT-A" }).click();
      const after = page.getByRole("dialog", { name: "Inventory Log" });
      const reclassRow = after.locator("tbody tr", { hasText: "Reclass" });
      await reclassRow.waitFor();
      assert.deepEqual((await reclassRow.getByRole("cell").allInnerTexts()).slice(1, 9), [
        "0",
        "0",
        "2",
        "10",
        "8",
        "No",
        "No",
        "Reclass",
      ]);
      // Newest first.
      assert.match(await after.locator("tbody tr").first().innerText(), /Reclass/);
    }),
);

browserTest(
  "line dialogs - a reclass without a date alerts, closes the dialog and sends nothing",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      const s = await reclassSetup(env);
      await signIn(undefined, undefined, `/sales/tickets/${s.ticketId}`);
      await page.getByRole("button", { name: "Check-In" }).click();
      await page.getByRole("button", { name: "Reclass" }).click();
      const dialog = page.getByRole("dialog", { name: "Reclass" });
      const rowA = dialog.locator("tbody tr", { hasText: "LOT-A" });
      await rowA.getByLabel("Reclass Quantity").fill("1");
      await rowA.getByRole("combobox", { name: "To (Serial #)" }).fill("LOT-B");
      await page.getByRole("option", { name: /LOT-B/ }).click();
      // The date starts at now: the user clears it.
      await rowA.getByLabel("Date").fill("");

      const requests: string[] = [];
      page.on("request", (r) => {
        if (r.url().includes("/api/sales/sales/reclass")) requests.push(r.url());
      });
      // Under a deadline: a missing alert fails the test instead of hanging the run.
      const alerted = new Promise<string>((resolve, reject) => {
        const late = setTimeout(() => reject(new Error("no alert within 15 s")), 15_000);
        page.once("dialog", (d) => {
          clearTimeout(late);
          resolve(d.message());
          d.accept();
        });
      });
      await dialog.getByRole("button", { name: "Reclass" }).click();
      assert.equal(await alerted, "Please fill in dates for rows being reclassed");
      await dialog.waitFor({ state: "detached" });
      assert.deepEqual(requests, []);
      assert.deepEqual([
        (await rowOf(env, s.inventoryId))!.quantity,
        (await rowOf(env, s.targetId))!.quantity,
      ], [
        10,
        1,
      ]);
      assert.deepEqual((await logOf(env, s.lineId)).map((e) => e.action), ["Check In"]);
    }),
);
