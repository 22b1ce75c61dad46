import assert from "node:assert/strict";
import ExcelJS from "exceljs";
import { eq } from "drizzle-orm";
import { withEnv } from "../../../scripts/testing/harness.ts";
import { makeCategory, makeCompany } from "../../../db/factories.ts";
import { inventory_audit, inventory_locations } from "../../../db/schema/mod.ts";
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

const PATH = "/api/sales/inventory";

Deno.test("inventory - a sales admin creates, reads, updates and deletes a row, each audited", () =>
  withEnv(async (env) => {
    const token = await tokenWith(env, ["sales-admin"]);
    const unit = await makeUnit(env, ["Yard A"], "Odessa");
    const category = await makeInventoryCategory(env, "Valves");
    const item = await makeItemOf(env, "Itemized", {
      item_number: "PV-2",
      item_description: "2in plug valve",
    });
    const created = await send(env, token, "POST", PATH, {
      item_id: item.id,
      business_unit_id: String(unit.id),
      serial_number: " LOT-1 ",
      inventory_description: "Blue paint",
      category_id: category.id,
      quantity: "12",
      purchase_date: "2024-03-01",
      purchase_price: "1,250.50",
      manufacturer: "SPM",
      minimum_rate: 40,
      custom: { bin: 4 },
    });
    assert.equal(created.message, "Inventory created");
    assert.equal(created.serial_number, "LOT-1");
    assert.equal(created.quantity, 12);
    assert.equal(created.quantity_available, 12);
    assert.equal(created.purchase_price, 1250.5);
    assert.equal(created.status, "Available");
    assert.deepEqual(created.item, {
      id: item.id,
      item_number: "PV-2",
      item_description: "2in plug valve",
      rate: 125,
      isTaxable: false,
      isExpendable: false,
      inventory_type: "Itemized",
    });
    assert.deepEqual(created.business_unit, { id: unit.id, name: "Odessa", locations: ["Yard A"] });
    assert.deepEqual(created.category, { id: category.id, name: "Valves" });
    assert.deepEqual(created.locations, []);
    assert.equal(created.updated_by.id, created.updated_by_id);
    assert.deepEqual(created.custom, { bin: 4 });

    const updated = await send(env, token, "PUT", PATH, {
      id: created.id,
      quantity: 9,
      status: "repair",
      category_id: null,
      hidden: true,
    });
    assert.equal(updated.message, "Inventory updated");
    assert.deepEqual([updated.quantity, updated.status, updated.category, updated.hidden], [
      9,
      "Repair",
      null,
      true,
    ]);
    assert.equal(updated.inventory_description, "Blue paint", "absent fields are left as stored");

    const viaPost = await send(env, token, "POST", PATH, { id: created.id, manufacturer: "Weir" });
    assert.equal(viaPost.message, "Inventory updated");
    assert.equal(viaPost.manufacturer, "Weir");

    const audit = await auditOf(env, created.id);
    assert.deepEqual(audit.map((a) => [a.action, a.quantity, a.quantity_change]), [
      ["Created", 12, 12],
      ["Updated", 9, -3],
      ["Updated", 9, 0],
    ]);
    assert.equal(audit[0].category, "Valves");
    assert.equal(audit[0].business_unit, "Odessa");
    assert.equal(audit[0].item_number, "PV-2");

    assert.deepEqual(await send(env, token, "DELETE", `${PATH}/${created.id}`, undefined), {
      message: "Inventory deleted",
    });
    assert.equal(await stored(env, created.id), undefined);
    const kept = await env.tenant.db.select().from(inventory_audit).where(
      eq(inventory_audit.action, "Deleted"),
    );
    assert.equal(kept.length, 1);
    assert.equal(kept[0].inventory_id, null, "the foreign key clears the deleted row's id");
    assert.equal(kept[0].serial_number, "LOT-1");
    assert.equal(kept[0].quantity_change, -9);
    assert.equal(await env.tenant.db.$count(inventory_audit), 4);
    await send(env, token, "DELETE", `${PATH}/${created.id}`, undefined, 404);
    await send(env, token, "PUT", PATH, { id: created.id, quantity: 1 }, 404);
  }));

