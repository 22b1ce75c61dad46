import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { withEnv } from "../../../../scripts/testing/harness.ts";
import { makeCompany, makeInventory, makeItem, makeLine, makeTicket } from "../../../../db/factories.ts";
import { companies } from "../../../../db/schema/mod.ts";

const cookie = (token: string) => ({ cookie: `session=${token}` });

Deno.test("ticket detail - header, lines in order, totals, and the island on each list's path", () =>
  withEnv(async (env) => {
    const customer = await makeCompany(env.tenant.db, { name: "Permian Energy" });
    const t = await makeTicket(env.tenant.db, {
      customer_id: customer.id,
      ticket_number: "T-00077",
      status: "RFB",
      ticket_date: "2026-03-07",
      use_min_rate_logic: false,
      notes: "Gate code 4411",
    });
    const item = await makeItem(env.tenant.db, { item_description: "Frac Valve 4in" });
    const a = await makeInventory(env.tenant.db, { serial_number: "FV-001", item_id: item.id });
    const b = await makeInventory(env.tenant.db, { serial_number: "FV-002", item_id: item.id });
    await makeLine(env.tenant.db, {
      ticket_id: t.id,
      inventory_id: a.id,
      order: 2,
      quantity: 2,
      price: 10.005,
    });
    await makeLine(env.tenant.db, {
      ticket_id: t.id,
      inventory_id: b.id,
      order: 1,
      quantity: 1,
      price: 99.5,
      start_date: "2026-03-01T08:00:00Z",
      end_date: "2026-03-03T17:30:00Z",
    });
    const token = await env.login();
    const res = await env.request(`/sales/ready-for-billing/${t.id}`, cookie(token));
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.match(html, /<h1>Ready For Billing: T-00077<\/h1>/);
    assert.match(html, /Permian Energy/);
    assert.match(html, /Ready To Bill/);
    // The header's dates read one way, with the four-digit year; the line table, a list, the spec's
    // MM-DD-YY HH:mm (decision 044).
    assert.match(html, /<dt>Ticket Date<\/dt><dd>03-07-2026<\/dd>/);
    // FV-001 started today and has not ended: the range is open (decision 044's service dates).
    assert.match(html, /<dt>Service Dates<\/dt><dd>From 03-01-2026 08:00<\/dd>/);
    assert.match(html, />03-01-26 08:00<\/time>/);
    assert.match(html, /Gate code 4411/);
    assert.match(html, /data-island="ui\/sales\/tickets\/detail\/islands\/TicketDetail.tsx"/);
    // lines by their order: FV-002 (order 1) before FV-001
    assert.ok(html.indexOf(">FV-002<") < html.indexOf(">FV-001<"));
    // 2 * 10.005 = 20.01 exactly, + 99.50 = 119.51 subtotal and grand total (no taxes)
    assert.match(html, />\$20\.01</);
    assert.match(html, /Grand Total<\/dt><dd>\$119\.51</);
    for (
      const h of ["Order", "Serial #", "Item #", "Item", "Quantity", "Price", "Total", "Status", "Actions"]
    ) {
      assert.match(html, new RegExp(`<th[^>]*>${h.replace("#", "\\#")}</th>`), h);
    }
    // the same ticket under another list's path is the same screen with that list's title
    const other = await (await env.request(`/sales/tickets/${t.id}`, cookie(token))).text();
    assert.match(other, /<h1>Tickets: T-00077<\/h1>/);
  }));

Deno.test("ticket detail - company settings choose the columns; min-rate names; the id never shows", () =>
  withEnv(async (env) => {
    await env.tenant.db.update(companies).set({
      settings: {
        Sales: {
          TicketPage: {
            columns: ["serial_number", "total"],
            minRateColumns: ["id", "serial_number", "minimum_rate", "duration", "price", "total"],
          },
        },
      },
    }).where(eq(companies.id, 1));
    const t = await makeTicket(env.tenant.db, { use_min_rate_logic: true });
    await makeLine(env.tenant.db, { ticket_id: t.id, minimum_rate: 250, price: 40, duration: 2 });
    const html = await (await env.request(`/sales/tickets/${t.id}`, cookie(await env.login()))).text();
    // The line's identity cell heads each row too; a wide screen shows it only in check-in mode (decision 048).
    const cells = [...html.matchAll(/<th([^>]*)>([^<]*)<\/th>/g)];
    assert.deepEqual(cells.filter((m) => m[1].includes("line-ident")).map((m) => m[2]), ["Line"]);
    const heads = cells.filter((m) => !m[1].includes("line-ident")).map((m) => m[2]).filter((h) => h);
    assert.deepEqual(heads, [
      "Order",
      "Serial #",
      "Min Rate",
      "Addl. Days",
      "Addl. Day Rate",
      "Total",
      "Actions",
    ]);
    // 1 * 250 + 1 * 40 * 2 = 330
    assert.match(html, />\$330\.00</);
  }));

Deno.test("ticket detail - an unknown ticket is not found; other companies' users go to the welcome page", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const res = await env.request("/sales/tickets/99999", cookie(token));
    assert.equal(res.status, 404);
    const customer = await makeCompany(env.tenant.db, { name: "Customer Co" });
    const t = await makeTicket(env.tenant.db, { customer_id: customer.id });
    const { token: outsider } = await env.userWithToken({
      company_id: customer.id,
      permissions: ["sales-admin"],
    });
    const r = await env.request(`/sales/tickets/${t.id}`, cookie(outsider));
    assert.equal(r.status, 302);
    assert.match(r.headers.get("location")!, /^\/(\?refused=|$)/);
  }));
