import assert from "node:assert/strict";
import { asc } from "drizzle-orm";
import { ADMIN, type TestEnv, withEnv } from "../../../scripts/testing/harness.ts";
import { makeCategory, makeCompany, makeInventory, makeItem } from "../../../db/factories.ts";
import { items } from "../../../db/schema/mod.ts";
import { parseBatchBool } from "./service/batch_rows.ts";

const all = (env: TestEnv) => env.tenant.db.select().from(items).orderBy(asc(items.item_number));
const post = (env: TestEnv, token: string, json: unknown, status = 200) =>
  env.json("/api/sales/items/batch", { token, method: "POST", json, status });

const row = (over: Record<string, unknown> = {}) => ({
  item_number: "",
  item_description: "",
  rate: "",
  item_category: "",
  units: "",
  type: "",
  isTaxable: "",
  isExpendable: "",
  isService: "",
  ...over,
});

Deno.test("items batch - bad rows are all named by row and column, and nothing is saved", () =>
  withEnv(async (env) => {
    const token = await env.login();
    await makeCategory(env.tenant.db, { model: "Item Category", name: "Iron" });
    await makeItem(env.tenant.db, { item_number: "KEEP", item_description: "Stored" });
    const res = await post(env, token, [
      row({ item_number: "A-1", rate: "12.5", item_category: "iron" }),
      row({ item_number: "A-2", rate: "cheap" }),
      row({ item_number: "A-3", item_category: "Nope", isTaxable: "maybe" }),
      row({ item_number: "KEEP", item_description: "Changed" }),
      row({ item_number: "A-5", rate: -3, inventory_type: "Gizmo" }),
    ], 422);
    assert.equal(res.detail, "3 rows have errors");
    assert.deepEqual(res.errors, [
      { path: "rows.2.rate", message: "Row 2, Rate: Must be a number" },
      { path: "rows.3.isTaxable", message: "Row 3, Taxable: Must be yes or no" },
      { path: "rows.3.item_category", message: "Row 3, Category: Unknown item category" },
      { path: "rows.5.rate", message: "Row 5, Rate: Must be at least 0" },
      {
        path: "rows.5.inventory_type",
        message: "Row 5, Inventory Type: Must be one of Serialized, Itemized, Charge Code",
      },
    ]);
    const stored = await all(env);
    assert.deepEqual(stored.map((i) => [i.item_number, i.item_description]), [["KEEP", "Stored"]]);

    const one = await post(env, token, [row({ item_number: "B", rate: "x" })], 422);
    assert.equal(one.detail, "1 row has errors");
  }));

Deno.test("items batch - rows without an item number are dropped; numbering counts the rows as sent", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const res = await post(env, token, [
      row(),
      row({ item_description: "no number", rate: "oops" }),
      row({ item_number: "  " }),
      row({ item_number: "C-1", rate: "bad" }),
    ], 422);
    assert.deepEqual(res.errors, [{ path: "rows.4.rate", message: "Row 4, Rate: Must be a number" }]);

    const ok = await post(env, token, [
      row(),
      row({ item_number: "C-1", item_description: "", rate: "", units: "Per Day", type: "" }),
      row({ item_description: "ignored" }),
      { item_number: 1502, rate: 7 },
    ]);
    assert.deepEqual(ok, { created: 2, updated: 0, message: "2 items created, 0 updated" });
    const [a, b] = await all(env);
    assert.deepEqual(
      [a.item_number, a.rate, a.units, a.inventory_type, a.item_description, a.category_id],
      ["1502", 7, "", "Itemized", "", null],
    );
    assert.deepEqual([b.item_number, b.rate, b.units, b.item_type], ["C-1", null, "Per Day", ""]);
  }));

Deno.test("items batch - existing item numbers are updated (upsert) and the answer counts both", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const cat = await makeCategory(env.tenant.db, { model: "Item Category", name: "Valves" });
    await makeItem(env.tenant.db, {
      item_number: "PV-1",
      item_description: "Old",
      rate: 10,
      inventory_type: "Serialized",
      notes: "kept",
      isService: true,
    });
    const res = await post(env, token, [
      { item_number: "pv-1", item_description: "Plug valve", rate: "$1,250.50", item_category: "VALVES" },
      row({ item_number: "PV-2", item_description: "New", type: "Sales", inventory_type: "charge code" }),
    ]);
    assert.deepEqual(res, { created: 1, updated: 1, message: "1 item created, 1 updated" });
    const [pv1, pv2] = await all(env);
    assert.deepEqual(
      [pv1.item_number, pv1.item_description, pv1.rate, pv1.category_id, pv1.inventory_type, pv1.notes],
      ["PV-1", "Plug valve", 1250.5, cat.id, "Serialized", "kept"],
      "columns absent from the row are left as stored, the number keeps its stored case",
    );
    assert.equal(pv1.isService, true);
    assert.deepEqual([pv2.item_type, pv2.inventory_type, pv2.category_id], ["Sales", "Charge Code", null]);

    // An empty category clears it; a present but empty yes/no is false.
    await post(env, token, [row({ item_number: "PV-1" })]);
    const [again] = await all(env);
    assert.deepEqual([again.category_id, again.isService, again.rate, again.item_description], [
      null,
      false,
      null,
      "",
    ]);
  }));

