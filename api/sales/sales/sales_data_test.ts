import assert from "node:assert/strict";
import ExcelJS from "exceljs";
import { withEnv } from "../../../scripts/testing/harness.ts";
import { makeCompany, makeLine, makeTicket } from "../../../db/factories.ts";
import { makeItemOf, makeRow, tokenWith } from "../inventory/test_fixtures.ts";

const PATH = "/api/sales/sales";

Deno.test("sales data - filters, sorting, row shape and download", () =>
  withEnv(async (env) => {
    const token = await tokenWith(env, []);
    const db = env.tenant.db;
    const acme = await makeCompany(db, { company_type: "customer_company", name: "Acme Drilling" });
    const zeta = await makeCompany(db, { company_type: "customer_company", name: "Zeta Oil" });
    const valve = await makeItemOf(env, "Serialized", { item_number: "PV2", item_description: "Plug valve" });
    const swivel = await makeItemOf(env, "Itemized", { item_number: "SW3", item_description: "Swivel" });
    const pv = await makeRow(env, { item_id: valve.id, serial_number: "PV-001", quantity: 1 });
    const sw = await makeRow(env, { item_id: swivel.id, serial_number: "SW-A", quantity: 10 });
    const inv = await makeTicket(db, {
      customer_id: acme.id,
      status: "APP",
      isInvoice: true,
      invoice_number: "INV-00001",
      invoice_date: "2024-04-10",
      use_min_rate_logic: false,
    });
    const open = await makeTicket(db, { customer_id: zeta.id, use_min_rate_logic: false });
    const quote = await makeTicket(db, { customer_id: zeta.id, status: "QUOTE", isQuote: true });
    await makeLine(db, {
      ticket_id: inv.id,
      inventory_id: pv.id,
      start_date: "2024-04-01T08:00:00Z",
      price: 100,
      quantity: 1,
    });
    await makeLine(db, {
      ticket_id: open.id,
      inventory_id: sw.id,
      start_date: "2024-05-01T08:00:00Z",
      price: 10,
      quantity: 3,
    });
    await makeLine(db, { ticket_id: quote.id, inventory_id: sw.id, start_date: null, price: 5 });
    const serials = (b: { results: { sales_inventory: { serial_number: string } }[] }) =>
      b.results.map((r) => r.sales_inventory.serial_number);
    const all = await env.json(`${PATH}?sortBy=start_date`, { token });
    assert.equal(all.total, 3);
    const invoiced = await env.json(`${PATH}?isInvoice=true&hideQuotes=true`, { token });
    assert.deepEqual(serials(invoiced), ["PV-001"]);
    const r = invoiced.results[0];
    assert.deepEqual(r.ticket, {
      id: inv.id,
      ticket_number: inv.ticket_number,
      invoice_number: "INV-00001",
      invoice_date: "2024-04-10",
      status: "APP",
      isQuote: false,
      isInvoice: true,
      use_min_rate_logic: false,
    });
    assert.equal(r.customer.name, "Acme Drilling");
    assert.equal(r.calculated_total, 100);
    assert.equal(r.handled, false);
    assert.equal(r.calculated_inventory_status, "Item not fully checked in or sold");
    assert.equal((await env.json(`${PATH}?hideQuotes=true`, { token })).total, 2);
    assert.deepEqual(
      serials(await env.json(`${PATH}?search_customer_name=zeta&hideQuotes=true`, { token })),
      ["SW-A"],
    );
    assert.deepEqual(serials(await env.json(`${PATH}?item_number=pv2`, { token })), ["PV-001"]);
    assert.deepEqual(serials(await env.json(`${PATH}?serial_number=SW-&hideQuotes=true`, { token })), [
      "SW-A",
    ]);
    assert.deepEqual(serials(await env.json(`${PATH}?search_item_description=plug`, { token })), ["PV-001"]);
    assert.deepEqual(serials(await env.json(`${PATH}?invoice_number=00001`, { token })), ["PV-001"]);
    assert.deepEqual(serials(await env.json(`${PATH}?ticket_number=${open.ticket_number}`, { token })), [
      "SW-A",
    ]);
    assert.deepEqual(
      serials(await env.json(`${PATH}?start_date_begin=2024-04-01&start_date_end=2024-04-01`, { token })),
      ["PV-001"],
      "the end day is included",
    );
    assert.equal((await env.json(`${PATH}?invoice_date_begin=2024-04-11`, { token })).total, 0);
    assert.equal((await env.json(`${PATH}?invoice_date_end=2024-04-10`, { token })).total, 1);
    const sorted = await env.json(
      `${PATH}?hideQuotes=true&sortBy=start_date&descending=true&rowsPerPage=10`,
      {
        token,
      },
    );
    assert.deepEqual(serials(sorted), ["SW-A", "PV-001"]);
    await env.json(`${PATH}?rowsPerPage=25`, { token, status: 422 });
    const page = await env.json(`${PATH}?hideQuotes=true&sortBy=ticket_number&rowsPerPage=10&page=2`, {
      token,
    });
    assert.deepEqual(page.results, []);
    assert.equal(page.total, 2);

    const res = await env.request(`${PATH}/download?hideQuotes=true&sortBy=start_date`, { token });
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-disposition")!, /filename="Sales-\d{4}-\d{2}-\d{2}\.xlsx"/);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(await res.arrayBuffer());
    const ws = wb.worksheets[0];
    assert.equal(ws.getRow(1).getCell(2).value, "Ticket #");
    assert.equal(ws.rowCount, 3);
    assert.equal(ws.getRow(2).getCell(9).value, "PV-001");
    assert.equal(ws.getRow(3).getCell(21).value, 30);
  }));
