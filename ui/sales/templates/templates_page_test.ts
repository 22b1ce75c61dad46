import assert from "node:assert/strict";
import { withEnv } from "../../../scripts/testing/harness.ts";
import { makeCompany } from "../../../db/factories.ts";
import { templates } from "../../../db/schema/mod.ts";
import { makeItemOf, makeRow, makeUnit } from "../../../api/sales/inventory/test_fixtures.ts";

const cookie = (token: string) => ({ cookie: `session=${token}` });

Deno.test("templates page - asks for a business unit first, then lists its templates by name", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const unit = await makeUnit(env, [], "Midland");
    const other = await makeUnit(env, [], "Odessa");
    const mileage = await makeItemOf(env, "Charge Code", { item_number: "MIL", item_description: "Mileage" });
    const row = await makeRow(env, {
      business_unit_id: unit.id,
      item_id: mileage.id,
      serial_number: "MID-MIL",
    });
    await env.tenant.db.insert(templates).values([
      { company_id: 1, name: "Zeta rig-up", business_unit_id: unit.id, inventory_ids: [row.id] },
      { company_id: 1, name: "Alpha rig-up", business_unit_id: unit.id },
      { company_id: 1, name: "Elsewhere", business_unit_id: other.id },
    ]);

    let res = await env.request("/sales/templates", cookie(token));
    assert.equal(res.status, 200);
    let html = await res.text();
    assert.match(html, /<h1>Templates<\/h1>/);
    assert.match(html, /data-island="ui\/sales\/templates\/islands\/TemplatesTable.tsx"/);
    assert.match(html, /<label[^>]*>Business Unit<\/label>/);
    assert.match(html, /Choose a business unit to see its templates/);
    assert.doesNotMatch(html, /Alpha rig-up/);
    assert.match(html, />New</);

    html = await (await env.request(`/sales/templates?search_business_unit=${unit.id}`, cookie(token)))
      .text();
    assert.match(html, /value="Midland"/, "the chosen unit is named in its picker");
    for (const h of ["Name", "Business Unit", "Items"]) assert.match(html, new RegExp(`>${h}<`));
    assert.ok(html.indexOf("Alpha rig-up") < html.indexOf("Zeta rig-up"));
    assert.doesNotMatch(html, /Elsewhere/);
    assert.match(html, /1-2 of 2/);
    assert.match(html, /Search name/);

    html = await (await env.request(
      `/sales/templates?search_business_unit=${unit.id}&search_name=zeta&descending=true`,
      cookie(token),
    )).text();
    assert.match(html, /1-1 of 1/);
    html = await (await env.request(
      `/sales/templates?search_business_unit=${unit.id}&search_name=none`,
      cookie(token),
    ))
      .text();
    assert.match(html, /No Templates Found/);
    res = await env.request("/sales/templates?search_business_unit=999999&rowsPerPage=abc", cookie(token));
    assert.equal(res.status, 200);
    assert.match(
      await res.text(),
      /Choose a business unit to see its templates/,
      "an unknown unit is no unit",
    );
  }));

Deno.test("templates page - only sales-admin of the owner company; the drawer shows Templates only to them", () =>
  withEnv(async (env) => {
    const reader = await env.userWithToken({ permissions: ["inspector"] });
    let res = await env.request("/sales/templates", cookie(reader.token));
    assert.equal(res.status, 302);
    // The spec: others are redirected to /signin (which sends a signed-in user on to the welcome page).
    assert.match(res.headers.get("location")!, /^\/signin(\?next=|$)/);
    res = await env.request("/signin", cookie(reader.token));
    assert.match(res.headers.get("location")!, /^\/(\?refused=|$)/);
    const items = await (await env.request("/sales/items", cookie(reader.token))).text();
    assert.doesNotMatch(items, /href="\/sales\/templates"/);

    const customer = await makeCompany(env.tenant.db);
    const outsider = await env.userWithToken({ company_id: customer.id, permissions: ["sales-admin"] });
    res = await env.request("/sales/templates", cookie(outsider.token));
    assert.match(res.headers.get("location")!, /^\/signin(\?next=|$)/);

    const admin = await (await env.request("/sales/items", cookie(await env.login()))).text();
    const menu = admin.slice(admin.indexOf('class="drawer'));
    assert.ok(menu.indexOf('href="/sales/sub-product-lines"') < menu.indexOf('href="/sales/templates"'));
  }));
