import assert from "node:assert/strict";
import { withEnv } from "../../../scripts/testing/harness.ts";
import { makeCompany, makeUser } from "../../../db/factories.ts";

const cookie = (token: string) => ({ cookie: `session=${token}` });

Deno.test("users page - greets the user and renders the first 25 users sorted by name", () =>
  withEnv(async (env) => {
    const company = await makeCompany(env.tenant.db, { name: "Roughneck Supply" });
    for (let i = 0; i < 30; i++) {
      await makeUser(env.tenant.db, { company_id: company.id, name: `Worker ${String(i).padStart(2, "0")}` });
    }
    const res = await env.request("/admin/accounts", cookie(await env.login()));
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.match(html, /Welcome, <!-- -->Administrator/);
    assert.match(html, /Manage users here\./);
    assert.match(html, /Add User/);
    assert.match(html, /Search for user/);
    for (const h of ["Name", "Email", "Phone", "Company", "Account Type"]) {
      assert.match(html, new RegExp(`<a class="sort-link"[^>]*>${h}<`));
    }
    assert.match(html, /Roughneck Supply/);
    assert.match(html, /Worker 00/);
    assert.match(html, /Worker 23/);
    assert.doesNotMatch(html, /Worker 24/); // Administrator sorts first: 25 rows end at Worker 23
    assert.match(html, /1-25 of 31/);
  }));

Deno.test("users page - search and size come from the URL; bad values fall back to defaults", () =>
  withEnv(async (env) => {
    const token = await env.login();
    await makeUser(env.tenant.db, { company_id: 1, name: "Findable Person" });
    let html = await (await env.request("/admin/accounts?search_name=findable&rowsPerPage=50", cookie(token)))
      .text();
    assert.match(html, /Findable Person/);
    assert.doesNotMatch(html, /Administrator<\/td>/);
    assert.match(html, /1-1 of 1/);
    const res = await env.request(
      "/admin/accounts?page=-3&rowsPerPage=7&sortBy=password&descending=x",
      cookie(token),
    );
    assert.equal(res.status, 200);
    html = await res.text();
    assert.match(html, /Findable Person/);
    assert.match(html, /1-2 of 2/);
  }));

Deno.test("users page - a user without user-admin sees only their company and no edit rights", () =>
  withEnv(async (env) => {
    const other = await makeCompany(env.tenant.db, { name: "Elsewhere Inc" });
    await makeUser(env.tenant.db, { company_id: other.id, name: "Elsewhere Person" });
    const { token } = await env.userWithToken({ name: "Plain Colleague", permissions: [] });
    const res = await env.request("/admin/accounts", cookie(token));
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.match(html, /Plain Colleague/);
    assert.doesNotMatch(html, /Elsewhere Person/);
    assert.match(html, /&quot;can&quot;:\{&quot;edit&quot;:false,&quot;delete&quot;:false/);
  }));

Deno.test("users page - Add User is offered only to those the server lets add users", () =>
  withEnv(async (env) => {
    const general = await env.userWithToken({ permissions: [] });
    let html = await (await env.request("/admin/accounts", cookie(general.token))).text();
    assert.doesNotMatch(html, /Add User/);
    const admin = await env.userWithToken({ permissions: ["user-admin"] });
    html = await (await env.request("/admin/accounts", cookie(admin.token))).text();
    assert.match(html, /Add User/);
  }));
