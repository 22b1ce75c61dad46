import assert from "node:assert/strict";
import { withEnv } from "../../../scripts/testing/harness.ts";
import { makeCategory, makeCompany, makeItem } from "../../../db/factories.ts";

const cookie = (token: string) => ({ cookie: `session=${token}` });

Deno.test("items page - renders the first 20 items by item number with the island's props", () =>
  withEnv(async (env) => {
    for (let i = 0; i < 21; i++) {
      await makeItem(env.tenant.db, {
        item_number: `N-${String(i).padStart(2, "0")}`,
        item_description: "Hose",
      });
    }
    const cat = await makeCategory(env.tenant.db, { model: "Item Category", name: "Flow Iron" });
    await makeItem(env.tenant.db, {
      item_number: "A-1",
      item_description: "3in swivel",
      rate: 1250.5,
      isTaxable: true,
      category_id: cat.id,
    });
    const res = await env.request("/sales/items", cookie(await env.login()));
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.match(html, /<h1>Items<\/h1>/);
    for (
      const h of [
        "Item Number",
        "Item",
        "Rate",
        "Units",
        "Inventory Type",
        "Item Type",
        "Taxable",
        "Expendable",
        "Service",
        "Category",
      ]
    ) assert.match(html, new RegExp(`>${h}<`));
    assert.ok(html.indexOf("A-1") < html.indexOf("N-00"));
    assert.match(html, /\$1,250\.50/);
    assert.match(html, /Flow Iron/);
    assert.match(html, /N-18/);
    assert.doesNotMatch(html, /N-19/);
    assert.match(html, /1-20 of 22/);
    assert.match(html, /aria-sort="ascending"/);
    assert.match(html, /data-island="ui\/sales\/items\/islands\/ItemsTable.tsx"/);
    assert.match(
      html,
      /href="\/sales\/items\?page=2&amp;rowsPerPage=20&amp;sortBy=item_number&amp;descending=false"/,
    );
    assert.match(html, />New</);
    assert.match(html, />Batch Upload</);
    // The Sales drawer lists Items first.
    const menu = html.slice(html.indexOf('class="drawer'));
    assert.match(menu, /href="\/sales\/items"/);
    assert.ok(menu.indexOf('href="/sales/items"') < menu.indexOf('href="/admin/companies"'));
  }));

Deno.test("items page - the URL's searches, size and sort apply; bad values fall back to defaults", () =>
  withEnv(async (env) => {
    const token = await env.login();
    await makeItem(env.tenant.db, { item_number: "NEEDLE-1", item_description: "Needle valve", rate: 5 });
    await makeItem(env.tenant.db, { item_number: "HAY-1", item_description: "Haystack tee", rate: 50 });
    let html =
      await (await env.request("/sales/items?search_item_description=needle&rowsPerPage=40", cookie(token)))
        .text();
    assert.match(html, /Needle valve/);
    assert.doesNotMatch(html, /Haystack tee/);
    html = await (await env.request("/sales/items?search_item_number=hay", cookie(token))).text();
    assert.match(html, /Haystack tee/);
    assert.doesNotMatch(html, /Needle valve/);
    html = await (await env.request("/sales/items?sortBy=rate&descending=true", cookie(token))).text();
    assert.ok(html.indexOf("Haystack tee") < html.indexOf("Needle valve"));
    const res = await env.request("/sales/items?page=abc&rowsPerPage=7&sortBy=nope", cookie(token));
    assert.equal(res.status, 200);
    assert.match(await res.text(), /1-2 of 2/);
  }));

Deno.test("items page - with no items it shows 'No Items Found'; a General user has no New or Batch Upload", () =>
  withEnv(async (env) => {
    const { token } = await env.userWithToken({ permissions: ["inspector"] });
    const res = await env.request("/sales/items", cookie(token));
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.match(html, /No Items Found/);
    assert.doesNotMatch(html, />Batch Upload</);
    assert.doesNotMatch(html, />New</);
    assert.match(html, />Download</);
  }));

Deno.test("items page - a customer company's user is sent to the welcome page", () =>
  withEnv(async (env) => {
    const customer = await makeCompany(env.tenant.db, { name: "Customer Co" });
    const { token } = await env.userWithToken({ company_id: customer.id, permissions: ["sales-admin"] });
    const res = await env.request("/sales/items", cookie(token));
    assert.equal(res.status, 302);
    assert.match(res.headers.get("location")!, /^\/(\?refused=|$)/);
  }));
