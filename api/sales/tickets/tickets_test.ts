import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { withEnv } from "../../../scripts/testing/harness.ts";
import { makeCategory, makeCompany, makeLine, makeTicket, makeUser } from "../../../db/factories.ts";
import {
  companies,
  inventory,
  inventory_audit,
  rejections,
  sales,
  templates,
  tickets,
} from "../../../db/schema/mod.ts";
import { call, parties, stockOf } from "./test_fixtures.ts";

const PATH = "/api/sales/tickets";
const today = () => new Date().toISOString().slice(0, 10);

Deno.test("tickets - a sales user creates a ticket: min-rate logic on, today's date, numbered T-00001", () =>
  withEnv(async (env) => {
    const { customer, rep, token } = await parties(env);
    const t = await call(env, token, "POST", PATH, {
      customer_id: String(customer.id),
      sales_rep_id: rep.id,
    });
    assert.deepEqual(
      [
        t.ticket_number,
        t.status,
        t.isQuote,
        t.use_min_rate_logic,
        t.ticket_date,
        t.customer.name,
        t.sales_rep.name,
      ],
      ["T-00001", "OPEN", false, true, today(), "Permian Energy", "Rita Rep"],
    );
    const q = await call(env, token, "POST", PATH, {
      customer_id: customer.id,
      sales_rep_id: rep.id,
      status: "QUOTE",
    });
    assert.deepEqual([q.ticket_number, q.status, q.isQuote], ["Q-00001", "QUOTE", true]);
    const again = await call(env, token, "POST", PATH, { customer_id: customer.id, sales_rep_id: rep.id });
    assert.equal(again.ticket_number, "T-00002");
  }));

Deno.test("tickets - the form's messages: Customer is required, Sales Rep is required", () =>
  withEnv(async (env) => {
    const { customer, rep, token } = await parties(env);
    const a = await call(env, token, "POST", PATH, { sales_rep_id: rep.id }, 422);
    assert.deepEqual(a.errors, [{ path: "customer_id", message: "Customer is required" }]);
    const b = await call(env, token, "POST", PATH, { customer_id: customer.id, sales_rep_id: "" }, 422);
    assert.deepEqual(b.errors, [{ path: "sales_rep_id", message: "Sales Rep is required" }]);
    // The owner company is not a customer; an inactive user is not a rep.
    await call(env, token, "POST", PATH, { customer_id: 1, sales_rep_id: rep.id }, 422);
    const gone = await makeUser(env.tenant.db, { company_id: 1, active: false });
    await call(env, token, "POST", PATH, { customer_id: customer.id, sales_rep_id: gone.id }, 422);
    await call(
      env,
      token,
      "POST",
      PATH,
      { customer_id: customer.id, sales_rep_id: rep.id, status: "RFB" },
      422,
    );
  }));

Deno.test("tickets - customer-company users are refused", () =>
  withEnv(async (env) => {
    const { customer, rep } = await parties(env);
    const { token } = await env.userWithToken({ company_id: customer.id, permissions: ["sales-admin"] });
    await call(env, token, "POST", PATH, { customer_id: customer.id, sales_rep_id: rep.id }, 403);
    await call(env, token, "GET", PATH, undefined, 403);
  }));

Deno.test("tickets - prefixes and padding come from company settings; 30 parallel creates are all distinct", () =>
  withEnv(async (env) => {
    await env.tenant.db.update(companies).set({
      settings: { Sales: { TicketPrefix: "RT", QuotePrefix: "QQ", zeroPad: 3 } },
    })
      .where(eq(companies.id, 1));
    const { customer, rep, token } = await parties(env);
    const body = { customer_id: customer.id, sales_rep_id: rep.id };
    const made = await Promise.all(Array.from({ length: 30 }, () => call(env, token, "POST", PATH, body)));
    const numbers = made.map((t) => t.ticket_number).sort();
    assert.equal(new Set(numbers).size, 30);
    assert.deepEqual([numbers[0], numbers[29]], ["RT001", "RT030"]);
    assert.equal((await call(env, token, "POST", PATH, { ...body, isQuote: true })).ticket_number, "QQ001");
    // A deleted ticket's number is not handed out again.
    const admin = await env.login();
    await call(env, admin, "DELETE", `${PATH}/${made[0].id}`);
    assert.equal((await call(env, token, "POST", PATH, body)).ticket_number, "RT031");
    await env.tenant.db.update(companies).set({ settings: { invoicePrefix: "I/", ticketPrefix: "X-" } })
      .where(eq(companies.id, 1));
    assert.equal((await call(env, token, "POST", PATH, body)).ticket_number, "X-00032");
  }));

