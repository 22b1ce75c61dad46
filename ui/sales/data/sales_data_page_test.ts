import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { companies } from "../../../db/schema/mod.ts";
import { type TestEnv, withEnv } from "../../../scripts/testing/harness.ts";
import {
  makeCategory,
  makeCompany,
  makeInventory,
  makeItem,
  makeLine,
  makeTicket,
  makeUser,
} from "../../../db/factories.ts";

const cookie = (token: string) => ({ cookie: `session=${token}` });

const HEADERS = [
  "Status",
  "Ticket #",
  "Inv #",
  "Inv Date",
  "Start",
  "End",
  "Duration/Addl. Days",
  "Customer",
  "Serial #",
  "Item #",
  "Item",
  "Business Unit",
  "Product Line",
  "Sub Product Line",
  "Sales Rep",
  "Quantity",
  "Min Rate",
  "Price/Addl. Day Rate",
  "Discount",
  "Tax",
  "Total",
];

const FILTERS = [
  "Serial Number",
  "Inv. Desc.",
  "Item Number",
  "Item",
  "Ticket Number",
  "Invoice Number",
  "Invoiced From",
  "Invoiced To",
  "From",
  "To",
  "Customer",
  "Sales Rep",
];

/**
 * 12 invoiced lines (SN-00 .. SN-11, one a day in May 2024) on one invoice of 'Permian Drilling',
 * plus an open (not invoiced) line OPEN-1 and a quote line QUOTE-1.
 */
async function sales(env: TestEnv) {
  const db = env.tenant.db;
  const customer = await makeCompany(db, { name: "Permian Drilling" });
  const rep = await makeUser(db, { company_id: 1, name: "Rita Rep" });
  const unit = await makeCategory(db, { name: "Midland" });
  const item = await makeItem(db, { item_number: "SW3", item_description: "3in swivel" });
  const invoice = await makeTicket(db, {
    customer_id: customer.id,
    sales_rep_id: rep.id,
    business_unit_id: unit.id,
    ticket_number: "T-100",
    invoice_number: "INV-100",
    invoice_date: "2024-06-03",
    status: "APP",
    isInvoice: true,
  });
  for (let i = 0; i < 12; i++) {
    const inv = await makeInventory(db, {
      item_id: item.id,
      business_unit_id: unit.id,
      serial_number: `SN-${String(i).padStart(2, "0")}`,
    });
    await makeLine(db, {
      ticket_id: invoice.id,
      inventory_id: inv.id,
      start_date: `2024-05-${String(i + 1).padStart(2, "0")}T08:00:00Z`,
      end_date: `2024-05-${String(i + 2).padStart(2, "0")}T08:00:00Z`,
      quantity: 2,
      price: 1250.5,
      duration: 1,
      minimum_rate: 10,
      discount: 0,
    });
  }
  const open = await makeTicket(db, { customer_id: customer.id, ticket_number: "T-200" });
  await makeLine(db, {
    ticket_id: open.id,
    inventory_id: (await makeInventory(db, { serial_number: "OPEN-1" })).id,
  });
  const quote = await makeTicket(db, {
    customer_id: customer.id,
    ticket_number: "Q-300",
    status: "QUOTE",
    isQuote: true,
  });
  await makeLine(db, {
    ticket_id: quote.id,
    inventory_id: (await makeInventory(db, { serial_number: "QUOTE-1" })).id,
  });
}

Deno.test("sales data page - renders the newest 10 invoiced lines with every column, filter and the menu entry", () =>
  withEnv(async (env) => {
    await sales(env);
    const res = await env.request("/sales/data", cookie(await env.login()));
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.match(html, /<h1>Sales Data<\/h1>/);
    assert.match(html, /data-island="ui\/sales\/data\/islands\/SalesDataTable.tsx"/);
    for (const h of HEADERS) assert.match(html, new RegExp(`>${h.replace(/[.#/]/g, "\\$&")}<`), h);
    for (const f of FILTERS) {
      assert.match(html, new RegExp(`<label[^>]*>${f.replace(".", "\\.")}</label>`), f);
    }
    assert.match(html, />Invoiced Only</);
    assert.match(html, />Download</);
    assert.ok(html.indexOf("SN-11") < html.indexOf("SN-10"), "newest start first");
    assert.doesNotMatch(html, /SN-01</, "10 rows a page");
    assert.match(html, /1-10 of 12/);
    assert.doesNotMatch(html, /OPEN-1|QUOTE-1/, "invoiced only, no quotes, by default");
    assert.match(html, />\$1,250\.50</);
    assert.match(html, />\$2,521\.00</, "total: min-rate logic, 2 x 10 + 2 x 1,250.50 x 1");
    assert.match(html, />\$10\.00</);
    assert.match(html, />05-12-24</);
    assert.match(html, />06-03-24</);
    assert.match(html, />INV-100</);
    assert.match(html, /Permian Drilling/);
    assert.match(html, />Rita Rep</);
    assert.match(html, />Midland</);
    assert.match(html, /role="img" aria-label="Item not fully checked in or sold"/);
    // The drawer lists Sales Data right after Inventory Audit.
    const menu = html.slice(html.indexOf('class="drawer'));
    const at = (href: string) => menu.indexOf(`href="${href}"`);
    assert.ok(at("/sales/inventory-audit") > 0);
    assert.ok(at("/sales/inventory-audit") < at("/sales/data"));
    assert.ok(at("/sales/data") < at("/sales/taxes"));
  }));

