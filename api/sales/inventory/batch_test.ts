import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { withEnv } from "../../../scripts/testing/harness.ts";
import { inventory, inventory_audit } from "../../../db/schema/mod.ts";
import {
  auditOf,
  makeInventoryCategory,
  makeItemOf,
  makeRow,
  makeUnit,
  send,
  stored,
  tokenWith,
} from "./test_fixtures.ts";

const BATCH = "/api/sales/inventory/batch";

Deno.test("inventory batch - creates new rows, updates stored ones and drops blank rows", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const unit = await makeUnit(env);
    const other = await makeUnit(env);
    await makeItemOf(env, "Serialized", { item_number: "SW-1" });
    const itemized = await makeItemOf(env, "Itemized", { item_number: "HM-2" });
    const category = await makeInventoryCategory(env, "Valves");
    const existing = await makeRow(env, {
      item_id: itemized.id,
      business_unit_id: unit.id,
      serial_number: "",
      quantity: 5,
      manufacturer: "Kept",
      status: "Repair",
    });
    const result = await send(env, token, "POST", BATCH, {
      business_unit_id: String(unit.id),
      rows: [
        {
          serial_number: " S-1 ",
          item_number: "sw-1",
          status: "",
          quantity: "1",
          category: "valves",
          location: "Rack 3",
          purchase_date: "2024-01-02",
          purchase_price: "$1,200.50",
          manufacturer: "SPM",
        },
        { serial_number: "", item_number: " ", status: null, quantity: "", category: "" },
        { serial_number: null, item_number: "HM-2", quantity: 12, status: "available" },
        { serial_number: 778, item_number: "SW-1" },
        { serial_number: "S-1", item_number: "SW-1", business_unit_id: other.id, quantity: 0 },
      ],
    });
    assert.deepEqual(result, { created: 3, updated: 1, message: "3 created, 1 updated" });

    const rows = await env.tenant.db.select().from(inventory).orderBy(inventory.id);
    assert.equal(rows.length, 4);
    const [, s1, s778, s1Other] = rows;
    assert.deepEqual(
      [s1.serial_number, s1.business_unit_id, s1.status, s1.quantity, s1.category_id, s1.location],
      ["S-1", unit.id, "Available", 1, category.id, "Rack 3"],
    );
    assert.deepEqual([s1.purchase_date, s1.purchase_price, s1.manufacturer], ["2024-01-02", 1200.5, "SPM"]);
    assert.deepEqual(
      [s778.serial_number, s778.quantity],
      ["778", 1],
      "a blank quantity is one serialized piece",
    );
    assert.deepEqual([s1Other.business_unit_id, s1Other.quantity], [other.id, 0]);

    const updated = (await stored(env, existing.id))!;
    assert.deepEqual([updated.quantity, updated.status, updated.manufacturer], [12, "Available", "Kept"]);
    assert.deepEqual((await auditOf(env, existing.id)).map((a) => [a.action, a.quantity_change]), [
      ["Batch Upload", 7],
    ]);
    const audit = await env.tenant.db.select().from(inventory_audit).where(
      eq(inventory_audit.action, "Batch Upload"),
    );
    assert.equal(audit.length, 4);

    const again = await send(env, token, "POST", BATCH, [
      { serial_number: "s-1", item_number: "SW-1", business_unit_id: unit.id, quantity: 0 },
    ]);
    assert.deepEqual([again.created, again.updated], [0, 1], "serials match ignoring case");
    assert.equal((await stored(env, s1.id))!.quantity, 0);
  }));

Deno.test("inventory batch - every error of every row is named by row and column, and nothing is saved", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const unit = await makeUnit(env);
    await makeItemOf(env, "Serialized", { item_number: "SW-1" });
    const itemized = await makeItemOf(env, "Itemized", { item_number: "HM-2" });
    await makeInventoryCategory(env, "Valves");
    const held = await makeRow(env, {
      item_id: itemized.id,
      business_unit_id: unit.id,
      serial_number: "H",
      quantity: 9,
      quantity_out: 6,
    });
    const good = { item_number: "HM-2", quantity: 1, business_unit_id: unit.id };
    const body = await send(env, token, "POST", BATCH, [
      { ...good, serial_number: "OK-1" },
      { ...good, serial_number: "X", item_number: "NOPE" },
      { ...good, item_number: "SW-1", serial_number: "" },
      { ...good, item_number: "SW-1", serial_number: "S", quantity: 2 },
      {},
      { ...good, serial_number: "Y", status: "Lost", purchase_date: "01/02/2024", purchase_price: "cheap" },
      { ...good, serial_number: "Z", category: "Pumps", quantity: -1 },
      { ...good, serial_number: "ok-1" },
      { ...good, serial_number: "W", business_unit_id: undefined },
      { ...good, serial_number: "H", quantity: 5 },
      "not a row",
      { ...good, serial_number: "V", quantity: 2.5 },
    ], 422);
    assert.equal(body.detail, "10 rows have errors");
    assert.deepEqual(body.errors, [
      { path: "rows.2.item_number", message: "Row 2, Item Number: Unknown item" },
      { path: "rows.3.serial_number", message: "Row 3, Serial Number: Required" },
      { path: "rows.4.quantity", message: "Row 4, Quantity: Must be at most 1" },
      { path: "rows.6.status", message: "Row 6, Status: Must be one of Available, Out, Repair" },
      { path: "rows.6.purchase_date", message: "Row 6, Purchase Date: Must be a date (YYYY-MM-DD)" },
      { path: "rows.6.purchase_price", message: "Row 6, Purchase Price: Must be a number" },
      { path: "rows.7.quantity", message: "Row 7, Quantity: Must be at least 0" },
      // Every error of a row at once: the bad cell and the unknown category beside it.
      { path: "rows.7.category", message: "Row 7, Category: Unknown inventory category" },
      { path: "rows.8.serial_number", message: "Row 8, Serial Number: Repeats row 1" },
      { path: "rows.9.business_unit_id", message: "Row 9, Business Unit: Business Unit is required" },
      { path: "rows.10.quantity", message: "Row 10, Quantity: Quantity cannot go below what is out: 6" },
      { path: "rows.11", message: "Row 11: Must be an object" },
      { path: "rows.12.quantity", message: "Row 12, Quantity: Must be a whole number" },
    ]);
    const rows = await env.tenant.db.select().from(inventory);
    assert.equal(rows.length, 1, "nothing saved");
    assert.equal((await stored(env, held.id))!.quantity, 9);
    assert.equal(await env.tenant.db.$count(inventory_audit), 0);

    const unknownCategory = await send(env, token, "POST", BATCH, [{
      ...good,
      serial_number: "C",
      category: "Pumps",
    }], 422);
    assert.deepEqual(unknownCategory.errors, [
      { path: "rows.1.category", message: "Row 1, Category: Unknown inventory category" },
    ]);
    assert.equal(unknownCategory.detail, "1 row has errors");
    const unknownUnit = await send(env, token, "POST", BATCH, [{
      ...good,
      serial_number: "C",
      business_unit_id: 999,
    }], 422);
    assert.deepEqual(unknownUnit.errors, [
      { path: "rows.1.business_unit_id", message: "Row 1, Business Unit: Unknown business unit" },
    ]);
  }));