Deno.test("inventory - the form's rules: unit required, known references, serials and quantity limits", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const unit = await makeUnit(env);
    const serialized = await makeItemOf(env, "Serialized");
    const itemized = await makeItemOf(env, "Itemized");
    const itemCategory = await makeCategory(env.tenant.db, { model: "Item Category" });
    const fails = async (json: Record<string, unknown>, path: string, message: string) => {
      const body = await send(env, token, "POST", PATH, json, 422);
      assert.deepEqual(
        body.errors.find((e: { path: string }) => e.path === path),
        { path, message },
        JSON.stringify(body),
      );
    };
    const base = { item_id: itemized.id, business_unit_id: unit.id };
    await fails({ item_id: itemized.id }, "business_unit_id", "Business Unit is required");
    await fails({ ...base, business_unit_id: "" }, "business_unit_id", "Business Unit is required");
    await fails({ ...base, business_unit_id: null }, "business_unit_id", "Business Unit is required");
    await fails({ business_unit_id: unit.id }, "item_id", "Required");
    await fails({ ...base, item_id: 999 }, "item_id", "Unknown item");
    await fails({ ...base, business_unit_id: itemCategory.id }, "business_unit_id", "Unknown business unit");
    await fails({ ...base, category_id: itemCategory.id }, "category_id", "Unknown inventory category");
    await fails({ ...base, status: "Lost" }, "status", "Must be one of Available, Out, Repair");
    await fails({ ...base, quantity: -1 }, "quantity", "Must be at least 0");
    await fails({ ...base, quantity: 2.5 }, "quantity", "Must be a whole number");
    await fails({ ...base, quantity: "many" }, "quantity", "Must be a number");
    await fails({ ...base, quantity: 100_000_001 }, "quantity", "Must be at most 100000000");
    await fails({ ...base, purchase_date: "2024-02-30" }, "purchase_date", "Must be a date (YYYY-MM-DD)");
    await fails(
      { item_id: serialized.id, business_unit_id: unit.id, quantity: 1 },
      "serial_number",
      "Required",
    );
    await fails(
      { item_id: serialized.id, business_unit_id: unit.id, serial_number: "S1", quantity: 2 },
      "quantity",
      "Must be at most 1",
    );
    const ok = await send(env, token, "POST", PATH, { ...base, quantity: 100_000_000 });
    assert.equal(ok.quantity, 100_000_000);
    const serial = await send(env, token, "POST", PATH, {
      item_id: serialized.id,
      business_unit_id: unit.id,
      serial_number: "S1",
      quantity: 1,
    });
    await send(env, token, "PUT", PATH, { id: serial.id, quantity: 2 }, 422);
    const blank = await send(env, token, "PUT", PATH, { id: serial.id, serial_number: "" }, 422);
    assert.deepEqual(blank.errors, [{ path: "serial_number", message: "Required" }]);
    const noId = await send(env, token, "PUT", PATH, { quantity: 1 }, 422);
    assert.deepEqual(noId.errors, [{ path: "id", message: "Required" }]);
  }));

Deno.test("inventory - item, unit and serial are unique, ignoring case", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const unit = await makeUnit(env);
    const other = await makeUnit(env);
    const item = await makeItemOf(env, "Serialized");
    const first = await send(env, token, "POST", PATH, {
      item_id: item.id,
      business_unit_id: unit.id,
      serial_number: "abc-1",
      quantity: 1,
    });
    const clash = await send(env, token, "POST", PATH, {
      item_id: item.id,
      business_unit_id: unit.id,
      serial_number: "ABC-1",
    }, 409);
    assert.equal(clash.detail, "This item already has a row with this serial number in this business unit.");
    const elsewhere = await send(env, token, "POST", PATH, {
      item_id: item.id,
      business_unit_id: other.id,
      serial_number: "ABC-1",
    });
    await send(env, token, "PUT", PATH, { id: elsewhere.id, business_unit_id: unit.id }, 409);
    await send(env, token, "PUT", PATH, { id: first.id, serial_number: "ABC-1" });
  }));

Deno.test("inventory - an edit never takes the quantity below what is out", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const unit = await makeUnit(env, ["Yard A"]);
    const row = await makeRow(env, { business_unit_id: unit.id, quantity: 10, quantity_out: 3 });
    await send(env, token, "POST", `${PATH}/location-transfer`, {
      inventory_id: row.id,
      fromLocation: "Base",
      toLocation: "Yard A",
      quantity: 2,
    });
    const below = await send(env, token, "PUT", PATH, { id: row.id, quantity: 4 }, 409);
    assert.equal(below.detail, "Quantity cannot go below what is out: 5");
    assert.equal((await stored(env, row.id))!.quantity, 10);
    const exact = await send(env, token, "PUT", PATH, { id: row.id, quantity: 5 });
    assert.equal(exact.quantity_available, 0);
    const moved = await send(env, token, "PUT", PATH, {
      id: row.id,
      business_unit_id: (await makeUnit(env)).id,
    }, 409);
    assert.match(moved.detail, /back to Base/);
  }));

