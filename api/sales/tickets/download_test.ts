import assert from "node:assert/strict";
import ExcelJS from "exceljs";
import { withEnv } from "../../../scripts/testing/harness.ts";
import { makeCompany, makeLine, makeTicket } from "../../../db/factories.ts";
import { rejections } from "../../../db/schema/mod.ts";

async function sheet(res: Response): Promise<unknown[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(await res.arrayBuffer() as never);
  const rows: unknown[][] = [];
  wb.worksheets[0].eachRow((r) => rows.push((r.values as unknown[]).slice(1)));
  return rows;
}

Deno.test("tickets download - each stage list as <List>-YYYY-MM-DD.xlsx: every matching row, dates and money as cells", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const customer = await makeCompany(env.tenant.db, { name: "Permian Energy" });
    const open = await makeTicket(env.tenant.db, {
      customer_id: customer.id,
      ticket_number: "T-00077",
      ticket_date: "2026-03-07",
      status: "RFB",
      location: "Pad 4",
      use_min_rate_logic: false,
    });
    await makeLine(env.tenant.db, { ticket_id: open.id, quantity: 2, price: 10.5 });
    await env.tenant.db.insert(rejections).values({
      ticket_id: open.id,
      company_id: 1,
      created_by_id: 1,
      comment: "Wrong rate",
      resolved: false,
    });
    for (let i = 0; i < 12; i++) await makeTicket(env.tenant.db, { customer_id: customer.id, status: "RFB" });
    await makeTicket(env.tenant.db, { customer_id: customer.id, status: "OPEN", ticket_number: "T-OPEN" });

    // The Ready For Billing list, one page of 10 on screen: the file has all 13 of its rows.
    const res = await env.request("/api/sales/tickets/download?ticketFlowFilter=RFB&rowsPerPage=10&page=2", {
      token,
    });
    assert.equal(res.status, 200);
    const today = new Date().toISOString().slice(0, 10);
    assert.equal(
      res.headers.get("content-disposition"),
      `attachment; filename="Ready-For-Billing-${today}.xlsx"`,
    );
    const rows = await sheet(res);
    assert.deepEqual(rows[0].slice(0, 8), [
      "Ticket #",
      "Inv #",
      "Ticket Date",
      "Invoice Date",
      "Customer",
      "Sales Rep",
      "Status",
      "Disputed",
    ]);
    assert.equal(rows.length, 14, "every row of the list, not one page");
    assert.ok(!rows.some((r) => r[0] === "T-OPEN"), "only the list's stage");
    const row = rows.find((r) => r[0] === "T-00077")!;
    const at = (h: string) => row[rows[0].indexOf(h)];
    assert.ok(at("Ticket Date") instanceof Date, "a date cell");
    assert.equal((at("Ticket Date") as Date).toISOString().slice(0, 10), "2026-03-07");
    assert.deepEqual([at("Customer"), at("Status"), at("Disputed"), at("Location")], [
      "Permian Energy",
      "Ready To Bill",
      "Yes",
      "Pad 4",
    ]);
    assert.equal(at("Grand Total"), 21, "money as a number");

    // Quotes are named for their list; a search narrows the file as it narrows the list.
    const quotes = await env.request("/api/sales/tickets/download?ticketFlowFilter=QUOTE", { token });
    assert.match(quotes.headers.get("content-disposition") ?? "", /filename="Quotes-/);
    const one = await sheet(
      await env.request("/api/sales/tickets/download?ticketFlowFilter=RFB&search_ticket_number=00077", {
        token,
      }),
    );
    assert.deepEqual(one.slice(1).map((r) => r[0]), ["T-00077"]);

    // Outside the owner company the list is refused, and so is its download.
    const outsider = await env.userWithToken({
      company_id: (await makeCompany(env.tenant.db, { name: "Outsider" })).id,
    });
    await env.json("/api/sales/tickets/download", { token: outsider.token, status: 403 });
  }));
