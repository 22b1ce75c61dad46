import assert from "node:assert/strict";
import { eq, inArray } from "drizzle-orm";
import { type TestEnv, withEnv } from "../../../scripts/testing/harness.ts";
import { inventory, inventory_audit, inventory_locations } from "../../../db/schema/mod.ts";
import { makeItemOf, makeRow, makeUnit, stored } from "./test_fixtures.ts";

/** Fires every request at once; answers each status with its body. */
async function allAtOnce(env: TestEnv, token: string, path: string, bodies: unknown[]) {
  return await Promise.all(bodies.map(async (json) => {
    const res = await env.request(path, { token, method: "POST", json });
    return { status: res.status, body: await res.json() };
  }));
}

const count = (results: { status: number }[], status: number) =>
  results.filter((r) => r.status === status).length;

Deno.test("concurrency - 50 parallel unit transfers of one from 30: exactly 30 move, nothing lost", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const a = await makeUnit(env);
    const b = await makeUnit(env);
    const source = await makeRow(env, { business_unit_id: a.id, quantity: 30, serial_number: "LOT" });
    const results = await allAtOnce(
      env,
      token,
      "/api/sales/inventory/business-unit-transfer",
      Array.from({ length: 50 }, () => ({ inventory_id: source.id, to_business_unit_id: b.id, quantity: 1 })),
    );
    assert.equal(count(results, 200), 30);
    assert.equal(count(results, 422), 20);
    for (const r of results.filter((r) => r.status === 422)) {
      assert.equal(r.body.detail, "Cannot exceed current quantity: 0");
    }
    const rows = await env.tenant.db.select().from(inventory).where(eq(inventory.item_id, source.item_id));
    assert.equal(rows.length, 2, "one target row, made once");
    const target = rows.find((r) => r.id !== source.id)!;
    assert.deepEqual([(await stored(env, source.id))!.quantity, target.quantity], [0, 30]);
    const audit = await env.tenant.db.select().from(inventory_audit)
      .where(inArray(inventory_audit.inventory_id, [source.id, target.id]));
    const out = audit.filter((r) => r.action === "Business Unit Transfer Out");
    const into = audit.filter((r) => r.action === "Business Unit Transfer In");
    assert.equal(out.length, 30);
    assert.equal(into.length, 30);
    assert.ok(out.every((r) => r.inventory_id === source.id && r.quantity_change === -1));
    assert.ok(into.every((r) => r.inventory_id === target.id && r.quantity_change === 1));
    assert.deepEqual(
      out.map((r) => r.quantity).sort((x, y) => y - x),
      Array.from({ length: 30 }, (_, i) => 29 - i),
    );
  }));

Deno.test("concurrency - transfers both ways at once conserve the sum and never go negative", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const a = await makeUnit(env);
    const b = await makeUnit(env);
    const item = await makeItemOf(env, "Itemized");
    const left = await makeRow(env, {
      item_id: item.id,
      business_unit_id: a.id,
      serial_number: "",
      quantity: 30,
    });
    const right = await makeRow(env, {
      item_id: item.id,
      business_unit_id: b.id,
      serial_number: "",
      quantity: 30,
    });
    const bodies = Array.from(
      { length: 80 },
      (_, i) =>
        i % 2
          ? { inventory_id: left.id, to_business_unit_id: b.id, quantity: 1 + (i % 7) }
          : { inventory_id: right.id, to_business_unit_id: a.id, quantity: 1 + (i % 5) * 3 },
    );
    const results = await allAtOnce(env, token, "/api/sales/inventory/business-unit-transfer", bodies);
    assert.equal(count(results, 200) + count(results, 422), 80);
    const [l, r] = [(await stored(env, left.id))!, (await stored(env, right.id))!];
    assert.equal(l.quantity + r.quantity, 60);
    assert.ok(l.quantity >= 0 && r.quantity >= 0);
    let net = 0;
    results.forEach((x, i) => {
      if (x.status !== 200) return;
      net += bodies[i].inventory_id === left.id ? -bodies[i].quantity : bodies[i].quantity;
    });
    assert.equal(l.quantity, 30 + net, "every answered transfer happened, and only those");
    const audit = await env.tenant.db.select().from(inventory_audit).where(
      eq(inventory_audit.inventory_id, left.id),
    );
    assert.equal(audit.reduce((s, x) => s + x.quantity_change, 0), net);
    assert.equal(audit.length, count(results, 200));
  }));

Deno.test("concurrency - 50 parallel location moves of one from 30 at Base: exactly 30 land", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const unit = await makeUnit(env, ["A", "B"]);
    const row = await makeRow(env, { business_unit_id: unit.id, quantity: 32, quantity_out: 2 });
    const results = await allAtOnce(
      env,
      token,
      "/api/sales/inventory/location-transfer",
      Array.from({ length: 50 }, (_, i) => ({
        inventory_id: row.id,
        fromLocation: "Base",
        toLocation: i % 2 ? "A" : "B",
        quantity: 1,
      })),
    );
    assert.equal(count(results, 200), 30);
    assert.equal(count(results, 422), 20);
    const after = (await stored(env, row.id))!;
    const locs = await env.tenant.db.select().from(inventory_locations)
      .where(eq(inventory_locations.inventory_id, row.id));
    assert.equal(after.quantity_out_location, 30);
    assert.equal(locs.reduce((s, l) => s + l.quantity, 0), 30);
    assert.equal(after.quantity - after.quantity_out - after.quantity_out_location, 0);

    // Now shuffle between A, B and Base at once: the sums hold whatever wins.
    const moves = Array.from({ length: 60 }, (_, i) => {
      const places = ["Base", "A", "B"];
      return {
        inventory_id: row.id,
        fromLocation: places[i % 3],
        toLocation: places[(i + 1 + (i % 2)) % 3],
        quantity: 1 + (i % 4),
      };
    });
    const shuffled = await allAtOnce(env, token, "/api/sales/inventory/location-transfer", moves);
    assert.equal(count(shuffled, 200) + count(shuffled, 422), 60);
    const end = (await stored(env, row.id))!;
    const endLocs = await env.tenant.db.select().from(inventory_locations)
      .where(eq(inventory_locations.inventory_id, row.id));
    assert.equal(end.quantity, 32);
    assert.ok(endLocs.every((l) => l.quantity > 0));
    assert.equal(end.quantity_out_location, endLocs.reduce((s, l) => s + l.quantity, 0));
    assert.ok(end.quantity - end.quantity_out - end.quantity_out_location >= 0);
    const audit = await env.tenant.db.select().from(inventory_audit)
      .where(eq(inventory_audit.action, "Location Transfer"));
    assert.equal(audit.length, 30 + count(shuffled, 200));
  }));