Deno.test("tickets - a template fills the lines in order and holds stock; short stock refuses the whole ticket", () =>
  withEnv(async (env) => {
    const { customer, rep, token } = await parties(env);
    const unit = await makeCategory(env.tenant.db);
    const tee = await stockOf(env, "Itemized", 5, 80);
    const mileage = await stockOf(env, "Charge Code", 0, 3.5);
    const valve = await stockOf(env, "Serialized", 1, 400);
    const [tpl] = await env.tenant.db.insert(templates).values({
      company_id: 1,
      name: "Rig-up",
      business_unit_id: unit.id,
      inventory_ids: [valve.id, mileage.id, tee.id],
    }).returning();
    const body = { customer_id: customer.id, sales_rep_id: rep.id, template_id: tpl.id };
    const t = await call(env, token, "POST", PATH, body);
    const lines = await env.tenant.db.select().from(sales).where(eq(sales.ticket_id, t.id)).orderBy(
      sales.order,
    );
    assert.deepEqual(
      lines.map((
        l,
      ) => [l.inventory_id, l.order, l.quantity, l.duration, l.discount, l.price, l.quantity_held]),
      [
        [valve.id, 1, 1, 0, 0, 400, 1],
        [mileage.id, 2, 1, 0, 0, 3.5, 0],
        [tee.id, 3, 1, 0, 0, 80, 1],
      ],
    );
    const out = async (id: number) =>
      (await env.tenant.db.select().from(inventory).where(eq(inventory.id, id)).get())!.quantity_out;
    assert.deepEqual([await out(valve.id), await out(tee.id), await out(mileage.id)], [1, 1, 0]);
    const audits = await env.tenant.db.select().from(inventory_audit).where(
      eq(inventory_audit.inventory_id, tee.id),
    );
    assert.equal(audits.at(-1)?.ticket_number, t.ticket_number);

    // The serialized valve is out: a second ticket from the template is refused and holds nothing.
    const refused = await call(env, token, "POST", PATH, body, 409);
    assert.match(refused.detail, /^ERROR: Line item quantity exceeds available inventory:/);
    // The five figures travel beside the message (the same refusal as a line save).
    assert.equal(refused.figures.available, 0);
    assert.equal(refused.figures.line_quantity, 1);
    assert.equal(await out(tee.id), 1);
    assert.equal((await env.tenant.db.select().from(tickets)).length, 1);
    // A quote holds nothing.
    await call(env, token, "POST", PATH, { ...body, status: "QUOTE" });
    assert.equal(await out(valve.id), 1);

    // Deleting (sales-admin) gives the stock back.
    await call(env, token, "DELETE", `${PATH}/${t.id}`, undefined, 403);
    await call(env, await env.login(), "DELETE", `${PATH}/${t.id}`);
    assert.deepEqual([await out(valve.id), await out(tee.id)], [0, 0]);
  }));

Deno.test("tickets - detail answers totals to the cent, hidden lines included, and lines_complete", () =>
  withEnv(async (env) => {
    const { customer, rep, token } = await parties(env);
    const t = await makeTicket(env.tenant.db, {
      customer_id: customer.id,
      sales_rep_id: rep.id,
      use_min_rate_logic: false,
    });
    await makeLine(env.tenant.db, {
      ticket_id: t.id,
      quantity: 2,
      price: 100,
      duration: 3,
      markup: 10,
      discount: 5,
      state_tax: 6.25,
      county_tax: 1,
      city_tax: 2,
    });
    await makeLine(env.tenant.db, {
      ticket_id: t.id,
      quantity: 1.5,
      price: 33.33,
      duration: 1,
      custom: { hide: true },
    });
    const got = await call(env, token, "GET", `${PATH}/${t.id}`);
    assert.deepEqual(got.totals, {
      subtotal: 650, // 600 + 50 (1.5 x 33.33 = 49.995, rounded on its line)
      markup: 60,
      discount: 33,
      state_tax: 39.19, // 39.1875 on its line
      county_tax: 6.27,
      city_tax: 12.54,
      // 685 + 50: the lines' totals, and 650 + 60 - 33 + 39.19 + 6.27 + 12.54 too. Summing the exact
      // amounts and rounding once said 734.99, a cent off its own printed parts (decision 015).
      grandtotal: 735,
    });
    assert.equal(got.lines_complete, false);
    assert.equal(got.customer.id, customer.id);
    await call(env, token, "GET", `${PATH}/999999`, undefined, 404);
  }));