Deno.test("sales data page - a serial_number from the URL is applied on the server; isInvoice=false shows open lines", () =>
  withEnv(async (env) => {
    await sales(env);
    const token = await env.login();
    const html = await (await env.request("/sales/data?serial_number=SN-05", cookie(token))).text();
    assert.match(html, /SN-05</);
    assert.doesNotMatch(html, /SN-0[0-46-9]<|SN-1\d</);
    assert.match(html, /1-1 of 1/);
    assert.match(html, /name="serial_number"[^>]*value="SN-05"|value="SN-05"[^>]*name="serial_number"/);

    const all = await (await env.request("/sales/data?isInvoice=false&rowsPerPage=50", cookie(token))).text();
    assert.match(all, /OPEN-1</);
    assert.doesNotMatch(all, /QUOTE-1/, "quotes stay out");
    assert.match(all, /1-13 of 13/);
  }));

Deno.test("sales data page - 'No Sales Found' when nothing matches", () =>
  withEnv(async (env) => {
    await sales(env);
    const res = await env.request("/sales/data?ticket_number=NOPE", cookie(await env.login()));
    const html = await res.text();
    assert.match(html, /No Sales Found/);
  }));

Deno.test("sales data page - a customer company's user is sent to the welcome page", () =>
  withEnv(async (env) => {
    const customer = await makeCompany(env.tenant.db, { name: "Customer Co" });
    const { token } = await env.userWithToken({ company_id: customer.id, permissions: ["sales-admin"] });
    const res = await env.request("/sales/data", cookie(token));
    assert.equal(res.status, 302);
    assert.match(res.headers.get("location")!, /^\/(\?refused=|$)/);
  }));

Deno.test("sales data page - rows expand to Delete for sales-admin only", () =>
  withEnv(async (env) => {
    await sales(env);
    const admin = await (await env.request("/sales/data", cookie(await env.login()))).text();
    assert.match(admin, /aria-label="Expand row"/);

    const { token } = await env.userWithToken({ account_type: "General", permissions: [] });
    const res = await env.request("/sales/data", cookie(token));
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.match(html, /SN-11/);
    assert.doesNotMatch(html, /Expand row|>Delete</);
  }));

Deno.test("sales data page - Start and End are the days on the company's clock, as the From/To filters count them", () =>
  withEnv(async (env) => {
    const db = env.tenant.db;
    await db.update(companies).set({ settings: { timeZone: "America/Chicago" } }).where(eq(companies.id, 1));
    const ticket = await makeTicket(db, { ticket_number: "T-TZ" });
    // 20:00 on March 3rd and 08:00 on March 5th in Chicago (UTC-6): the 4th and the 5th in UTC.
    await makeLine(db, {
      ticket_id: ticket.id,
      inventory_id: (await makeInventory(db, { serial_number: "EVE-1" })).id,
      start_date: "2026-03-04T02:00:00Z",
      end_date: "2026-03-05T14:00:00Z",
    });
    const token = await env.login();
    const page = (q: string) =>
      env.request(`/sales/data?isInvoice=false&${q}`, cookie(token)).then((r) => r.text());
    const html = await page("start_date_begin=2026-03-03&start_date_end=2026-03-03");
    assert.match(html, /EVE-1</, "the 3rd's filter finds it");
    assert.match(html, />03-03-26<\/time>/, "and its Start says the 3rd");
    assert.match(html, />03-05-26<\/time>/);
    assert.doesNotMatch(html, /03-04-26</);
    assert.doesNotMatch(await page("start_date_begin=2026-03-04&start_date_end=2026-03-04"), /EVE-1</);
  }));
