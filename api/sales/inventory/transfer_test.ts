import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { type TestEnv, withEnv } from "../../../scripts/testing/harness.ts";
import { makeCategory } from "../../../db/factories.ts";
import { categories, inventory, inventory_locations } from "../../../db/schema/mod.ts";
import {
  auditOf,
  makeInventoryCategory,
  makeItemOf,
  makeRow,
  makeUnit,
  send,
  stored,
} from "./test_fixtures.ts";

const UNIT = "/api/sales/inventory/business-unit-transfer";
const LOCATION = "/api/sales/inventory/location-transfer";

Deno.test("business-unit transfer - creates the target at zero, reuses it, and audits both sides", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const from = await makeUnit(env, [], "Odessa");
    const to = await makeUnit(env, [], "Midland");
    const category = await makeInventoryCategory(env, "Iron");
    const source = await makeRow(env, {
      business_unit_id: from.id,
      serial_number: "LOT-7",
      quantity: 20,
      inventory_description: "Painted blue",
      category_id: category.id,
      status: "Repair",
      purchase_date: "2023-05-01",
      purchase_price: 99.5,
      manufacturer: "FMC",
    });
    const first = await send(env, token, "POST", UNIT, {
      inventory_id: source.id,
      to_business_unit_id: to.id,
      quantity: 5,
    });
    assert.equal(first.message, "Transferred 5 to Midland");
    assert.equal(first.from.id, source.id);
    assert.deepEqual([first.from.quantity, first.from.quantity_available], [15, 15]);
    assert.equal(first.to.business_unit.id, to.id);
    assert.equal(first.to.quantity, 5);
    assert.deepEqual(
      [
        first.to.item_id,
        first.to.serial_number,
        first.to.inventory_description,
        first.to.category?.name,
        first.to.status,
        first.to.purchase_date,
        first.to.purchase_price,
        first.to.manufacturer,
      ],
      [source.item_id, "LOT-7", "Painted blue", "Iron", "Repair", "2023-05-01", 99.5, "FMC"],
    );

    const second = await send(env, token, "POST", UNIT, {
      inventory_id: source.id,
      to_business_unit_id: String(to.id),
      quantity: "3",
    });
    assert.equal(second.to.id, first.to.id, "the target row is reused");
    assert.equal(second.to.quantity, 8);
    assert.equal(second.from.quantity, 12);
    const rows = await env.tenant.db.select().from(inventory).where(eq(inventory.item_id, source.item_id));
    assert.equal(rows.length, 2);

    const back = await send(env, token, "POST", UNIT, {
      inventory_id: first.to.id,
      to_business_unit_id: from.id,
      quantity: 8,
    });
    assert.equal(back.to.id, source.id);
    assert.deepEqual([back.from.quantity, back.to.quantity], [0, 20]);

    assert.deepEqual((await auditOf(env, source.id)).map((a) => [a.action, a.quantity, a.quantity_change]), [
      ["Business Unit Transfer Out", 15, -5],
      ["Business Unit Transfer Out", 12, -3],
      ["Business Unit Transfer In", 20, 8],
    ]);
    const targetAudit = await auditOf(env, first.to.id);
    assert.deepEqual(targetAudit.map((a) => [a.action, a.quantity, a.quantity_change, a.business_unit]), [
      ["Business Unit Transfer In", 5, 5, "Midland"],
      ["Business Unit Transfer In", 8, 3, "Midland"],
      ["Business Unit Transfer Out", 0, -8, "Midland"],
    ]);
  }));

