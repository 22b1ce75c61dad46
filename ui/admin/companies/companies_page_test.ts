import assert from "node:assert/strict";
import { withEnv } from "../../../scripts/testing/harness.ts";
import { makeCompany } from "../../../db/factories.ts";
import { companies } from "../../../db/schema/mod.ts";
import { FIRST_ROWS_OF_ALL } from "../../lib/list_page.tsx";

const cookie = (token: string) => ({ cookie: `session=${token}` });

Deno.test("companies page - renders the first page sorted by name with the island's props", () =>
  withEnv(async (env) => {
    for (let i = 0; i < 12; i++) {
      await makeCompany(env.tenant.db, { name: `Zeta ${String(i).padStart(2, "0")}` });
    }
    await makeCompany(env.tenant.db, { name: "Alpha Drilling" });
    const res = await env.request("/admin/companies", cookie(await env.login()));
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.match(html, /<h1>Companies<\/h1>/);
    assert.match(html, /New Company/);
    assert.match(html, />Company</);
    // Ascending by name, 10 rows by default: Alpha first, Zeta 11 on the next page.
    assert.ok(html.indexOf("Alpha Drilling") < html.indexOf("Zeta 00"));
    assert.match(html, /Zeta 07/);
    assert.doesNotMatch(html, /Zeta 11/);
    assert.match(html, /1-10 of 14/);
    assert.match(html, /aria-sort="ascending"/);
    // The header's sort link asks for the other direction; it works before the island hydrates.
    assert.match(
      html,
      /class="sort-link" href="\/admin\/companies\?page=1&amp;rowsPerPage=10&amp;sortBy=name&amp;descending=true"/,
    );
    assert.match(
      html,
      /href="\/admin\/companies\?page=2&amp;rowsPerPage=10&amp;sortBy=name&amp;descending=false"/,
    );
  }));

Deno.test("companies page - the URL's search, size and page apply; bad values fall back to defaults", () =>
  withEnv(async (env) => {
    const token = await env.login();
    await makeCompany(env.tenant.db, { name: "Needle Co" });
    await makeCompany(env.tenant.db, { name: "Haystack Ltd" });
    let html = await (await env.request("/admin/companies?search_name=needle&rowsPerPage=25", cookie(token)))
      .text();
    assert.match(html, /Needle Co/);
    assert.doesNotMatch(html, /Haystack Ltd/);
    assert.match(html, /1-1 of 1/);

    const res = await env.request(
      "/admin/companies?page=abc&rowsPerPage=7&sortBy=nope&descending=maybe",
      cookie(token),
    );
    assert.equal(res.status, 200);
    html = await res.text();
    assert.match(html, /Haystack Ltd/);
    assert.match(html, /1-3 of 3/);
  }));

Deno.test("companies page - the search form carries the table's size, order and filters, not its page", () =>
  withEnv(async (env) => {
    await makeCompany(env.tenant.db, { name: "Wildcat Drilling", company_type: "operator_company" });
    await makeCompany(env.tenant.db, { name: "Wildcat Customer", company_type: "customer_company" });
    const res = await env.request(
      "/admin/companies?page=1&rowsPerPage=25&sortBy=created_at&descending=true&type=operator_company",
      cookie(await env.login()),
    );
    const html = await res.text();
    assert.match(html, /Wildcat Drilling/);
    assert.doesNotMatch(html, /Wildcat Customer/);
    // Enter in the search box before (or without) JavaScript submits this form: it keeps the rest.
    const form = html.match(/<form role="search"[^]*?<\/form>/)?.[0] ?? "";
    const hidden = [...form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((
      m,
    ) => [m[1], m[2]]);
    assert.deepEqual(hidden, [
      ["rowsPerPage", "25"],
      ["sortBy", "created_at"],
      ["descending", "true"],
      ["type", "operator_company"],
    ]);
  }));

Deno.test("companies page - an empty search shows 'No Companys Found'", () =>
  withEnv(async (env) => {
    const res = await env.request(
      "/admin/companies?search_name=nothing-like-this",
      cookie(await env.login()),
    );
    assert.equal(res.status, 200);
    assert.match(await res.text(), /No Companys Found/);
  }));

Deno.test("companies page - a user of a customer company is sent to /signin (the spec's guard)", () =>
  withEnv(async (env) => {
    const customer = await makeCompany(env.tenant.db, { name: "Customer Co" });
    const { token } = await env.userWithToken({ company_id: customer.id, permissions: ["user-admin"] });
    const res = await env.request("/admin/companies", cookie(token));
    assert.equal(res.status, 302);
    assert.match(res.headers.get("location")!, /^\/signin(\?next=|$)/);
  }));

Deno.test("companies page - All renders its first rows only; page -1 is page 1", () =>
  withEnv(async (env) => {
    const token = await env.login();
    await env.tenant.db.insert(companies).values(
      Array.from({ length: FIRST_ROWS_OF_ALL + 30 }, (_, i) => ({
        name: `Bulk ${String(i).padStart(3, "0")}`,
        company_type: "customer_company" as const,
      })),
    );
    const all = await (await env.request("/admin/companies?rowsPerPage=-1", cookie(token))).text();
    const body = all.slice(all.indexOf("<tbody"), all.indexOf("</tbody>"));
    assert.equal(body.match(/<tr[ >]/g)?.length, FIRST_ROWS_OF_ALL);
    assert.doesNotMatch(all, /Bulk 229/);
    assert.match(all, /<option value="-1" selected="">All<\/option>/);
    // the island is told it has only the first rows of All, so it fetches the rest
    assert.match(all, /&quot;firstRows&quot;:200|"firstRows":200/);

    const pageMinusOne = await (await env.request("/admin/companies?page=-1", cookie(token))).text();
    assert.match(pageMinusOne, /1-10 of/);
  }));

Deno.test("companies page - New Company only for those the server lets create one; Download for every viewer", () =>
  withEnv(async (env) => {
    const general = await env.userWithToken({ permissions: [] });
    let html = await (await env.request("/admin/companies", cookie(general.token))).text();
    assert.equal(html.includes("<h1>Companies</h1>"), true);
    assert.doesNotMatch(html, /New Company/);
    assert.match(html, />Download</);
    const admin = await env.userWithToken({ permissions: ["user-admin"] });
    html = await (await env.request("/admin/companies", cookie(admin.token))).text();
    assert.match(html, /New Company/);
  }));
