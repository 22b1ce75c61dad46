import assert from "node:assert/strict";
import { withEnv } from "../../../scripts/testing/harness.ts";
import { makeCompany } from "../../../db/factories.ts";
import { taxes } from "../../../db/schema/mod.ts";

const cookie = (token: string) => ({ cookie: `session=${token}` });

Deno.test("taxes page - renders the first 20 taxes by name with rates as percents", () =>
  withEnv(async (env) => {
    const rows = Array.from({ length: 22 }, (_, i) => ({
      company_id: 1,
      name: `Tax ${String(i).padStart(2, "0")}`,
      state: "TX",
      county: "Ector",
      city: "Odessa",
    }));
    await env.tenant.db.insert(taxes).values([
      ...rows,
      {
        company_id: 1,
        name: "Alpha",
        state: "NM",
        state_rate: 5.125,
        county_rate: 0.5,
        city_rate: 2,
        rate: 7.625,
      },
    ]);
    const res = await env.request("/sales/taxes", cookie(await env.login()));
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.match(html, /<h1>Taxes<\/h1>/);
    for (
      const h of [
        "Name",
        "State",
        "County",
        "City",
        "State Rate",
        "County Rate",
        "City Rate",
        "Rate",
        "Notes",
      ]
    ) {
      assert.match(html, new RegExp(`>${h}<`), h);
    }
    assert.match(html, />New<\/button>/);
    assert.match(html, />5\.125%</);
    assert.match(html, />0\.500%</);
    assert.match(html, />7\.625%</);
    assert.ok(html.indexOf("Alpha") < html.indexOf("Tax 00"));
    assert.match(html, /Tax 18/);
    assert.doesNotMatch(html, /Tax 19/);
    assert.match(html, /1-20 of 23/);
    assert.match(html, /data-island="ui\/sales\/taxes\/islands\/TaxesTable.tsx"/);
    // The Sales menu, in the spec's order.
    const menu = ["Taxes", "Inventory Categories", "Item Categories", "Business Units", "Product Lines"]
      .map((l) => html.indexOf(`>${l}</span>`));
    assert.ok(menu.every((at, i) => at > 0 && (i === 0 || at > menu[i - 1])), String(menu));
  }));

Deno.test("taxes page - 'State | County | City' in the URL searches those fields; bad values fall back", () =>
  withEnv(async (env) => {
    const token = await env.login();
    await env.tenant.db.insert(taxes).values([
      { company_id: 1, name: "Odessa", state: "TX", county: "Ector", city: "Odessa" },
      { company_id: 1, name: "Ector Override", state: "NM", county: "Lea", city: "Hobbs" },
    ]);
    let html = await (await env.request("/sales/taxes?search_name=TX%20%7C%20Ector", cookie(token))).text();
    assert.match(html, /1-1 of 1/);
    assert.match(html, /value="TX \| Ector"/);
    html = await (await env.request("/sales/taxes?search_name=ector", cookie(token))).text();
    assert.match(html, /1-2 of 2/);
    const res = await env.request("/sales/taxes?page=x&rowsPerPage=7&sortBy=rate", cookie(token));
    assert.equal(res.status, 200);
    html = await res.text();
    assert.match(html, /1-2 of 2/);
    assert.match(html, /Ector Override/);
  }));

Deno.test("taxes page - empty: 'No Data Found'; a customer company's user is sent to '/'", () =>
  withEnv(async (env) => {
    const html = await (await env.request("/sales/taxes", cookie(await env.login()))).text();
    assert.match(html, /No Data Found/);
    const customer = await makeCompany(env.tenant.db);
    const { token } = await env.userWithToken({ company_id: customer.id, permissions: ["sales-admin"] });
    const res = await env.request("/sales/taxes", cookie(token));
    assert.equal(res.status, 302);
    assert.match(res.headers.get("location")!, /^\/(\?refused=|$)/);
  }));
