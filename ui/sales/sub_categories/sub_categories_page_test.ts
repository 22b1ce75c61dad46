import assert from "node:assert/strict";
import { withEnv } from "../../../scripts/testing/harness.ts";
import { makeCategory, makeCompany } from "../../../db/factories.ts";
import { sub_categories } from "../../../db/schema/mod.ts";

const cookie = (token: string) => ({ cookie: `session=${token}` });

Deno.test("sub product lines page - lists sub product lines with their product line", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const flowback = await makeCategory(env.tenant.db, { model: "Product Line", name: "Flowback" });
    const testing = await makeCategory(env.tenant.db, { model: "Product Line", name: "Well Testing" });
    await env.tenant.db.insert(sub_categories).values([
      { company_id: 1, category_id: testing.id, name: "Separators", notes: "3-phase" },
      { company_id: 1, category_id: flowback.id, name: "Iron" },
    ]);
    const res = await env.request("/sales/sub-product-lines", cookie(token));
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.match(html, /<h1>Sub Product Lines<\/h1>/);
    for (const h of ["Name", "Product Line", "Notes"]) assert.match(html, new RegExp(`>${h}<`));
    assert.ok(html.indexOf("Iron") < html.indexOf("Separators"));
    assert.match(html, />Well Testing</);
    assert.match(html, /3-phase/);
    assert.match(html, /1-2 of 2/);
    assert.match(html, /data-island="ui\/sales\/sub_categories\/islands\/SubCategoriesTable.tsx"/);
    const sorted =
      await (await env.request("/sales/sub-product-lines?sortBy=category&descending=true", cookie(token)))
        .text();
    assert.ok(sorted.indexOf("Separators") < sorted.indexOf("Iron"));
    const none = await (await env.request("/sales/sub-product-lines?search_name=zzz", cookie(token))).text();
    assert.match(none, /No Data Found/);
    // New is for sales-admins (the server refuses anyone else's save).
    assert.match(html, /aria-label="New"|>New</);
    const staff = await env.userWithToken({ permissions: [] });
    const plain = await (await env.request("/sales/sub-product-lines", cookie(staff.token))).text();
    assert.doesNotMatch(plain, /aria-label="New"|>New</);
  }));

Deno.test("sub product lines page - a customer company's user is sent to '/'", () =>
  withEnv(async (env) => {
    const customer = await makeCompany(env.tenant.db);
    const { token } = await env.userWithToken({ company_id: customer.id, permissions: ["sales-admin"] });
    const res = await env.request("/sales/sub-product-lines", cookie(token));
    assert.equal(res.status, 302);
    assert.match(res.headers.get("location")!, /^\/(\?refused=|$)/);
  }));
