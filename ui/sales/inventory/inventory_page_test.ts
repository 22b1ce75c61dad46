import assert from "node:assert/strict";
import { type TestEnv, withEnv } from "../../../scripts/testing/harness.ts";
import { makeCategory, makeCompany, makeInventory, makeItem } from "../../../db/factories.ts";
import { inventory_locations } from "../../../db/schema/mod.ts";

const cookie = (token: string) => ({ cookie: `session=${token}` });

/** One row of each type in one unit with yard locations; the itemized row has 4 at 'Yard A'. */
async function stock(env: TestEnv) {
  const db = env.tenant.db;
  const unit = await makeCategory(db, { name: "Odessa", custom: { locations: ["Yard A"] } });
  const pump = await makeItem(db, {
    item_number: "PUMP-3",
    item_description: "Triplex pump",
    inventory_type: "Serialized",
  });
  const iron = await makeItem(db, {
    item_number: "IRON-2",
    item_description: "2in iron",
    inventory_type: "Itemized",
  });
  const haul = await makeItem(db, {
    item_number: "HAUL",
    item_description: "Hauling",
    inventory_type: "Charge Code",
  });
  await makeInventory(db, {
    item_id: pump.id,
    business_unit_id: unit.id,
    serial_number: "TP-1",
    quantity: 1,
    status: "Repair",
  });
  const lot = await makeInventory(db, {
    item_id: iron.id,
    business_unit_id: unit.id,
    serial_number: "LOT-7",
    quantity: 30,
    quantity_out: 5,
    quantity_out_location: 4,
  });
  await db.insert(inventory_locations).values({ inventory_id: lot.id, name: "Yard A", quantity: 4 });
  await makeInventory(db, {
    item_id: iron.id,
    business_unit_id: unit.id,
    serial_number: "LOT-8",
    quantity: 12,
    hidden: true,
  });
  await makeInventory(db, {
    item_id: haul.id,
    business_unit_id: unit.id,
    serial_number: "CC-1",
    quantity: 0,
  });
}

/** The table's text: tags dropped, whitespace folded. */
const tableText = (html: string) =>
  html.slice(html.indexOf("<table"), html.indexOf("</table>")).replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");

Deno.test("inventory pages - each type has its title, only its rows, its columns and the Totals row", () =>
  withEnv(async (env) => {
    await stock(env);
    const token = await env.login();
    const serialized = await (await env.request("/sales/serialized-inventory", cookie(token))).text();
    assert.match(serialized, /<h1>Serialized Inventory<\/h1>/);
    assert.match(serialized, /<title>Serialized Inventory - Back Office<\/title>/);
    assert.match(tableText(serialized), /TP-1 PUMP-3 Triplex pump Odessa 1 0 0 1 Repair /);
    assert.doesNotMatch(serialized, /LOT-7|CC-1/);
    assert.match(serialized, /data-island="ui\/sales\/inventory\/islands\/InventoryTable.tsx"/);

    const res = await env.request("/sales/itemized-inventory", cookie(token));
    assert.equal(res.status, 200);
    const itemized = await res.text();
    assert.match(itemized, /<h1>Itemized Inventory<\/h1>/);
    const text = tableText(itemized);
    for (
      const h of [
        "Serial Number",
        "Item Number",
        "Item",
        "Business Unit",
        "Quantity",
        "Quantity Out (Tickets)",
        "Quantity Out (Location)",
        "Quantity Available",
        "Status",
        "Last Updated by",
        "Actions",
      ]
    ) assert.match(itemized, new RegExp(`>${h.replace(/[()]/g, "\\$&")}<`));
    assert.match(text, /LOT-7 IRON-2 2in iron Odessa 30 5 4 21 Available /);
    assert.doesNotMatch(text, /LOT-8/, "hidden rows are left out");
    assert.match(text, /Totals 30 5 4 21/);
    assert.match(itemized, /1-1 of 1/);

    const hidden = tableText(
      await (await env.request("/sales/itemized-inventory?include_hidden=true", cookie(token))).text(),
    );
    assert.match(
      hidden,
      /LOT-8 IRON-2 2in iron Odessa 12 0 0 12 Available Hidden /,
      "hidden rows are marked",
    );
    assert.match(hidden, /LOT-7 IRON-2 2in iron Odessa 30 5 4 21 Available (?!Hidden)/);
    assert.match(hidden, /Totals 42 5 4 33/);
    const searched = tableText(
      await (await env.request(
        "/sales/itemized-inventory?include_hidden=true&search_serial_number=lot-8",
        cookie(token),
      ))
        .text(),
    );
    assert.doesNotMatch(searched, /LOT-7/);
    assert.match(searched, /Totals 12 0 0 12/);

    const charges = await (await env.request("/sales/charge-codes", cookie(token))).text();
    assert.match(charges, /<h1>Charge Codes<\/h1>/);
    assert.match(
      tableText(charges),
      /CC-1 HAUL Hauling Odessa Available /,
      "status shows on charge codes too",
    );
    assert.doesNotMatch(charges, />Quantity</);
    assert.doesNotMatch(charges, /Quantity Out|Quantity Available/);
    assert.doesNotMatch(charges, />Totals</);
    assert.match(charges, />Actions</);
  }));

