import assert from "node:assert/strict";
import { withEnv } from "../../scripts/testing/harness.ts";
import { makeCompany, makeInspection } from "../../db/factories.ts";
import { SERIAL, serialWithHistory } from "../../api/serials/test_fixtures.ts";

const cookie = (token: string) => ({ cookie: `session=${token}` });

Deno.test("serial page - the units, then the timeline with its links and paging, rendered on the server", () =>
  withEnv(async (env) => {
    const h = await serialWithHistory(env);
    const res = await env.request(`/serials/${SERIAL}?rowsPerPage=10`, cookie(h.token));
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.match(html, /<h1>Serial PV-100<\/h1>/);
    assert.match(html, /aria-label="Inventory rows"/);
    assert.match(html, /<td class="col-more">Odessa<\/td>/);
    // On a phone the unit is a line under the Location column (the column itself is hidden).
    assert.match(html, /<span class="cell-more">Business Unit: <!-- -->Odessa<\/span>/);
    // newest first: the second inspection, the transfer, the reclass, the check-in, the ticket, the first
    const kinds = [
      ...html.matchAll(
        /<tr><td class="cell-date"><time[^>]*>.*?<\/time><\/td><td class="col-more">([^<]*)<\/td>/g,
      ),
    ]
      .map((m) => m[1]);
    assert.deepEqual(kinds, [
      "Inspection",
      "Location Transfer",
      "Reclass Out",
      "Check In",
      "Ticket",
      "Inspection",
    ]);
    assert.match(html, new RegExp(`href="/sales/tickets/${h.ticketId}">T-900</a>`));
    assert.match(html, new RegExp(`href="/api/pt/inspections/${h.inspections[0]}/report">Report</a>`));
    assert.match(html, /href="\/api\/files\/\d+">PT PDF<\/a>/);
    assert.match(html, /1-6 of 6/);
    assert.match(html, /data-island="ui\/serials\/islands\/SerialDownload.tsx"/);

    const second = await (await env.request(`/serials/${SERIAL}?page=2&rowsPerPage=10`, cookie(h.token)))
      .text();
    assert.match(second, /past the last event/);
    const paged = await (await env.request(`/serials/${SERIAL}?page=1&rowsPerPage=-5`, cookie(h.token)))
      .text();
    assert.match(paged, /1-6 of 6/, "a size the page does not offer is its default");
  }));

Deno.test("serial page - no history is a 404 saying so; a customer sees their inspections only", () =>
  withEnv(async (env) => {
    const admin = await env.login();
    const none = await env.request("/serials/NOTHING-9", cookie(admin));
    assert.equal(none.status, 404);
    assert.match(await none.text(), /No history for serial NOTHING-9/);
    const long = await env.request(`/serials/${"x".repeat(201)}`, cookie(admin));
    assert.equal(long.status, 404);
    assert.match(await long.text(), /Serial number must be at most 200 characters/);

    const customer = await makeCompany(env.tenant.db, { company_type: "customer_company" });
    await makeInspection(env.tenant.db, { serial_number: "CU-1" });
    const { token } = await env.userWithToken({ company_id: customer.id });
    const theirs = await env.request("/serials/CU-1", cookie(token));
    assert.equal(theirs.status, 404, "another customer's inspection is not theirs");
    const found = await env.request("/serials/CU-1", cookie(admin));
    assert.equal(found.status, 200);
    assert.doesNotMatch(await found.text(), /Inventory rows/, "no stock rows: no units table");
  }));

Deno.test("serial page - the search box's GET /serials?serial=X opens X; /serials alone asks for one", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const res = await env.request("/serials?serial=%20A%2FB%2012%20", cookie(token));
    assert.deepEqual([res.status, res.headers.get("location")], [302, "/serials/A%2FB%2012"]);
    const page = await env.request("/serials", cookie(token));
    assert.equal(page.status, 200);
    assert.match(await page.text(), /Enter a serial number/);
  }));