Deno.test("business-unit transfer - quantity and target rules, with the spec's messages", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const from = await makeUnit(env, ["Yard"]);
    const to = await makeUnit(env);
    const row = await makeRow(env, { business_unit_id: from.id, quantity: 10, quantity_out: 4 });
    await send(env, token, "POST", LOCATION, {
      inventory_id: row.id,
      fromLocation: "Base",
      toLocation: "Yard",
      quantity: 2,
    });
    const fails = async (json: Record<string, unknown>, path: string, message: string) => {
      const body = await send(env, token, "POST", UNIT, {
        inventory_id: row.id,
        to_business_unit_id: to.id,
        ...json,
      }, 422);
      assert.deepEqual(body.errors, [{ path, message }], JSON.stringify(body));
    };
    await fails({ quantity: 5 }, "quantity", "Cannot exceed current quantity: 4");
    await fails({ quantity: undefined }, "quantity", "Required");
    await fails({ quantity: "" }, "quantity", "Required");
    await fails({ quantity: 0 }, "quantity", "Must be a positive number");
    await fails({ quantity: -2 }, "quantity", "Must be a positive number");
    await fails({ quantity: 1.5 }, "quantity", "Must be a whole number");
    await fails({ quantity: 1, to_business_unit_id: null }, "to_business_unit_id", "Required");
    await fails(
      { quantity: 1, to_business_unit_id: from.id },
      "to_business_unit_id",
      "Choose a business unit other than the row's own",
    );
    const itemCategory = await makeCategory(env.tenant.db, { model: "Item Category" });
    await fails(
      { quantity: 1, to_business_unit_id: itemCategory.id },
      "to_business_unit_id",
      "Unknown business unit",
    );
    await send(
      env,
      token,
      "POST",
      UNIT,
      { inventory_id: 9999, to_business_unit_id: to.id, quantity: 1 },
      404,
    );
    const empty = await makeRow(env, { business_unit_id: from.id, quantity: 0 });
    const none = await send(env, token, "POST", UNIT, {
      inventory_id: empty.id,
      to_business_unit_id: to.id,
      quantity: 1,
    }, 422);
    assert.equal(none.detail, "Cannot exceed current quantity: 0");

    assert.equal((await stored(env, row.id))!.quantity, 10, "nothing moved");
    assert.equal(
      (await env.tenant.db.select().from(inventory).where(eq(inventory.business_unit_id, to.id))).length,
      0,
    );
    const ok = await send(env, token, "POST", UNIT, {
      inventory_id: row.id,
      to_business_unit_id: to.id,
      quantity: 4,
    });
    assert.deepEqual([ok.from.quantity, ok.from.quantity_available, ok.to.quantity], [6, 0, 4]);
  }));

Deno.test("business-unit transfer - a serialized row holds at most one in the target unit", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const a = await makeUnit(env);
    const b = await makeUnit(env);
    const item = await makeItemOf(env, "Serialized");
    const source = await makeRow(env, {
      item_id: item.id,
      business_unit_id: a.id,
      serial_number: "S-1",
      quantity: 1,
    });
    const moved = await send(env, token, "POST", UNIT, {
      inventory_id: source.id,
      to_business_unit_id: b.id,
      quantity: 1,
    });
    assert.deepEqual([moved.from.quantity, moved.to.quantity], [0, 1]);
    // A second serial-1 row appears in the source unit (an edit) and would double the target.
    await env.tenant.db.update(inventory).set({ quantity: 1 }).where(eq(inventory.id, source.id));
    const full = await send(env, token, "POST", UNIT, {
      inventory_id: source.id,
      to_business_unit_id: b.id,
      quantity: 1,
    }, 422);
    assert.deepEqual(full.errors, [{ path: "quantity", message: "The target row cannot hold more than 1" }]);
    assert.equal((await stored(env, source.id))!.quantity, 1);
    assert.equal((await stored(env, moved.to.id))!.quantity, 1);
  }));

/** quantity_out_location always equals the sum of the row's locations. */
async function assertLocations(env: TestEnv, id: number, expected: [string, number][], base: number) {
  const locs = await env.tenant.db.select().from(inventory_locations).where(
    eq(inventory_locations.inventory_id, id),
  )
    .orderBy(inventory_locations.name);
  assert.deepEqual(locs.map((l) => [l.name, l.quantity]), expected);
  const row = (await stored(env, id))!;
  assert.equal(row.quantity_out_location, expected.reduce((s, [, q]) => s + q, 0));
  assert.equal(row.quantity - row.quantity_out - row.quantity_out_location, base, "Base");
}

Deno.test("location transfer - to a location, between locations and back to Base", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const unit = await makeUnit(env, ["North Yard", "South Yard"]);
    const row = await makeRow(env, { business_unit_id: unit.id, quantity: 10, quantity_out: 2 });
    const move = (fromLocation: string, toLocation: string, quantity: number, status = 200) =>
      send(
        env,
        token,
        "POST",
        LOCATION,
        { inventory_id: row.id, fromLocation, toLocation, quantity },
        status,
      );

    const r1 = await move("Base", "North Yard", 5);
    assert.equal(r1.message, "Moved 5 from Base to North Yard");
    assert.deepEqual(r1.inventory.locations, [{ name: "North Yard", quantity: 5 }]);
    assert.equal(r1.inventory.quantity_available, 3);
    await assertLocations(env, row.id, [["North Yard", 5]], 3);

    await move("north yard", "SOUTH YARD", 2);
    await assertLocations(env, row.id, [["North Yard", 3], ["South Yard", 2]], 3);

    await move("North Yard", "Base", 3);
    await assertLocations(env, row.id, [["South Yard", 2]], 6);
    await move("South Yard", "base", 2);
    await assertLocations(env, row.id, [], 8);
    assert.equal((await stored(env, row.id))!.quantity, 10, "a location transfer never changes the quantity");

    const audit = await auditOf(env, row.id);
    assert.deepEqual(audit.map((a) => [a.action, a.quantity_change, a.locations]), [
      ["Location Transfer", 0, "North Yard: 5"],
      ["Location Transfer", 0, "North Yard: 3, South Yard: 2"],
      ["Location Transfer", 0, "South Yard: 2"],
      ["Location Transfer", 0, ""],
    ]);
  }));