Deno.test("inventory pages - view=location lists each row at Base and at its locations", () =>
  withEnv(async (env) => {
    await stock(env);
    const token = await env.login();
    const html =
      await (await env.request("/sales/itemized-inventory?view=location&rowsPerPage=40", cookie(token)))
        .text();
    assert.match(html, />Location</);
    assert.doesNotMatch(html, />Totals<|>Actions<|Expand row/);
    const text = tableText(html);
    assert.match(text, /LOT-7 IRON-2 2in iron Odessa Base 21 Available /);
    assert.match(text, /LOT-7 IRON-2 2in iron Odessa Yard A 4 Available /);
    assert.match(html, /aria-current="true"[^>]*>By Location</);
    assert.match(
      html,
      /href="\/sales\/itemized-inventory\?page=1&amp;rowsPerPage=40&amp;inventory_type=Itemized"/,
    );
  }));

Deno.test("inventory pages - a sales admin gets New, Batch Upload, expansion and row actions; a General user none", () =>
  withEnv(async (env) => {
    await stock(env);
    const admin = await (await env.request("/sales/itemized-inventory", cookie(await env.login()))).text();
    assert.match(admin, />New</);
    assert.match(admin, />Batch Upload</);
    assert.match(admin, /aria-label="Expand row"/);
    assert.match(admin, /aria-label="Actions for LOT-7"/);

    const { token } = await env.userWithToken({ permissions: ["inspector"] });
    const res = await env.request("/sales/itemized-inventory", cookie(token));
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.match(html, /LOT-7/);
    assert.match(html, />Download</);
    assert.match(html, />Totals</);
    assert.doesNotMatch(html, />New<|>Batch Upload<|>Actions<|Expand row|Actions for/);
  }));

Deno.test("inventory pages - bad URL values fall back to defaults; the drawer lists the three pages after Items", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const res = await env.request("/sales/charge-codes?page=abc&rowsPerPage=7&sortBy=nope", cookie(token));
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.match(html, /No Data Found/);
    const menu = html.slice(html.indexOf('class="drawer'));
    const at = (href: string) => menu.indexOf(`href="${href}"`);
    assert.ok(at("/sales/items") > 0);
    assert.ok(at("/sales/items") < at("/sales/serialized-inventory"));
    assert.ok(at("/sales/serialized-inventory") < at("/sales/itemized-inventory"));
    assert.ok(at("/sales/itemized-inventory") < at("/sales/charge-codes"));
    assert.ok(at("/sales/charge-codes") < at("/sales/taxes"));
  }));

Deno.test("inventory pages - a customer company's user is sent to the welcome page", () =>
  withEnv(async (env) => {
    const customer = await makeCompany(env.tenant.db, { name: "Customer Co" });
    const { token } = await env.userWithToken({ company_id: customer.id, permissions: ["sales-admin"] });
    for (const path of ["/sales/serialized-inventory", "/sales/itemized-inventory", "/sales/charge-codes"]) {
      const res = await env.request(path, cookie(token));
      assert.equal(res.status, 302);
      assert.match(res.headers.get("location")!, /^\/(\?refused=|$)/);
    }
  }));
