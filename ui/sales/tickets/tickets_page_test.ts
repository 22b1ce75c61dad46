import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { withEnv } from "../../../scripts/testing/harness.ts";
import { makeCompany, makeInventory, makeLine, makeTicket } from "../../../db/factories.ts";
import { companies, rejections } from "../../../db/schema/mod.ts";

const cookie = (token: string) => ({ cookie: `session=${token}` });

Deno.test("ticket lists - each list shows only its status, with its title and columns", () =>
  withEnv(async (env) => {
    const customer = await makeCompany(env.tenant.db, { name: "Permian Energy" });
    const ids: Record<string, number> = {};
    for (const status of ["OPEN", "QUOTE", "RFB", "RFA", "APP"] as const) {
      ids[status] = (await makeTicket(env.tenant.db, {
        customer_id: customer.id,
        ticket_number: `NUM-${status}`,
        invoice_number: status === "APP" ? "INV-00042" : null,
        invoice_date: status === "APP" ? "2025-04-01" : null,
        isPaid: status === "APP",
        status,
        isQuote: status === "QUOTE",
        ticket_date: "2025-03-07",
      })).id;
    }
    const token = await env.login();
    const lists = [
      ["/sales/tickets", "Tickets", "OPEN", "Ticket #"],
      ["/sales/quotes", "Quotes", "QUOTE", "Quote #"],
      ["/sales/ready-for-billing", "Ready For Billing", "RFB", "Ticket #"],
      ["/sales/approval", "Approval", "RFA", "Ticket #"],
      ["/sales/invoices", "Invoices", "APP", "Ticket #"],
    ] as const;
    for (const [path, title, status, numberHeader] of lists) {
      const res = await env.request(path, cookie(token));
      assert.equal(res.status, 200, path);
      const html = await res.text();
      assert.match(html, new RegExp(`<h1>${title}</h1>`), path);
      assert.match(html, new RegExp(`NUM-${status}<`), path);
      // The number is a plain link to the ticket's screen under this list (works without JavaScript).
      assert.match(
        html,
        new RegExp(`<a class="nowrap" href="${path}/${ids[status]}">NUM-${status}</a>`),
        path,
      );
      for (const other of lists.filter((l) => l[2] !== status)) {
        assert.doesNotMatch(html, new RegExp(`NUM-${other[2]}<`), `${path} shows ${other[2]}`);
      }
      const date = status === "APP" ? "Invoice Date" : "Date";
      for (const h of [numberHeader, date, "Customer", "Sales Rep", "Status", "Total"]) {
        assert.match(html, new RegExp(`>${h}<`), `${path}: ${h}`);
      }
      assert.match(html, status === "APP" ? />04-01-25</ : />03-07-25</, `${path}: its date`);
      assert.match(html, /Permian Energy/);
      assert.equal(/>Inv #</.test(html), status === "APP", `${path}: Inv #`);
      assert.equal(/>Invoice State</.test(html), status === "APP", `${path}: Invoice State`);
      // Every list searches by invoice number (a re-opened invoice keeps its number).
      assert.match(html, />Invoice Number</, `${path}: search`);
      assert.equal(/>Ticket Flow</.test(html), status === "OPEN", `${path}: Ticket Flow`);
      assert.equal(/>Show Invoiced</.test(html), status === "OPEN", `${path}: Show Invoiced`);
      assert.equal(/>New Ticket</.test(html), status === "OPEN");
      assert.equal(/>New Quote</.test(html), status === "QUOTE");
      assert.match(html, /data-island="ui\/sales\/tickets\/islands\/TicketsTable.tsx"/);
    }
    const invoices = await (await env.request("/sales/invoices", cookie(token))).text();
    assert.match(invoices, /INV-00042/);
    assert.match(invoices, />Paid</, "the invoice's paid state");
    // The drawer's first five Sales entries are the five lists, in order.
    const menu = invoices.slice(invoices.indexOf('class="drawer'));
    const hrefs = [...menu.matchAll(/href="(\/sales\/[^"]*)"/g)].map((m) => m[1]).slice(0, 5);
    assert.deepEqual(hrefs, lists.map((l) => l[0]));
  }));

Deno.test("ticket lists - totals, the disputed marker, searches and checkboxes from the URL", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const { user: rep } = await env.userWithToken({ name: "Rita Rep", isSalesRep: true });
    const acme = await makeCompany(env.tenant.db, { name: "Acme Drilling" });
    const basin = await makeCompany(env.tenant.db, { name: "Basin Flow" });
    const disputed = await makeTicket(env.tenant.db, {
      customer_id: acme.id,
      sales_rep_id: rep.id,
      ticket_number: "T-00001",
      status: "RFB",
      use_min_rate_logic: false,
    });
    const inv = await makeInventory(env.tenant.db, { quantity: 10 });
    await makeLine(env.tenant.db, {
      ticket_id: disputed.id,
      inventory_id: inv.id,
      quantity: 2,
      price: 100.25,
      duration: 1,
      use_min_rate_logic: false,
    });
    await env.tenant.db.insert(rejections).values({
      company_id: 1,
      ticket_id: disputed.id,
      created_by_id: rep.id,
      comment: "Wrong rate",
      resolved: false,
    });
    await makeTicket(env.tenant.db, {
      customer_id: basin.id,
      ticket_number: "T-00002",
      status: "RFB",
      isPaid: true,
    });

    let html = await (await env.request("/sales/ready-for-billing", cookie(token))).text();
    assert.match(html, /aria-label="Disputed: latest rejection unresolved"/);
    assert.equal(html.match(/Disputed: latest rejection unresolved/g)?.length, 2, "label and tooltip, once");
    assert.match(html, /\$200\.50/);
    assert.match(html, /Rita Rep/);
    assert.match(html, /Ready To Bill/);
    // Owner-company staff get the Customer and Sales Rep searches.
    assert.match(html, />Customer</);
    assert.match(html, /name="search_customer"/);
    assert.match(html, /name="search_sales_rep"/);
    assert.match(html, /1-2 of 2/);

    html = await (await env.request("/sales/ready-for-billing?search_customer=basin", cookie(token))).text();
    assert.match(html, /T-00002/);
    assert.doesNotMatch(html, /T-00001/);
    html = await (await env.request("/sales/ready-for-billing?hidePaid=true", cookie(token))).text();
    assert.match(html, /T-00001/);
    assert.doesNotMatch(html, /T-00002/);
    html = await (await env.request("/sales/ready-for-billing?search_sales_rep=rita", cookie(token))).text();
    assert.match(html, /T-00001/);
    assert.doesNotMatch(html, /T-00002/);
    // A stage list's status is the path's: a URL's ticketFlowFilter does not change it.
    html = await (await env.request("/sales/approval?ticketFlowFilter=RFB&rowsPerPage=7", cookie(token)))
      .text();
    assert.doesNotMatch(html, /T-0000/);
    assert.match(html, /No Data Found/);
    // The Tickets list's Ticket Flow filter picks any stage, or all of them.
    html = await (await env.request("/sales/tickets?ticketFlowFilter=RFB", cookie(token))).text();
    assert.match(html, /T-00001/);
    assert.match(html, /T-00002/);
    html = await (await env.request("/sales/tickets", cookie(token))).text();
    assert.doesNotMatch(html, /T-0000/, "the Tickets list is Open by default");
  }));