Deno.test("items batch - yes/no cells: true/false, yes/no, 1/0, x and empty", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const cases: [unknown, boolean][] = [
      [true, true],
      ["true", true],
      ["YES", true],
      ["1", true],
      [1, true],
      ["x", true],
      [false, false],
      ["False", false],
      ["no", false],
      ["0", false],
      ["", false],
      [null, false],
    ];
    for (const [v, want] of cases) assert.equal(parseBatchBool(v), want, String(v));
    assert.equal(parseBatchBool("maybe"), undefined);
    assert.equal(parseBatchBool(2), undefined);
    await post(env, token, [
      row({ item_number: "Y", isTaxable: "yes", isExpendable: "X", isService: 1 }),
      row({ item_number: "N", isTaxable: "no", isExpendable: "0", isService: "" }),
    ]);
    const [n, y] = await all(env);
    assert.deepEqual([y.isTaxable, y.isExpendable, y.isService], [true, true, true]);
    assert.deepEqual([n.isTaxable, n.isExpendable, n.isService], [false, false, false]);
  }));

Deno.test("items batch - a repeated item number is an error on the later row", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const res = await post(env, token, [
      row({ item_number: "D-1" }),
      row({ item_number: "D-2" }),
      row({ item_number: "d-1" }),
    ], 422);
    assert.deepEqual(res.errors, [
      { path: "rows.3.item_number", message: "Row 3, Item Number: Repeats the item number of row 1" },
    ]);
    assert.equal((await all(env)).length, 0);
  }));

Deno.test("items batch - becoming Serialized is refused while the item's stock holds more than 1", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const item = await makeItem(env.tenant.db, { item_number: "HOSE", inventory_type: "Itemized" });
    await makeInventory(env.tenant.db, { item_id: item.id, quantity: 5 });
    const res = await post(env, token, [{ item_number: "HOSE", inventory_type: "Serialized" }], 422);
    assert.deepEqual(res.errors, [{
      path: "rows.1.inventory_type",
      message: "Row 1, Inventory Type: Its inventory holds more than 1 on a row",
    }]);
  }));

Deno.test("items batch - the body must be a list of at most 5000 rows; only sales-admin uploads", () =>
  withEnv(async (env) => {
    const token = await env.login();
    assert.deepEqual((await post(env, token, { rows: [] }, 422)).errors, [
      { path: "rows", message: "Expected a list of rows" },
    ]);
    const many = Array.from({ length: 5001 }, (_, i) => ({ item_number: `M-${i}` }));
    assert.equal((await post(env, token, many, 422)).detail, "At most 5000 rows");
    assert.deepEqual((await post(env, token, ["A-1"], 422)).errors, [{
      path: "rows.1.item_number",
      message: "Row 1, Item Number: Each row must be an object of the batch columns",
    }]);
    const bad = await env.request("/api/sales/items/batch", {
      token,
      method: "POST",
      headers: { "content-type": "application/json" },
    });
    assert.equal(bad.status, 400);
    const res = await post(env, token, many.slice(0, 5000));
    assert.equal(res.created, 5000);

    const general = (await env.userWithToken({ permissions: ["inspector"] })).token;
    await post(env, general, [{ item_number: "G" }], 403);
    const customer = await makeCompany(env.tenant.db);
    const outsider =
      (await env.userWithToken({ permissions: ["sales-admin"], company_id: customer.id })).token;
    await post(env, outsider, [{ item_number: "G" }], 403);
    await env.json("/api/sales/items/batch", { method: "POST", json: [], status: 401 });
  }));

Deno.test("items batch - each tenant's catalogue is its own", () =>
  withEnv(async (env) => {
    await makeItem(env.tenant.db, { item_number: "SHARED", item_description: "Acme's" });
    await makeCategory(env.tenant.db, { model: "Item Category", name: "Acme Only" });
    const beta = await env.addTenant("beta", "beta.test");
    const token = await env.login(ADMIN.email, ADMIN.password, "beta.test");
    const json = [{ item_number: "SHARED", item_description: "Beta's" }];
    const res = await env.json("/api/sales/items/batch", { token, host: "beta.test", method: "POST", json });
    assert.deepEqual([res.created, res.updated], [1, 0]);
    const unknown = await env.json("/api/sales/items/batch", {
      token,
      host: "beta.test",
      method: "POST",
      json: [{ item_number: "X", item_category: "Acme Only" }],
      status: 422,
    });
    assert.equal(unknown.errors[0].message, "Row 1, Category: Unknown item category");
    const [acme] = await all(env);
    assert.equal(acme.item_description, "Acme's");
    const [b] = await beta.db.select().from(items);
    assert.equal(b.item_description, "Beta's");
  }));
