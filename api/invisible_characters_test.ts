import assert from "node:assert/strict";
import { withEnv } from "../scripts/testing/harness.ts";
import { directionMessage, invisibleMessage, joinerMessage, separatorMessage } from "./lib/validate.ts";

// Decision 042: names refuse direction overrides and invisible characters on every route, through the one walk
// of valid() and parse(); the items batch, which reads its own body, applies the same rule per row.

Deno.test("invisible characters - item, company and inventory saves refuse spoofed names with 422 naming the field", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const item = await env.json("/api/sales/items", {
      token,
      method: "POST",
      json: { item_number: "VALVE\u202E-2", inventory_type: "Itemized" },
      status: 422,
    });
    assert.deepEqual(item.errors, [{ path: "item_number", message: directionMessage("\u202E") }]);
    assert.equal(item.detail, `item_number: ${directionMessage("\u202E")}`);
    const company = await env.json("/api/companies", {
      token,
      method: "POST",
      json: { name: "Acme\u200B", company_type: "Customer" },
      status: 422,
    });
    assert.deepEqual(company.errors, [{ path: "name", message: invisibleMessage("\u200B") }]);
    const joined = await env.json("/api/companies", {
      token,
      method: "POST",
      json: { name: "Acme\u200D", company_type: "Customer" },
      status: 422,
    });
    assert.deepEqual(joined.errors, [{ path: "name", message: joinerMessage("\u200D") }]);
    const serial = await env.json("/api/sales/inventory", {
      token,
      method: "POST",
      json: { item_id: 1, business_unit_id: 1, serial_number: "SN-1\u2028" },
      status: 422,
    });
    assert.deepEqual(serial.errors, [{ path: "serial_number", message: separatorMessage("\u2028") }]);
    const search = await env.json(
      `/api/sales/items?search_item_number=${encodeURIComponent("\u2067x")}`,
      { token, status: 422 },
    );
    assert.deepEqual(search.errors, [{ path: "search_item_number", message: directionMessage("\u2067") }]);
    assert.equal((await env.json("/api/sales/items?rowsPerPage=-1", { token })).total, 0);
  }));

Deno.test("invisible characters - names in other scripts and emoji, and notes with joiners, are stored as sent", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const names = ["شرکت\u200Cها", "क्\u200Dष-1", "👨\u200D🔧 Crew"];
    for (const item_number of names) {
      const saved = await env.json("/api/sales/items", {
        token,
        method: "POST",
        json: { item_number, inventory_type: "Itemized", notes: "note\u200D with a stray joiner" },
      });
      assert.equal(saved.item_number, item_number);
      assert.equal(saved.notes, "note\u200D with a stray joiner");
    }
    // Notes are free text, but an override is refused there too.
    const notes = await env.json("/api/sales/items", {
      token,
      method: "POST",
      json: { item_number: "N-1", inventory_type: "Itemized", notes: "pay \u202E0001$" },
      status: 422,
    });
    assert.deepEqual(notes.errors, [{ path: "notes", message: directionMessage("\u202E") }]);
  }));

Deno.test("invisible characters - the items batch refuses them per row, descriptions as free text", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const res = await env.json("/api/sales/items/batch", {
      token,
      method: "POST",
      json: [
        { item_number: "OK-1", item_description: "Plug\u200D valve" },
        { item_number: "B\uFEFF-2" },
        { item_number: "B-3", item_description: "x\u202Dy" },
        { item_number: "B-4", units: "ea\u200B" },
      ],
      status: 422,
    });
    assert.deepEqual(res.errors, [
      { path: "rows.2.item_number", message: `Row 2, Item Number: ${invisibleMessage("\uFEFF")}` },
      { path: "rows.3.item_description", message: `Row 3, Item: ${directionMessage("\u202D")}` },
      { path: "rows.4.units", message: `Row 4, Units: ${invisibleMessage("\u200B")}` },
    ]);
    assert.equal((await env.json("/api/sales/items?rowsPerPage=-1", { token })).total, 0);
  }));
