import assert from "node:assert/strict";
import { withEnv } from "../../../scripts/testing/harness.ts";

const CONTROL_MESSAGE = "Control characters are not allowed";

const count = async (env: Parameters<Parameters<typeof withEnv>[0]>[0], token: string) =>
  (await env.json("/api/sales/items?rowsPerPage=-1", { token })).total as number;

Deno.test("items - a NUL in an item number answers 422 on the single save and nothing is stored", () =>
  withEnv(async (env) => {
    const token = await env.login();
    for (const item_number of ["\u0000", "A\u0000", "B\u001b[31m", "C\u007f"]) {
      const res = await env.json("/api/sales/items", {
        token,
        method: "POST",
        json: { item_number, inventory_type: "Itemized" },
        status: 422,
      });
      assert.deepEqual(res.errors, [{ path: "item_number", message: CONTROL_MESSAGE }]);
      assert.equal(res.detail, `item_number: ${CONTROL_MESSAGE}`);
    }
    const nested = await env.json("/api/sales/items", {
      token,
      method: "POST",
      json: { item_number: "D", inventory_type: "Itemized", custom: { note: ["ok", "bad\u0002"] } },
      status: 422,
    });
    assert.deepEqual(nested.errors, [{ path: "custom.note.1", message: CONTROL_MESSAGE }]);
    assert.equal(await count(env, token), 0);
    // Tab and line breaks are text, not control characters to refuse.
    const ok = await env.json("/api/sales/items", {
      token,
      method: "POST",
      json: { item_number: "E", inventory_type: "Itemized", notes: "one\r\n\ttwo" },
    });
    assert.equal(ok.notes, "one\r\n\ttwo");
  }));

Deno.test("items batch - a NUL in an item number answers 422 (not 500) naming the row, and nothing is stored", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const batch = (rows: unknown[]) =>
      env.request("/api/sales/items/batch", { token, method: "POST", json: rows });
    const res = await batch([{ item_number: "OK-1" }, { item_number: "\u0000" }, {
      item_number: "OK-3",
      item_description: "x\u0000y",
    }]);
    assert.equal(res.status, 422);
    const body = await res.json();
    assert.deepEqual(body.errors, [
      { path: "rows.2.item_number", message: `Row 2, Item Number: ${CONTROL_MESSAGE}` },
      { path: "rows.3.item_description", message: `Row 3, Item: ${CONTROL_MESSAGE}` },
    ]);
    assert.equal(await count(env, token), 0);
    // The same row as the single save stores no NUL either way.
    assert.equal((await batch([{ item_number: "A\u0000" }])).status, 422);
    assert.equal(await count(env, token), 0);
  }));

Deno.test("inventory - a control character in any text field of a save, batch or query answers 422", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const save = await env.json("/api/sales/inventory", {
      token,
      method: "POST",
      json: { item_id: 1, business_unit_id: 1, serial_number: "S\u0000" },
      status: 422,
    });
    assert.deepEqual(save.errors, [{ path: "serial_number", message: CONTROL_MESSAGE }]);
    const batch = await env.json("/api/sales/inventory/batch", {
      token,
      method: "POST",
      json: [{ item_number: "X", serial_number: "\u0000", business_unit_id: 1 }],
      status: 422,
    });
    assert.equal(batch.errors[0].message, CONTROL_MESSAGE);
    const query = await env.json(
      `/api/sales/inventory?search_serial_number=${encodeURIComponent("a\u0000")}`,
      {
        token,
        status: 422,
      },
    );
    assert.deepEqual(query.errors, [{ path: "search_serial_number", message: CONTROL_MESSAGE }]);
  }));

Deno.test("items - a lone surrogate (not storable as UTF-8) answers 422 on save and batch, not a 500 on repeat", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const message = "Text must be valid Unicode";
    const single = await env.json("/api/sales/items", {
      token,
      method: "POST",
      json: { item_number: "\ud800", inventory_type: "Itemized" },
      status: 422,
    });
    assert.deepEqual(single.errors, [{ path: "item_number", message }]);
    // Stored as U+FFFD it would not match itself on the next upload, which then broke the unique index.
    for (let i = 0; i < 2; i++) {
      const res = await env.json("/api/sales/items/batch", {
        token,
        method: "POST",
        json: [{ item_number: "X\udc00" }],
        status: 422,
      });
      assert.deepEqual(res.errors, [{
        path: "rows.1.item_number",
        message: `Row 1, Item Number: ${message}`,
      }]);
    }
    assert.equal(await count(env, token), 0);
    // A well-formed pair is ordinary text.
    await env.json("/api/sales/items", {
      token,
      method: "POST",
      json: { item_number: "\ud83d\ude00", inventory_type: "Itemized" },
    });
  }));
