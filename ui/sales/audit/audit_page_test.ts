import assert from "node:assert/strict";
import { withEnv } from "../../../scripts/testing/harness.ts";
import { makeCompany } from "../../../db/factories.ts";
import { inventory_audit } from "../../../db/schema/mod.ts";

const cookie = (token: string) => ({ cookie: `session=${token}` });

const HEADERS = [
  "Action Time",
  "Action",
  "Updated By",
  "Serial Number",
  "Item",
  "Status",
  "Quantity",
  "Category",
  "Business Unit",
  "Locations",
  "Calculated Inventory Status",
];

Deno.test("audit page - renders the newest 10 rows with every column, filter and the island's props", () =>
  withEnv(async (env) => {
    await env.tenant.db.insert(inventory_audit).values(
      Array.from({ length: 12 }, (_, i) => ({
        action: i === 11 ? "Business Unit Transfer In" : "Batch Upload",
        action_time: `2024-05-${String(i + 1).padStart(2, "0")}T10:00:00.000Z`,
        updated_by_name: "Pat Admin",
        serial_number: `SN-${String(i).padStart(2, "0")}`,
        item_number: "SW3",
        item_description: "3in swivel",
        status: "Available",
        quantity: 40,
        quantity_change: i === 11 ? 5 : 0,
        category: "Rental Fleet",
        business_unit: "Midland",
        locations: "Yard A: 10",
      })),
    );
    const { token } = await env.userWithToken({ permissions: [] });
    const res = await env.request("/sales/inventory-audit", cookie(token));
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.match(html, /<h1>Inventory Audit<\/h1>/);
    assert.match(html, /data-island="ui\/sales\/audit\/islands\/AuditTable.tsx"/);
    for (const h of HEADERS) assert.match(html, new RegExp(`>${h}<`), h);
    for (
      const f of [
        "Serial Number",
        "Item Number",
        "Ticket Number",
        "Invoice Number",
        "Customer",
        "Sales Rep",
        "Start Date Begin",
        "Start Date End",
      ]
    ) assert.match(html, new RegExp(`<label[^>]*>${f}</label>`), f);
    assert.ok(html.indexOf("SN-11") < html.indexOf("SN-10"), "newest first");
    assert.doesNotMatch(html, /SN-01</, "10 rows a page");
    assert.match(html, /1-10 of 12/);
    assert.match(html, /40 \(\+5\)/);
    assert.match(html, /Yard A: 10/);
    assert.match(html, /SW3 - 3in swivel/);
    assert.match(
      html,
      /<time dateTime="2024-05-12T10:00:00.000Z">05-12-24 10:00<\/time>/,
      "times on the company's clock (UTC without a setting), in the HTML too",
    );
    assert.match(html, />Download</);
    // The Sales drawer lists the audit log after the inventory pages.
    const menu = html.slice(html.indexOf('class="drawer'));
    assert.ok(menu.indexOf('href="/sales/charge-codes"') < menu.indexOf('href="/sales/inventory-audit"'));
    assert.ok(menu.indexOf('href="/sales/inventory-audit"') < menu.indexOf('href="/sales/taxes"'));
  }));

Deno.test("audit page - serial, item, ticket and invoice numbers and the dates come from the URL", () =>
  withEnv(async (env) => {
    await env.tenant.db.insert(inventory_audit).values([
      {
        action: "Sold",
        serial_number: "PV2-1",
        item_number: "PV2",
        ticket_number: "T-1",
        invoice_number: "I-9",
      },
      { action: "Sold", serial_number: "PV2-2", item_number: "PV2", ticket_number: "T-2" },
      { action: "Sold", serial_number: "SW-1", item_number: "SW3", action_time: "2020-01-01T00:00:00.000Z" },
    ]);
    const token = await env.login();
    const page = async (qs: string) =>
      await (await env.request(`/sales/inventory-audit?${qs}`, cookie(token))).text();
    let html = await page("serial_number=PV2-1");
    assert.match(html, /PV2-1</);
    assert.doesNotMatch(html, /PV2-2</);
    assert.match(html, /value="PV2-1"/, "the filter shows the URL's value");
    html = await page("item_number=sw3");
    assert.match(html, /SW-1</);
    assert.doesNotMatch(html, /PV2-1</);
    html = await page("ticket_number=T-2");
    assert.deepEqual([/PV2-2</.test(html), /PV2-1</.test(html)], [true, false]);
    html = await page("invoice_number=I-9");
    assert.deepEqual([/PV2-1</.test(html), /PV2-2</.test(html)], [true, false]);
    html = await page("start_date_end=2020-12-31");
    assert.match(html, /1-1 of 1/);
    html = await page("rowsPerPage=50&sortBy=serial_number&descending=false");
    assert.ok(html.indexOf("PV2-1<") < html.indexOf("SW-1<"));
    html = await page("serial_number=nothing");
    assert.match(html, /No Data Found/);
    const bad = await env.request(
      "/sales/inventory-audit?start_date_begin=soon&rowsPerPage=7&page=x",
      cookie(token),
    );
    assert.equal(bad.status, 200);
    assert.match(await bad.text(), /1-3 of 3/);
  }));

Deno.test("audit page - a customer company's user is sent to '/'", () =>
  withEnv(async (env) => {
    const customer = await makeCompany(env.tenant.db);
    const { token } = await env.userWithToken({ company_id: customer.id, permissions: ["sales-admin"] });
    const res = await env.request("/sales/inventory-audit", cookie(token));
    assert.equal(res.status, 302);
    assert.match(res.headers.get("location")!, /^\/(\?refused=|$)/);
  }));

Deno.test("audit page - a change's calculated inventory status is shown in its own column", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const unit = await env.json("/api/sales/categories", {
      token,
      method: "POST",
      json: { model: "Business Unit", name: "Odessa" },
    });
    const item = await env.json("/api/sales/items", {
      token,
      method: "POST",
      json: { item_number: "PUMP-9", inventory_type: "Serialized" },
    });
    await env.json("/api/sales/inventory", {
      token,
      method: "POST",
      json: { item_id: item.id, business_unit_id: unit.id, serial_number: "EMPTY-1", quantity: 0 },
    });
    const page = await (await env.request("/sales/inventory-audit", cookie(token))).text();
    const html = page.slice(page.indexOf("<table"), page.indexOf("</table>"));
    const at = html.indexOf("EMPTY-1");
    const row = html.slice(html.lastIndexOf("<tr", at), html.indexOf("</tr>", at));
    const cells = [...row.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((m) =>
      m[1].replace(/<[^>]+>/g, "").trim()
    );
    assert.equal(cells[5], "Available", "the status as marked");
    assert.equal(cells.at(-1), "Out", "none of it is free to rent");
  }));