Deno.test("tickets - list filters: flow, invoiced, paid, signed, numbers, customer, rep; disputed marker", () =>
  withEnv(async (env) => {
    const { customer, rep, token } = await parties(env);
    const db = env.tenant.db;
    const other = await makeCompany(db, { name: "Delaware Water" });
    const mk = (over: Parameters<typeof makeTicket>[1]) =>
      makeTicket(db, { customer_id: customer.id, sales_rep_id: rep.id, ...over });
    const open = await mk({ ticket_number: "T-1001" });
    const rfb = await mk({ ticket_number: "T-1002", status: "RFB" });
    const rfa = await mk({ ticket_number: "T-1003", status: "RFA", isSigned: true });
    const app = await mk({
      ticket_number: "T-1004",
      status: "APP",
      isInvoice: true,
      invoice_number: "INV-77",
      isPaid: true,
    });
    const quote = await mk({
      ticket_number: "Q-1",
      status: "QUOTE",
      isQuote: true,
      customer_id: other.id,
      sales_rep_id: null,
    });
    await db.insert(rejections).values({ ticket_id: rfb.id, company_id: 1, comment: "x", resolved: false });
    await db.insert(rejections).values({ ticket_id: rfa.id, company_id: 1, comment: "x", resolved: false });
    await db.insert(rejections).values({ ticket_id: rfa.id, company_id: 1, comment: "ok", resolved: true });
    const ids = async (qs: string) =>
      (await call(env, token, "GET", `${PATH}?${qs}`)).results.map((r: { id: number }) => r.id);
    assert.deepEqual(await ids(""), [quote.id, rfa.id, rfb.id, open.id]);
    assert.deepEqual(await ids("showInvoiced=true"), [quote.id, app.id, rfa.id, rfb.id, open.id]);
    assert.deepEqual(await ids("ticketFlowFilter=APP"), [app.id]);
    assert.deepEqual(await ids("ticketFlowFilter=RFB"), [rfb.id]);
    assert.deepEqual(await ids("isQuote=true"), [quote.id]);
    assert.deepEqual(await ids("showInvoiced=true&hidePaid=true&isQuote=false"), [rfa.id, rfb.id, open.id]);
    assert.deepEqual(await ids("hideSigned=true&isQuote=false"), [rfb.id, open.id]);
    assert.deepEqual(await ids("search_ticket_number=1002"), [rfb.id]);
    assert.deepEqual(await ids("showInvoiced=true&search_invoice_number=inv-7"), [app.id]);
    assert.deepEqual(await ids("search_customer=delaware"), [quote.id]);
    assert.deepEqual(await ids("search_sales_rep=rita&sortBy=ticket_number&descending=false"), [
      open.id,
      rfb.id,
      rfa.id,
    ]);
    assert.deepEqual(await ids("rowsPerPage=10&page=2"), []);
    await call(env, token, "GET", `${PATH}?rowsPerPage=7`, undefined, 422);
    const list = await call(env, token, "GET", PATH);
    const byId = new Map(list.results.map((r: { id: number }) => [r.id, r]));
    // deno-lint-ignore no-explicit-any
    const row = (id: number) => byId.get(id) as any;
    assert.deepEqual([row(rfb.id).disputed, row(rfa.id).disputed, row(open.id).disputed], [
      true,
      false,
      false,
    ]);
    // the ticket itself says the same (the detail screen's flag)
    for (const t of [rfb, rfa, open]) {
      assert.equal((await call(env, token, "GET", `${PATH}/${t.id}`)).disputed, row(t.id).disputed);
    }
    assert.deepEqual(row(open.id).customer, { id: customer.id, name: "Permian Energy" });
    assert.deepEqual(row(open.id).sales_rep, { id: rep.id, name: "Rita Rep" });
    assert.equal(row(quote.id).sales_rep, null);
    assert.equal(row(open.id).totals.grandtotal, 0);
    assert.equal(list.total, 4);
  }));
