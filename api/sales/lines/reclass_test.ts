import assert from "node:assert/strict";
import { withEnv } from "../../../scripts/testing/harness.ts";
import { eq } from "drizzle-orm";
import { makeInventory, makeItem } from "../../../db/factories.ts";
import { inventory } from "../../../db/schema/mod.ts";
import { auditOf, heldLine, logOf, post, rowOf } from "./checkin_fixtures.ts";

const PATH = "/api/sales/sales/reclass";
const CHECK_IN = "/api/sales/inventory/check-in";
const DATE = "2026-03-02T09:00";

Deno.test("reclass - needs a prior check-in, moves checked-in stock within the cap, logs and audits", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const s = await heldLine(env, { quantity: 5, stock: 10, row: { serial_number: "LOT-A" } });
    const target = await makeInventory(env.tenant.db, {
      item_id: s.itemId,
      business_unit_id: s.unitId,
      serial_number: "LOT-B",
      quantity: 1,
    });
    const row = (q: unknown, over: Record<string, unknown> = {}) => ({
      sale_id: s.lineId,
      reclass_date: DATE,
      from_inventory_id: s.inventoryId,
      to_inventory_id: target.id,
      reclass_quantity: q,
      ...over,
    });
    const before = await post(env, token, PATH, { ticket_id: s.ticketId, rows: [row(1)] }, 422);
    assert.equal(before.detail, "Check In Before Reclassing");

    await post(env, token, CHECK_IN, { ticket_id: s.ticketId, line_items: [s.lineId], quantities_in: [3] });
    assert.equal(
      (await post(env, token, PATH, { ticket_id: s.ticketId, rows: [row(4)] }, 422)).detail,
      "Checked in: 3",
    );
    assert.equal(
      (await post(env, token, PATH, { ticket_id: s.ticketId, rows: [row(0)] }, 422)).errors[0].message,
      "Must be positive",
    );
    assert.equal(
      (await post(env, token, PATH, { ticket_id: s.ticketId, rows: [row(-2)] }, 422)).errors[0].message,
      "Must be positive",
    );
    assert.equal(
      (await post(env, token, PATH, { ticket_id: s.ticketId, rows: [row(1.5)] }, 422)).errors[0].message,
      "Must be a whole number",
    );
    assert.equal(
      (await post(env, token, PATH, { ticket_id: s.ticketId, rows: [row(1, { to_inventory_id: "" })] }, 422))
        .errors[0].message,
      "Required",
    );
    assert.equal(
      (await post(env, token, PATH, { ticket_id: s.ticketId, rows: [row(1, { reclass_date: "" })] }, 422))
        .detail,
      "Please fill in dates for rows being reclassed",
    );
    // two rows of one request count together
    assert.equal(
      (await post(env, token, PATH, { ticket_id: s.ticketId, rows: [row(2), row(2)] }, 422)).detail,
      "Checked in: 1",
    );
    assert.equal((await rowOf(env, target.id))!.quantity, 1, "a refused request moves nothing");

    const res = await post(env, token, PATH, { ticket_id: s.ticketId, rows: [row(2)] });
    assert.equal(res.lines[0].reclassed, 2);
    assert.deepEqual([(await rowOf(env, s.inventoryId))!.quantity, (await rowOf(env, target.id))!.quantity], [
      8,
      3,
    ]);
    const log = (await logOf(env, s.lineId)).at(-1)!;
    assert.deepEqual(
      [log.action, log.quantity_reclassed, log.date, log.starting_quantity, log.ending_quantity],
      ["Reclass", 2, "2026-03-02T09:00:00Z", 10, 8],
    );
    assert.deepEqual((await auditOf(env, s.inventoryId)).at(-1)!.action, "Reclass Out");
    assert.deepEqual(
      (await auditOf(env, target.id)).map((a) => [a.action, a.quantity, a.quantity_change]),
      [["Reclass In", 3, 2]],
    );
    await post(env, token, PATH, { ticket_id: s.ticketId, rows: [row(1)] });
    assert.equal(
      (await post(env, token, PATH, { ticket_id: s.ticketId, rows: [row(1)] }, 422)).detail,
      "No Quantity Left to Reclass",
    );
  }));