Deno.test("inventory - delete is refused while stock is out on tickets or at a location", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const unit = await makeUnit(env, ["Yard A"]);
    const onTicket = await makeRow(env, { business_unit_id: unit.id, quantity_out: 2 });
    const r1 = await send(env, token, "DELETE", `${PATH}/${onTicket.id}`, undefined, 409);
    assert.equal(r1.detail, "This inventory has 2 out on tickets.");
    const atYard = await makeRow(env, { business_unit_id: unit.id, quantity: 5 });
    await send(env, token, "POST", `${PATH}/location-transfer`, {
      inventory_id: atYard.id,
      fromLocation: "Base",
      toLocation: "Yard A",
      quantity: 1,
    });
    const r2 = await send(env, token, "DELETE", `${PATH}/${atYard.id}`, undefined, 409);
    assert.match(r2.detail, /at locations/);
    assert.ok(await stored(env, atYard.id));
    assert.deepEqual((await auditOf(env, atYard.id)).map((a) => a.action), ["Location Transfer"]);
    await send(env, token, "POST", `${PATH}/location-transfer`, {
      inventory_id: atYard.id,
      fromLocation: "Yard A",
      toLocation: "Base",
      quantity: 1,
    });
    await send(env, token, "DELETE", `${PATH}/${atYard.id}`, undefined);
    assert.equal((await env.tenant.db.select().from(inventory_locations)).length, 0);
  }));

Deno.test("inventory - the list filters by type, hidden, status and searches, and totals every match", () =>
  withEnv(async (env) => {
    const token = await tokenWith(env, []);
    const unit = await makeUnit(env, [], "Midland");
    const serialized = await makeItemOf(env, "Serialized", {
      item_number: "SW-3",
      item_description: "Swivel",
    });
    const itemized = await makeItemOf(env, "Itemized", {
      item_number: "HM-1",
      item_description: "Hammer union",
    });
    const charge = await makeItemOf(env, "Charge Code", { item_number: "CC-1", item_description: "Fuel" });
    const bu = { business_unit_id: unit.id };
    await makeRow(env, { ...bu, item_id: serialized.id, serial_number: "S-100", quantity: 1 });
    await makeRow(env, {
      ...bu,
      item_id: serialized.id,
      serial_number: "S-50%",
      quantity: 1,
      status: "Repair",
    });
    await makeRow(env, { ...bu, item_id: serialized.id, serial_number: "S-500", quantity: 0, hidden: true });
    await makeRow(env, {
      ...bu,
      item_id: itemized.id,
      serial_number: "",
      quantity: 40,
      quantity_out: 5,
      inventory_description: "red swivel kit",
    });
    await makeRow(env, {
      ...bu,
      item_id: itemized.id,
      serial_number: "B2",
      quantity: 10,
      quantity_out_location: 4,
    });
    await makeRow(env, { ...bu, item_id: charge.id, serial_number: "", quantity: 0 });

    const list = (q: string) => env.json(`${PATH}?${q}`, { token });
    const serials = (body: { results: { serial_number: string }[] }) =>
      body.results.map((r) => r.serial_number);

    assert.deepEqual(serials(await list("inventory_type=Serialized")), ["S-100", "S-50%"]);
    assert.deepEqual(serials(await list("inventory_type=Serialized&include_hidden=true")), [
      "S-100",
      "S-50%",
      "S-500",
    ]);
    assert.deepEqual(serials(await list("search_serial_number=50%25&include_hidden=true")), ["S-50%"]);
    assert.deepEqual(serials(await list("search_serial_number=S_1")), [], "_ is literal too");
    assert.deepEqual(serials(await list("status=Repair")), ["S-50%"]);
    const itemizedRows = await list("inventory_type=Itemized%20Inventory");
    assert.deepEqual(serials(itemizedRows), ["", "B2"]);
    assert.deepEqual(itemizedRows.totals, {
      quantity: 50,
      quantity_out: 5,
      quantity_out_location: 4,
      quantity_available: 41,
    });
    assert.deepEqual(serials(await list("search_item_description=swivel")), ["", "S-100", "S-50%"]);
    assert.deepEqual(serials(await list("search_inventory_description=SWIVEL")), [""]);
    assert.deepEqual(serials(await list("search_item_number=cc")), [""]);

    const paged = await list("rowsPerPage=2&page=2&sortBy=quantity_available&descending=true");
    assert.equal(paged.total, 5);
    assert.equal(paged.results.length, 2);
    assert.deepEqual(paged.totals.quantity, 52, "totals cover every match, not the page");
    const all = await list("rowsPerPage=-1&sortBy=quantity_available&descending=true");
    assert.deepEqual(all.results.map((r: { quantity_available: number }) => r.quantity_available), [
      35,
      6,
      1,
      1,
      0,
    ]);
    await env.json(`${PATH}?sortBy=nope`, { token, status: 422 });
  }));

