import assert from "node:assert/strict";
import { withEnv } from "../../../scripts/testing/harness.ts";
import { makeCompany, makeTicket } from "../../../db/factories.ts";
import type { InStatement } from "@libsql/client";
import {
  makeItemOf,
  makeRow,
  makeUnit,
  planOf,
  recordingCtx,
  send,
  tokenWith,
} from "../inventory/test_fixtures.ts";
import { listInventoryRows } from "./service.ts";
import { InventoryRowsQuery } from "./schemas.ts";

const PATH = "/api/sales/inventory-rows";
const serials = (body: { results: { serial_number: string }[] }) => body.results.map((r) => r.serial_number);

Deno.test("inventory rows - the template picker: a type list, one unit, hidden rows left out, by item number", () =>
  withEnv(async (env) => {
    const token = await tokenWith(env, []);
    const midland = await makeUnit(env, [], "Midland");
    const odessa = await makeUnit(env, [], "Odessa");
    const mileage = await makeItemOf(env, "Charge Code", { item_number: "MIL", item_description: "Mileage" });
    const swivel = await makeItemOf(env, "Itemized", { item_number: "SW3", item_description: "3in swivel" });
    const valve = await makeItemOf(env, "Serialized", { item_number: "PV2", item_description: "Plug valve" });
    const base = { business_unit_id: midland.id };
    await makeRow(env, { ...base, item_id: swivel.id, serial_number: "MID-SW3", quantity: 40 });
    await makeRow(env, { ...base, item_id: mileage.id, serial_number: "MID-MIL" });
    await makeRow(env, { ...base, item_id: valve.id, serial_number: "PV2-001", quantity: 1 });
    await makeRow(env, { ...base, item_id: swivel.id, serial_number: "MID-OLD", hidden: true });
    await makeRow(env, { business_unit_id: odessa.id, item_id: swivel.id, serial_number: "ODE-SW3" });

    const q = `inventory_type=${encodeURIComponent("Charge Code,Itemized Inventory")}`;
    const picked = await env.json(`${PATH}?${q}&business_unit_id=${midland.id}`, { token });
    assert.deepEqual(serials(picked), ["MID-MIL", "MID-SW3"]);
    assert.deepEqual(picked.results[1], {
      id: picked.results[1].id,
      serial_number: "MID-SW3",
      inventory_description: "",
      status: "Available",
      item: { item_number: "SW3", item_description: "3in swivel", inventory_type: "Itemized" },
      business_unit: { id: midland.id, name: "Midland" },
      quantity: 40,
      quantity_available: 40,
    });
    assert.deepEqual(serials(await env.json(`${PATH}?${q}`, { token })), ["MID-MIL", "MID-SW3", "ODE-SW3"]);
    assert.deepEqual(serials(await env.json(`${PATH}?inventory_type=Serialized`, { token })), ["PV2-001"]);
    assert.deepEqual(serials(await env.json(`${PATH}?inventory_type=`, { token })).length, 4, "blank: all");
    const bad = await env.json(`${PATH}?inventory_type=Charge%20Code,Widgets`, { token, status: 422 });
    assert.equal(bad.errors[0].message, "Must be one of Serialized, Itemized, Charge Code");
  }));

Deno.test("inventory rows - search_multi: every word in the serial, item number or description; after the last '| '", () =>
  withEnv(async (env) => {
    const token = await tokenWith(env, []);
    const unit = await makeUnit(env);
    const swivel = await makeItemOf(env, "Itemized", {
      item_number: "SW3",
      item_description: "3in 1502 swivel",
    });
    const tee = await makeItemOf(env, "Itemized", { item_number: "TEE2", item_description: "2in 1502 tee" });
    await makeRow(env, { business_unit_id: unit.id, item_id: swivel.id, serial_number: "A-100" });
    await makeRow(env, { business_unit_id: unit.id, item_id: tee.id, serial_number: "B-50%" });
    const find = async (text: string) =>
      serials(await env.json(`${PATH}?search_multi=${encodeURIComponent(text)}`, { token }));
    assert.deepEqual(await find("1502"), ["A-100", "B-50%"]);
    assert.deepEqual(await find("3in SWIVEL"), ["A-100"], "words in any order and case");
    assert.deepEqual(await find("tee2"), ["B-50%"], "item number");
    assert.deepEqual(await find("a-1"), ["A-100"], "serial number");
    assert.deepEqual(await find("50%"), ["B-50%"], "wildcards are literal");
    assert.deepEqual(await find("SW3 | A-100 | tee"), ["B-50%"], "only the text after the last '| '");
    assert.deepEqual(await find("swivel tee"), []);
    for (let i = 0; i < 25; i++) {
      await makeRow(env, { business_unit_id: unit.id, item_id: tee.id, serial_number: `C-${i}` });
    }
    assert.equal((await env.json(PATH, { token })).results.length, 20, "20 rows at most");
  }));

Deno.test("inventory rows - ids: exactly those rows in the order given, whatever their type or unit", () =>
  withEnv(async (env) => {
    const token = await tokenWith(env, []);
    const [a, b, c] = [
      await makeRow(env, { serial_number: "A" }),
      await makeRow(env, { serial_number: "B", hidden: true }),
      await makeRow(env, { serial_number: "C" }),
    ];
    const got = await env.json(`${PATH}?ids=${c.id},${a.id},999999,${b.id}&inventory_type=Serialized`, {
      token,
    });
    assert.deepEqual(serials(got), ["C", "A", "B"]);
    assert.equal(got.total, 3);
    const bad = await env.json(`${PATH}?ids=1,x`, { token, status: 422 });
    assert.equal(bad.errors[0].path, "ids");
  }));

