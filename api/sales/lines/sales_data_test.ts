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

Deno.test("sales data - id filter: the last ticket of an inventory row", () =>
  withEnv(async (env) => {
    const token = await tokenWith(env, []);
    const db = env.tenant.db;
    const acme = await makeCompany(db, { company_type: "customer_company", name: "Acme Drilling" });
    const swivel = await makeItemOf(env, "Itemized", { item_number: "SW3", item_description: "Swivel" });
    const a = await makeRow(env, { item_id: swivel.id, serial_number: "SW-A", quantity: 10 });
    const b = await makeRow(env, { item_id: swivel.id, serial_number: "SW-B", quantity: 10 });
    const older = await makeTicket(db, { customer_id: acme.id, ticket_number: "T-OLD" });
    const latest = await makeTicket(db, { customer_id: acme.id, ticket_number: "T-LATEST" });
    const middle = await makeTicket(db, { customer_id: acme.id, ticket_number: "T-MID" });
    const other = await makeTicket(db, { customer_id: acme.id, ticket_number: "T-OTHER-ROW" });
    // Created out of date order, so neither id nor insertion order gives the answer.
    await makeLine(db, { ticket_id: latest.id, inventory_id: a.id, start_date: "2024-06-01T08:00:00Z" });
    await makeLine(db, { ticket_id: older.id, inventory_id: a.id, start_date: "2024-01-01T08:00:00Z" });
    await makeLine(db, { ticket_id: middle.id, inventory_id: a.id, start_date: "2024-03-01T08:00:00Z" });
    await makeLine(db, { ticket_id: other.id, inventory_id: b.id, start_date: "2024-12-01T08:00:00Z" });

    const lookup = (id: number) =>
      env.json(
        `${PATH}?id=${id}&isInvoice=false&page=1&rowsPerPage=1&sortBy=start_date&descending=true`,
        { token },
      );
    const last = await lookup(a.id);
    assert.equal(last.total, 3, "every line of row A counts, none of row B");
    assert.equal(last.results.length, 1);
    assert.equal(last.results[0].ticket.ticket_number, "T-LATEST");
    assert.equal(last.results[0].sales_inventory.id, a.id);
    assert.equal((await lookup(b.id)).results[0].ticket.ticket_number, "T-OTHER-ROW");
    const none = await makeRow(env, { item_id: swivel.id, serial_number: "SW-C", quantity: 1 });
    assert.deepEqual(await lookup(none.id), { results: [], total: 0 });
    const all = await env.json(`${PATH}?id=${a.id}&sortBy=start_date`, { token });
    assert.deepEqual(all.results.map((r: { ticket: { ticket_number: string } }) => r.ticket.ticket_number), [
      "T-OLD",
      "T-MID",
      "T-LATEST",
    ]);
    assert.equal((await env.json(`${PATH}?id=`, { token })).total, 4, "a blank id is no filter");
    const bad = await env.json(`${PATH}?id=abc`, { token, status: 422 });
    assert.match(JSON.stringify(bad), /Must be an inventory id/);
    await env.json(`${PATH}?id=0`, { token, status: 422 });
  }));
