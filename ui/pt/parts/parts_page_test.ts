import assert from "node:assert/strict";
import { withEnv } from "../../../scripts/testing/harness.ts";
import { makeCompany, makePart } from "../../../db/factories.ts";

const cookie = (token: string) => ({ cookie: `session=${token}` });

Deno.test("parts page - renders the first page sorted by name with the island's props", () =>
  withEnv(async (env) => {
    for (let i = 0; i < 12; i++) {
      await makePart(env.tenant.db, { name: `Valve ${String(i).padStart(2, "0")}`, manufacturer: "SPM" });
    }
    await makePart(env.tenant.db, { name: "Adapter 2in", description: "1502 x 602", manufacturer: "FMC" });
    const rival = await makeCompany(env.tenant.db, { company_type: "inspection_company" });
    await makePart(env.tenant.db, { name: "Rival Adapter", inspection_company_id: rival.id });
    const res = await env.request("/pt/parts", cookie(await env.login()));
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.match(html, /<h1>Parts<\/h1>/);
    assert.match(html, /New Part/);
    for (const h of ["Part Name", "Part Desc.", "Manufacturer"]) assert.match(html, new RegExp(`>${h}<`));
    assert.ok(html.indexOf("Adapter 2in") < html.indexOf("Valve 00"));
    assert.match(html, /1502 x 602/);
    assert.match(html, /Valve 08/);
    assert.doesNotMatch(html, /Valve 09/);
    assert.doesNotMatch(html, /Rival Adapter/);
    assert.match(html, /1-10 of 13/);
    assert.match(html, /aria-sort="ascending"/);
    assert.match(html, /data-island="ui\/pt\/parts\/islands\/PartsTable.tsx"/);
    assert.match(html, /href="\/pt\/parts\?page=2&amp;rowsPerPage=10&amp;sortBy=name&amp;descending=false"/);
    // The drawer offers the page to an inspection company's staff.
    assert.match(html, /href="\/pt\/parts"/);
  }));

Deno.test("parts page - the URL's search, size and sort apply; bad values fall back to defaults", () =>
  withEnv(async (env) => {
    const token = await env.login();
    await makePart(env.tenant.db, { name: "Needle Valve", manufacturer: "Zeta" });
    await makePart(env.tenant.db, { name: "Haystack Tee", manufacturer: "Alpha" });
    let html = await (await env.request("/pt/parts?search_name=needle&rowsPerPage=25", cookie(token))).text();
    assert.match(html, /Needle Valve/);
    assert.doesNotMatch(html, /Haystack Tee/);
    assert.match(html, /1-1 of 1/);

    html = await (await env.request("/pt/parts?sortBy=manufacturer&descending=true", cookie(token))).text();
    assert.ok(html.indexOf("Needle Valve") < html.indexOf("Haystack Tee"));

    const res = await env.request("/pt/parts?page=abc&rowsPerPage=7&sortBy=nope", cookie(token));
    assert.equal(res.status, 200);
    html = await res.text();
    assert.match(html, /1-2 of 2/);
  }));

Deno.test("parts page - with no parts it shows 'No Parts Found'", () =>
  withEnv(async (env) => {
    const res = await env.request("/pt/parts", cookie(await env.login()));
    assert.equal(res.status, 200);
    assert.match(await res.text(), /No Parts Found/);
  }));

Deno.test("parts page - a customer company's user is sent to the welcome page and has no Parts menu", () =>
  withEnv(async (env) => {
    const customer = await makeCompany(env.tenant.db, { name: "Customer Co" });
    const { token } = await env.userWithToken({ company_id: customer.id, permissions: ["part-admin"] });
    const res = await env.request("/pt/parts", cookie(token));
    assert.equal(res.status, 302);
    assert.match(res.headers.get("location")!, /^\/(\?refused=|$)/);
    const welcome = await (await env.request("/", cookie(token))).text();
    assert.doesNotMatch(welcome, /href="\/pt\/parts"/);
  }));