Deno.test("location transfer - never more than the source holds, only the unit's locations", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const unit = await makeUnit(env, ["A", "B"]);
    const bare = await makeUnit(env);
    const row = await makeRow(env, { business_unit_id: unit.id, quantity: 6, quantity_out: 1 });
    const fails = async (json: Record<string, unknown>, path: string, message: string, id = row.id) => {
      const body = await send(env, token, "POST", LOCATION, { inventory_id: id, ...json }, 422);
      assert.deepEqual(body.errors, [{ path, message }], JSON.stringify(body));
    };
    await fails(
      { fromLocation: "Base", toLocation: "A", quantity: 6 },
      "quantity",
      "Cannot exceed current quantity: 5",
    );
    await fails(
      { fromLocation: "Base", toLocation: "A", quantity: 0 },
      "quantity",
      "Must be a positive number",
    );
    await fails(
      { fromLocation: "Base", toLocation: "A", quantity: 1.5 },
      "quantity",
      "Must be a whole number",
    );
    await fails(
      { fromLocation: "A", toLocation: "B", quantity: 1 },
      "quantity",
      "Cannot exceed current quantity: 0",
    );
    await fails({ fromLocation: "Base", toLocation: "Mars", quantity: 1 }, "toLocation", "Unknown location");
    await fails({ fromLocation: "Mars", toLocation: "A", quantity: 1 }, "fromLocation", "Unknown location");
    await fails(
      { fromLocation: "A", toLocation: "a", quantity: 1 },
      "toLocation",
      "Choose a location other than the source",
    );
    await fails({ fromLocation: "", toLocation: "A", quantity: 1 }, "fromLocation", "Required");
    const elsewhere = await makeRow(env, { business_unit_id: bare.id, quantity: 3 });
    await fails(
      { fromLocation: "Base", toLocation: "A", quantity: 1 },
      "toLocation",
      "Unknown location",
      elsewhere.id,
    );
    await send(env, token, "POST", LOCATION, {
      inventory_id: 999,
      fromLocation: "Base",
      toLocation: "A",
      quantity: 1,
    }, 404);

    await send(env, token, "POST", LOCATION, {
      inventory_id: row.id,
      fromLocation: "Base",
      toLocation: "A",
      quantity: 5,
    });
    await fails(
      { fromLocation: "A", toLocation: "B", quantity: 6 },
      "quantity",
      "Cannot exceed current quantity: 5",
    );
    await fails(
      { fromLocation: "Base", toLocation: "B", quantity: 1 },
      "quantity",
      "Cannot exceed current quantity: 0",
    );
    await assertLocations(env, row.id, [["A", 5]], 0);
  }));

Deno.test("location transfer - stock at a location since removed from the unit can still be moved out", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const unit = await makeUnit(env, ["Old Yard"]);
    const row = await makeRow(env, { business_unit_id: unit.id, quantity: 4 });
    await send(env, token, "POST", LOCATION, {
      inventory_id: row.id,
      fromLocation: "Base",
      toLocation: "Old Yard",
      quantity: 4,
    });
    await env.tenant.db.update(categories).set({ custom: { locations: [] } }).where(
      eq(categories.id, unit.id),
    );
    const refused = await send(env, token, "POST", LOCATION, {
      inventory_id: row.id,
      fromLocation: "Base",
      toLocation: "Old Yard",
      quantity: 1,
    }, 422);
    assert.equal(refused.errors[0].path, "toLocation");
    await send(env, token, "POST", LOCATION, {
      inventory_id: row.id,
      fromLocation: "Old Yard",
      toLocation: "Base",
      quantity: 4,
    });
    await assertLocations(env, row.id, [], 4);
  }));
