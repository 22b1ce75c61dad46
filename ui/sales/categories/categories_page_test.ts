import assert from "node:assert/strict";
import { withEnv } from "../../../scripts/testing/harness.ts";
import { makeCategory, makeCompany } from "../../../db/factories.ts";
import { CATEGORY_PAGES } from "./types.ts";

const cookie = (token: string) => ({ cookie: `session=${token}` });

Deno.test("categories pages - each page lists only its model, by name, with its title", () =>
  withEnv(async (env) => {
    const token = await env.login();
    for (const p of CATEGORY_PAGES) {
      await makeCategory(env.tenant.db, {
        model: p.model,
        name: `Zed ${p.model}`,
        notes: `About ${p.model}`,
      });
      await makeCategory(env.tenant.db, { model: p.model, name: `Abe ${p.model}` });
    }
    for (const p of CATEGORY_PAGES) {
      const res = await env.request(p.path, cookie(token));
      assert.equal(res.status, 200, p.path);
      const html = await res.text();
      assert.match(html, new RegExp(`<h1>${p.title}</h1>`));
      assert.match(html, /data-island="ui\/sales\/categories\/islands\/CategoriesTable.tsx"/);
      assert.match(html, new RegExp(`aria-label="${p.title}"`));
      assert.ok(html.indexOf(`Abe ${p.model}`) < html.indexOf(`Zed ${p.model}`));
      assert.match(html, new RegExp(`About ${p.model}`));
      assert.match(html, /1-2 of 2/);
      for (const other of CATEGORY_PAGES.filter((o) => o !== p)) {
        assert.doesNotMatch(html, new RegExp(`Zed ${other.model}<`), `${p.path} shows no ${other.model}`);
      }
      assert.equal(html.includes(">Locations<"), p.model === "Business Unit", p.path);
    }
  }));

Deno.test("business units page - shows locations; search, size and sort come from the URL", () =>
  withEnv(async (env) => {
    const token = await env.login();
    await makeCategory(env.tenant.db, { name: "Odessa Yard", custom: { locations: ["North", "Rack 2"] } });
    for (let i = 0; i < 25; i++) {
      await makeCategory(env.tenant.db, { name: `Unit ${String(i).padStart(2, "0")}` });
    }
    let html = await (await env.request("/sales/business-units", cookie(token))).text();
    assert.match(html, /North, Rack 2/);
    assert.match(html, /1-20 of 26/);
    html = await (await env.request("/sales/business-units?search_name=odessa", cookie(token))).text();
    assert.match(html, /1-1 of 1/);
    html = await (await env.request("/sales/business-units?rowsPerPage=-1&descending=true", cookie(token)))
      .text();
    assert.match(html, /1-26 of 26/);
    assert.ok(html.indexOf("Unit 24") < html.indexOf("Odessa Yard"));
    html = await (await env.request("/sales/business-units?search_name=nothing", cookie(token))).text();
    assert.match(html, /No Data Found/);
  }));

Deno.test("business units page - the search form keeps size and order but not the page's own model", () =>
  withEnv(async (env) => {
    const res = await env.request("/sales/business-units?rowsPerPage=40", cookie(await env.login()));
    const form = (await res.text()).match(/<form role="search"[^]*?<\/form>/)?.[0] ?? "";
    const hidden = [...form.matchAll(/<input type="hidden" name="([^"]+)"/g)].map((m) => m[1]);
    // The model comes from the path: in the URL it would only be noise the server ignores.
    assert.deepEqual(hidden, ["rowsPerPage", "sortBy", "descending"]);
  }));

Deno.test("categories pages - a customer company's user is sent to '/'", () =>
  withEnv(async (env) => {
    const customer = await makeCompany(env.tenant.db);
    const { token } = await env.userWithToken({ company_id: customer.id, permissions: ["sales-admin"] });
    for (const p of CATEGORY_PAGES) {
      const res = await env.request(p.path, cookie(token));
      assert.equal(res.status, 302);
      assert.match(res.headers.get("location")!, /^\/(\?refused=|$)/);
    }
  }));