Deno.test("inventory rows - staff of the company read it; a customer user gets 403, no session 401", () =>
  withEnv(async (env) => {
    await makeRow(env, { serial_number: "S-1" });
    const customer = await makeCompany(env.tenant.db);
    const outsider = await tokenWith(env, ["sales-admin"], customer.id);
    await env.json(PATH, { token: outsider, status: 403 });
    await env.json(PATH, { status: 401 });
    const other = await env.addTenant("globex", "globex.test");
    const theirs = await env.json(PATH, {
      token: await env.login(undefined, undefined, "globex.test"),
      host: "globex.test",
    });
    assert.deepEqual(theirs.results, [], "another tenant sees none of them");
    assert.ok(other);
  }));

Deno.test("inventory rows - the line picker (ticket_id): every type, hidden left out, serial-less Serialized dropped", () =>
  withEnv(async (env) => {
    const token = await tokenWith(env, []);
    const ticket = await makeTicket(env.tenant.db);
    const valve = await makeItemOf(env, "Serialized", { item_number: "PV2", item_description: "Plug valve" });
    const swivel = await makeItemOf(env, "Itemized", { item_number: "SW3", item_description: "Swivel" });
    const mileage = await makeItemOf(env, "Charge Code", { item_number: "MIL", item_description: "Mileage" });
    await makeRow(env, { item_id: valve.id, serial_number: "PV2-001", quantity: 1 });
    await makeRow(env, { item_id: valve.id, serial_number: "", quantity: 1 });
    await makeRow(env, { item_id: swivel.id, serial_number: "", quantity: 40, quantity_out: 4 });
    await makeRow(env, { item_id: mileage.id, serial_number: "" });
    await makeRow(env, { item_id: swivel.id, serial_number: "OLD", hidden: true });
    const got = await env.json(`${PATH}?ticket_id=${ticket.id}&inventory_type=Serialized`, { token });
    assert.deepEqual(got.results.map((r: { item: { item_number: string } }) => r.item.item_number), [
      "MIL",
      "PV2",
      "SW3",
    ]);
    assert.equal(got.results[2].quantity_available, 36);
    const found = await env.json(
      `${PATH}?ticket_id=${ticket.id}&search_multi=${encodeURIComponent("PV2 | plug")}`,
      {
        token,
      },
    );
    assert.deepEqual(serials(found), ["PV2-001"]);
    await env.json(`${PATH}?ticket_id=999999`, { token, status: 404 });
  }));

Deno.test("inventory rows - picker words found through the trigram index as LIKE finds them, kept in step with edits", () =>
  withEnv(async (env) => {
    const token = await tokenWith(env, ["sales-admin"]);
    const unit = await makeUnit(env, [], "Midland");
    const other = await makeUnit(env, [], "Odessa");
    const swivel = await makeItemOf(env, "Itemized", { item_number: "SW3", item_description: "3in swivel" });
    const ticket = await makeTicket(env.tenant.db, { business_unit_id: unit.id });
    const row = await makeRow(env, {
      business_unit_id: unit.id,
      item_id: swivel.id,
      serial_number: "LOT-77",
      inventory_description: 'Blue "paint" kit',
    });
    await makeRow(env, { business_unit_id: other.id, item_id: swivel.id, serial_number: "LOT-78" });
    const find = async (text: string) =>
      serials(
        await env.json(`${PATH}?ticket_id=${ticket.id}&search_multi=${encodeURIComponent(text)}`, { token }),
      );
    assert.deepEqual(await find("PAINT"), ["LOT-77"], "the row's description, any case");
    assert.deepEqual(await find('"paint"'), ["LOT-77"], "quotes are literal");
    assert.deepEqual(await find("ot-7"), ["LOT-77", "LOT-78"], "the ticket's unit first");
    assert.deepEqual(await find("swivel ue"), ["LOT-77"], "item words and short words together");
    await send(env, token, "PUT", "/api/sales/inventory", { id: row.id, inventory_description: "Red kit" });
    assert.deepEqual(await find("paint"), []);
    assert.deepEqual(await find("red k"), ["LOT-77"]);
    await env.tenant.client.execute(
      "INSERT INTO inventory_fts(inventory_fts, rank) VALUES ('integrity-check', 1)",
    );
  }));

Deno.test("inventory rows - the line picker reads its order from an index, never sorting every row", () =>
  withEnv(async (env) => {
    const units = [await makeUnit(env, [], "Midland"), await makeUnit(env, [], "Odessa")];
    const items = [];
    for (let i = 0; i < 20; i++) items.push(await makeItemOf(env, "Itemized", { item_number: `IT-${i}` }));
    await env.tenant.client.execute(`
      with recursive n(i) as (select 1 union all select i + 1 from n where i < 3000)
      insert into inventory (company_id, item_id, business_unit_id, serial_number, quantity)
      select 1, ${items[0].id} + i % 20, ${units[0].id} + i % 2, 'SN-' || i, 5 from n`);
    await env.tenant.client.execute("analyze");
    const ticket = await makeTicket(env.tenant.db, { business_unit_id: units[0].id });
    const token = await tokenWith(env, []);
    const user = await env.json("/api/admin/users/me", { token });
    for (const search_multi of [undefined, "sn-29", "it-1 29", "zz"]) {
      const log: InStatement[] = [];
      await listInventoryRows(
        recordingCtx(env, user, log),
        InventoryRowsQuery.parse({ ticket_id: String(ticket.id), search_multi }),
      );
      for (const s of log.filter((s) => /\blimit\b/i.test(typeof s === "string" ? s : s.sql))) {
        const text = (await planOf(env, s)).map((l) => l.detail).join("\n");
        assert.doesNotMatch(text, /TEMP B-TREE/, `${search_multi}:\n${text}`);
      }
    }
  }));