Deno.test("inventory batch - the shape and size of an upload", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const unit = await makeUnit(env);
    await makeItemOf(env, "Itemized", { item_number: "HM-2" });
    const empty = await send(env, token, "POST", BATCH, [{}, { serial_number: "  " }], 422);
    assert.equal(empty.detail, "No rows to upload");
    const notList = await send(env, token, "POST", BATCH, { rows: "x" }, 422);
    assert.equal(notList.detail, "Expected a list of rows");
    const rows = Array.from(
      { length: 5001 },
      (_, i) => ({ serial_number: `B${i}`, item_number: "HM-2", quantity: 1 }),
    );
    const tooMany = await send(env, token, "POST", BATCH, { business_unit_id: unit.id, rows }, 422);
    assert.equal(tooMany.detail, "At most 5000 rows per upload");
    const started = performance.now();
    const big = await send(env, token, "POST", BATCH, {
      business_unit_id: unit.id,
      rows: rows.slice(0, 5000),
    });
    assert.deepEqual([big.created, big.updated], [5000, 0]);
    const seconds = (performance.now() - started) / 1000;
    assert.ok(seconds < 10, `5000 rows took ${seconds.toFixed(1)} s`);
    assert.equal(await env.tenant.db.$count(inventory_audit), 5000);
  }));

Deno.test("inventory batch - the preview shows each row's count before and after, writes nothing, and the upload then sets those counts", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const unit = await makeUnit(env);
    const itemized = await makeItemOf(env, "Itemized", { item_number: "HM-2" });
    await makeItemOf(env, "Serialized", { item_number: "SW-1" });
    const held = await makeRow(env, {
      item_id: itemized.id,
      business_unit_id: unit.id,
      serial_number: "",
      quantity: 100,
    });
    const body = {
      business_unit_id: unit.id,
      rows: [
        { item_number: "HM-2", quantity: "20" },
        { item_number: "SW-1", serial_number: "S-9" },
        {},
        { item_number: "hm-2", serial_number: "LOT-2", quantity: 7 },
      ],
    };
    const preview = await send(env, token, "POST", `${BATCH}/preview`, body);
    assert.deepEqual(preview, {
      rows: [
        { n: 1, item_number: "HM-2", serial_number: "", before: 100, after: 20 },
        { n: 2, item_number: "SW-1", serial_number: "S-9", before: null, after: 1 },
        { n: 4, item_number: "hm-2", serial_number: "LOT-2", before: null, after: 7 },
      ],
      created: 2,
      updated: 1,
      message: "2 to create, 1 to update",
    });
    assert.equal(await env.tenant.db.$count(inventory), 1, "the preview writes nothing");
    assert.equal((await stored(env, held.id))?.quantity, 100);
    assert.equal(await env.tenant.db.$count(inventory_audit), 0);

    // The upload does what the preview said: 100 and a row of 20 make 20.
    assert.deepEqual(await send(env, token, "POST", BATCH, body), {
      created: 2,
      updated: 1,
      message: "2 created, 1 updated",
    });
    assert.equal((await stored(env, held.id))?.quantity, 20);

    // The same checks as the upload: a bad row is a 422 naming row and column; only sales-admins may ask.
    const bad = await send(env, token, "POST", `${BATCH}/preview`, {
      business_unit_id: unit.id,
      rows: [{ item_number: "NOPE", quantity: "x" }],
    }, 422);
    assert.equal(bad.detail, "1 row has errors");
    assert.deepEqual(bad.errors.map((e: { path: string }) => e.path).sort(), [
      "rows.1.item_number",
      "rows.1.quantity",
    ]);
    const viewer = await tokenWith(env, ["sales"]);
    await send(env, viewer, "POST", `${BATCH}/preview`, body, 403);
  }));