Deno.test("reclass - targets: same business unit, same inventory type that holds stock, different serial", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const s = await heldLine(env, { quantity: 3, stock: 3, row: { serial_number: "SN-1" } });
    await post(env, token, CHECK_IN, { ticket_id: s.ticketId, line_items: [s.lineId], quantities_in: [3] });
    const row = (to: number, q = 1) => ({
      ticket_id: s.ticketId,
      rows: [{
        sale_id: s.lineId,
        reclass_date: DATE,
        from_inventory_id: s.inventoryId,
        to_inventory_id: to,
        reclass_quantity: q,
      }],
    });
    const otherUnit = await makeInventory(env.tenant.db, { item_id: s.itemId, serial_number: "SN-2" });
    assert.equal(
      (await post(env, token, PATH, row(otherUnit.id), 422)).detail,
      "Choose a serial number of the same business unit",
    );
    const otherItem = await makeItem(env.tenant.db, { inventory_type: "Itemized" });
    const sameSerial = await makeInventory(env.tenant.db, {
      item_id: otherItem.id,
      business_unit_id: s.unitId,
      serial_number: "sn-1",
    });
    assert.equal(
      (await post(env, token, PATH, row(sameSerial.id), 422)).detail,
      "Choose a different serial number",
    );
    const typeRefusal =
      "Choose another Itemized serial number: a reclass target is of the same inventory type and holds stock";
    const chargeCode = await makeItem(env.tenant.db, { inventory_type: "Charge Code" });
    const charge = await makeInventory(env.tenant.db, {
      item_id: chargeCode.id,
      business_unit_id: s.unitId,
      serial_number: "CC-MILE",
      quantity: 0,
    });
    const refused = await post(env, token, PATH, row(charge.id), 422);
    assert.equal(refused.detail, typeRefusal);
    assert.equal(refused.errors[0].path, "rows.0.to_inventory_id");
    assert.equal((await rowOf(env, charge.id))!.quantity, 0, "a charge code never receives stock");
    const serialized = await makeItem(env.tenant.db, { inventory_type: "Serialized" });
    const single = await makeInventory(env.tenant.db, {
      item_id: serialized.id,
      business_unit_id: s.unitId,
      serial_number: "SN-9",
      quantity: 0,
    });
    assert.equal((await post(env, token, PATH, row(single.id), 422)).detail, typeRefusal);
    const lot = await makeInventory(env.tenant.db, {
      item_id: otherItem.id,
      business_unit_id: s.unitId,
      serial_number: "LOT-7",
      quantity: 0,
    });
    await post(env, token, PATH, row(lot.id, 1));
    assert.equal((await rowOf(env, lot.id))!.quantity, 1, "another item of the same type may receive");
    await post(env, token, PATH, row(999999), 404);
    const wrongFrom = row(lot.id);
    wrongFrom.rows[0].from_inventory_id = lot.id;
    assert.equal((await post(env, token, PATH, wrongFrom, 422)).detail, "Not the line's inventory");
  }));

Deno.test("reclass - a Serialized target holds at most 1", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const s = await heldLine(env, {
      quantity: 1,
      stock: 1,
      item: { inventory_type: "Serialized" },
      row: { serial_number: "PV-1" },
    });
    await post(env, token, CHECK_IN, { ticket_id: s.ticketId, line_items: [s.lineId], quantities_in: [1] });
    const single = await makeInventory(env.tenant.db, {
      item_id: s.itemId,
      business_unit_id: s.unitId,
      serial_number: "PV-2",
      quantity: 1,
    });
    const body = {
      ticket_id: s.ticketId,
      rows: [{
        sale_id: s.lineId,
        reclass_date: DATE,
        from_inventory_id: s.inventoryId,
        to_inventory_id: single.id,
        reclass_quantity: 1,
      }],
    };
    const full = await post(env, token, PATH, body, 422);
    assert.equal(full.detail, "The target row cannot hold more than 1");
    // Refused as a target (the picker's rule), not for its quantity.
    assert.deepEqual(full.errors, [{ path: "rows.0.to_inventory_id", message: full.detail }]);
    await env.tenant.db.update(inventory).set({ quantity: 0 }).where(eq(inventory.id, single.id));
    await post(env, token, PATH, body);
    assert.equal((await rowOf(env, single.id))!.quantity, 1);
  }));