Deno.test("inventory - the location view lists Base and each location, with the same filters", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const unit = await makeUnit(env, ["Yard B", "Yard A"]);
    const item = await makeItemOf(env, "Itemized", { item_number: "LV-1" });
    const row = await makeRow(env, {
      business_unit_id: unit.id,
      item_id: item.id,
      serial_number: "L1",
      quantity: 10,
    });
    await makeRow(env, { business_unit_id: unit.id, serial_number: "OTHER", quantity: 3 });
    for (const [to, quantity] of [["Yard B", 2], ["Yard A", 3]] as const) {
      await send(env, token, "POST", `${PATH}/location-transfer`, {
        inventory_id: row.id,
        fromLocation: "Base",
        toLocation: to,
        quantity,
      });
    }
    const view = await env.json("/api/sales/inventory-locations?search_serial_number=L1", { token });
    assert.equal(view.total, 3);
    assert.deepEqual(
      view.results.map((r: { location: string; quantity: number }) => [r.location, r.quantity]),
      [
        ["Base", 5],
        ["Yard A", 3],
        ["Yard B", 2],
      ],
    );
    assert.equal(view.results[0].item.item_number, "LV-1");
    assert.equal(view.results[0].business_unit.id, unit.id);
    const byQuantity = await env.json("/api/sales/inventory-locations?sortBy=quantity&descending=true", {
      token,
    });
    assert.deepEqual(byQuantity.results.map((r: { quantity: number }) => r.quantity), [5, 3, 3, 2]);
    const res = await env.request("/api/sales/inventory-locations/download?search_serial_number=L1", {
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(res.status, 200);
    assert.match(
      res.headers.get("content-disposition")!,
      /^attachment; filename="Inventory-\d{4}-\d{2}-\d{2}\.xlsx"$/,
    );
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(await res.arrayBuffer());
    const ws = wb.worksheets[0];
    assert.deepEqual((ws.getRow(1).values as unknown[]).slice(1), [
      "Serial Number",
      "Item Number",
      "Item",
      "Business Unit",
      "Location",
      "Quantity",
    ]);
    assert.equal(ws.rowCount, 4);
  }));

Deno.test("inventory - the download holds every filtered row, formula-like cells neutralised", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const item = await makeItemOf(env, "Itemized", {
      item_number: "DL-1",
      item_description: "=HYPERLINK(1)",
    });
    for (let i = 0; i < 25; i++) {
      await makeRow(env, { item_id: item.id, serial_number: `D${i}`, quantity: i });
    }
    await makeRow(env, { serial_number: "ELSEWHERE" });
    const res = await env.request(`${PATH}/download?search_item_number=DL-1&page=2&rowsPerPage=20`, {
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-disposition")!, /filename="Inventory-\d{4}-\d{2}-\d{2}\.xlsx"/);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(await res.arrayBuffer());
    const ws = wb.worksheets[0];
    assert.equal(ws.rowCount, 26);
    assert.equal(ws.getRow(1).getCell(1).value, "Serial Number");
    assert.equal(ws.getRow(2).getCell(3).value, "'=HYPERLINK(1)");
  }));