Deno.test("ticket lists - Ticket Flow, Show Invoiced and the invoice number search through the API", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const customer = await makeCompany(env.tenant.db, { name: "Permian Energy" });
    for (const status of ["OPEN", "QUOTE", "RFB", "RFA", "APP"] as const) {
      await makeTicket(env.tenant.db, {
        customer_id: customer.id,
        ticket_number: `NUM-${status}`,
        invoice_number: status === "APP" ? "INV-00042" : status === "OPEN" ? "INV-00007" : null,
        status,
        isQuote: status === "QUOTE",
      });
    }
    const numbers = async (qs: string) =>
      ((await env.json(`/api/sales/tickets?rowsPerPage=50&${qs}`, { token })).results as {
        ticket_number: string;
      }[]).map((t) => t.ticket_number).sort();
    assert.deepEqual(await numbers("ticketFlowFilter=ALL"), ["NUM-OPEN", "NUM-QUOTE", "NUM-RFA", "NUM-RFB"]);
    assert.deepEqual(await numbers(""), ["NUM-OPEN", "NUM-QUOTE", "NUM-RFA", "NUM-RFB"]);
    assert.deepEqual(await numbers("ticketFlowFilter=ALL&showInvoiced=true"), [
      "NUM-APP",
      "NUM-OPEN",
      "NUM-QUOTE",
      "NUM-RFA",
      "NUM-RFB",
    ]);
    assert.deepEqual(await numbers("ticketFlowFilter=RFA&showInvoiced=true"), ["NUM-APP", "NUM-RFA"]);
    assert.deepEqual(await numbers("ticketFlowFilter=RFA"), ["NUM-RFA"]);
    // A re-opened invoice keeps its number: the Tickets list finds it by it.
    assert.deepEqual(await numbers("ticketFlowFilter=OPEN&search_invoice_number=00007"), ["NUM-OPEN"]);
    const html = await (await env.request("/sales/tickets?search_invoice_number=00007", cookie(token)))
      .text();
    assert.match(html, /NUM-OPEN/);
    const bad = await env.json("/api/sales/tickets?ticketFlowFilter=PAID", { token, status: 422 });
    assert.match(bad.detail, /ticketFlowFilter/);
  }));

Deno.test("ticket lists - an empty list says 'No Data Found'; non-owner users go to the welcome page", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const res = await env.request("/sales/quotes", cookie(token));
    assert.equal(res.status, 200);
    assert.match(await res.text(), /No Data Found/);

    const customer = await makeCompany(env.tenant.db, { name: "Customer Co" });
    const { token: outsider } = await env.userWithToken({
      company_id: customer.id,
      permissions: ["sales-admin"],
    });
    for (const path of ["/sales/tickets", "/sales/invoices"]) {
      const r = await env.request(path, cookie(outsider));
      assert.equal(r.status, 302);
      assert.match(r.headers.get("location")!, /^\/(\?refused=|$)/);
    }
  }));

Deno.test("ticket lists - the invoices list shows the company logo", () =>
  withEnv(async (env) => {
    await env.tenant.db.update(companies).set({
      settings: { logoSVG: '<svg xmlns="http://www.w3.org/2000/svg"/>' },
    }).where(eq(companies.id, 1));
    const html = await (await env.request("/sales/invoices", cookie(await env.login()))).text();
    const head = html.slice(html.indexOf('class="page-head"'));
    assert.match(head.slice(0, head.indexOf("</h1>")), /class="company-logo"/);
  }));