Deno.test("inventory - a quantity patch saves every row or none, each audited", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const serialItem = await makeItemOf(env, "Serialized");
    const a = await makeRow(env, { quantity: 10 });
    const b = await makeRow(env, { quantity: 10, quantity_out: 4 });
    const s = await makeRow(env, { item_id: serialItem.id, quantity: 0 });
    const tooMany = await send(env, token, "PATCH", `${PATH}/quantity`, [
      { id: a.id, quantity: 7 },
      { id: s.id, quantity: 2 },
    ], 422);
    assert.deepEqual(tooMany.errors, [{ path: "1.quantity", message: "Must be at most 1" }]);
    const belowOut = await send(env, token, "PATCH", `${PATH}/quantity`, [
      { id: a.id, quantity: 7 },
      { id: b.id, quantity: 3 },
    ], 409);
    assert.equal(belowOut.detail, "Quantity cannot go below what is out: 4");
    await send(
      env,
      token,
      "PATCH",
      `${PATH}/quantity`,
      [{ id: a.id, quantity: 7 }, { id: 999, quantity: 1 }],
      404,
    );
    const negative = await send(env, token, "PATCH", `${PATH}/quantity`, [{ id: a.id, quantity: -1 }], 422);
    assert.deepEqual(negative.errors, [{ path: "0.quantity", message: "Must be at least 0" }]);
    await send(env, token, "PATCH", `${PATH}/quantity`, [{ id: a.id, quantity: 1 }, {
      id: a.id,
      quantity: 2,
    }], 422);
    assert.equal((await stored(env, a.id))!.quantity, 10, "nothing saved");
    assert.deepEqual(await auditOf(env, a.id), []);

    const ok = await send(env, token, "PATCH", `${PATH}/quantity`, {
      rows: [{ id: a.id, quantity: "7" }, { id: b.id, quantity: 4 }, { id: s.id, quantity: 1 }],
    });
    assert.deepEqual(ok, { updated: 3, message: "3 quantities updated" });
    assert.deepEqual(
      [
        (await stored(env, a.id))!.quantity,
        (await stored(env, b.id))!.quantity,
        (await stored(env, s.id))!.quantity,
      ],
      [7, 4, 1],
    );
    const audit = await auditOf(env, b.id);
    assert.deepEqual(audit.map((r) => [r.action, r.quantity_change]), [["Quantity Update", -6]]);
  }));

Deno.test("inventory - others read, only sales admins write; customers and strangers neither", () =>
  withEnv(async (env) => {
    const row = await makeRow(env);
    const unit = await makeUnit(env);
    const general = await tokenWith(env, ["job-admin"]);
    const customer = await tokenWith(env, ["sales-admin"], (await makeCompany(env.tenant.db)).id);
    assert.equal((await env.json(PATH, { token: general })).total, 1);
    assert.equal((await env.json("/api/sales/inventory-locations", { token: general })).total, 1);
    const writes: [string, string, unknown][] = [
      ["POST", PATH, { item_id: row.item_id, business_unit_id: unit.id }],
      ["PUT", PATH, { id: row.id, quantity: 1 }],
      ["DELETE", `${PATH}/${row.id}`, undefined],
      ["PATCH", `${PATH}/quantity`, [{ id: row.id, quantity: 1 }]],
      ["POST", `${PATH}/batch`, [{ item_number: "X", business_unit_id: unit.id }]],
      ["POST", `${PATH}/business-unit-transfer`, {
        inventory_id: row.id,
        to_business_unit_id: unit.id,
        quantity: 1,
      }],
      ["POST", `${PATH}/location-transfer`, {
        inventory_id: row.id,
        fromLocation: "Base",
        toLocation: "A",
        quantity: 1,
      }],
    ];
    for (const [method, path, json] of writes) {
      await send(env, general, method, path, json, 403);
      await send(env, customer, method, path, json, 403);
    }
    for (
      const path of [
        PATH,
        `${PATH}/download`,
        "/api/sales/inventory-locations",
        "/api/sales/audit/inventory-rows",
      ]
    ) {
      await env.json(path, { token: customer, status: 403 });
      await env.json(path, { status: 401 });
    }
    assert.equal((await stored(env, row.id))!.quantity, 10);
    assert.deepEqual(await auditOf(env, row.id), []);
  }));

Deno.test("inventory - one tenant never sees or changes another's stock", () =>
  withEnv(async (env) => {
    const other = await env.addTenant("globex", "globex.test");
    const theirs = await makeRow(env, { serial_number: "ACME-ONLY", quantity: 5 });
    const token = await env.login();
    const otherToken = await env.login(undefined, undefined, "globex.test");
    const list = await env.json(PATH, { token: otherToken, host: "globex.test" });
    assert.equal(list.total, 0);
    await env.json(PATH, { token, host: "globex.test", status: 401 });
    await env.json(`${PATH}/${theirs.id}`, {
      token: otherToken,
      host: "globex.test",
      method: "DELETE",
      status: 404,
    });
    const unit = await makeCategory(other.db, { name: "Globex Unit" });
    await env.json(`${PATH}/business-unit-transfer`, {
      token: otherToken,
      host: "globex.test",
      method: "POST",
      json: { inventory_id: theirs.id, to_business_unit_id: unit.id, quantity: 1 },
      status: 404,
    });
    assert.equal((await stored(env, theirs.id))!.quantity, 5);
  }));
