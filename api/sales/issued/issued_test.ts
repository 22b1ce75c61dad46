import assert from "node:assert/strict";
import ExcelJS from "exceljs";
import { eq } from "drizzle-orm";
import { withEnv } from "../../../scripts/testing/harness.ts";
import { makeInventory, makeItem, makeLine, makeTicket } from "../../../db/factories.ts";
import { companies, items, sales } from "../../../db/schema/mod.ts";
import { call, parties } from "../tickets/test_fixtures.ts";
import { pdfText } from "../../../scripts/testing/pdf_text.ts";

type Env = Parameters<Parameters<typeof withEnv>[0]>[0];
const PATH = "/api/sales/tickets";

/** A ticket awaiting approval with two lines (one a price of three decimals), and an approver. */
async function awaitingApproval(env: Env) {
  const { customer, rep } = await parties(env);
  const db = env.tenant.db;
  const item = await makeItem(db, {
    item_number: "HOSE-HOU",
    item_description: "2in hose, Houston",
    isExpendable: true,
  });
  const row = await makeInventory(db, { item_id: item.id, quantity: 100, serial_number: "H-1" });
  const t = await makeTicket(db, {
    customer_id: customer.id,
    sales_rep_id: rep.id,
    status: "RFA",
    use_min_rate_logic: false,
  });
  const a = await makeLine(db, {
    ticket_id: t.id,
    inventory_id: row.id,
    quantity: 87,
    price: 0.655,
    state_tax: 8.25,
    county_tax: 1.005,
  });
  const b = await makeLine(db, {
    ticket_id: t.id,
    inventory_id: row.id,
    quantity: 3,
    price: 33.335,
    discount: 7,
  });
  const { token } = await env.userWithToken({
    name: "Ada Approver",
    permissions: ["approval-authority", "sales-admin"],
  });
  return { t, a, b, item, customer, token };
}

const pdf = async (env: Env, token: string, query: string) => {
  const res = await env.request(`/api/sales/ticketpdf?${query}`, { token });
  assert.equal(res.status, 200, await res.clone().text());
  return new Uint8Array(await res.arrayBuffer());
};

const salesRows = async (env: Env, token: string, ticketNumber: string) => {
  const res = await env.request(
    `/api/sales/sales/download?ticket_number=${ticketNumber}&sortBy=start_date`,
    { token },
  );
  assert.equal(res.status, 200);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(await res.arrayBuffer());
  const ws = wb.worksheets[0];
  const header = Array.from(ws.getRow(1).values as unknown[], String);
  const rows: Record<string, unknown>[] = [];
  ws.eachRow((r, n) => {
    if (n === 1) return;
    const v = Array.from(r.values as unknown[]);
    rows.push(Object.fromEntries(header.map((h, i) => [h, v[i]] as const)));
  });
  return rows;
};

Deno.test("issued invoices - renames, new settings and price changes never change an issued invoice", () =>
  withEnv(async (env) => {
    const { t, a, item, customer, token } = await awaitingApproval(env);
    // Everything that shows the invoice: its screen, PDF, list row, lines, Sales Data and its xlsx.
    const views = async () => ({
      ticket: await call(env, token, "GET", `${PATH}/${t.id}`),
      pdf: await pdf(env, token, `ticket_id=${t.id}&type=invoice`),
      list: (await call(env, token, "GET", `${PATH}?showInvoiced=true`)).results.find((r: any) =>
        r.id === t.id
      ),
      lines: (await call(env, token, "GET", `/api/sales/sales/ticket?ticket_id=${t.id}`)).results,
      data: (await call(env, token, "GET", `/api/sales/sales?ticket_number=${t.ticket_number}`)).results,
      xlsx: await salesRows(env, token, t.ticket_number),
    });
    const approved = await call(env, token, "PUT", PATH, { id: t.id, status: "APP" });
    assert.equal(approved.message, "Invoice created");
    assert.equal(approved.issued.revision, 0);
    const before = await views();
    assert.equal(before.ticket.customer.name, "Permian Energy");
    assert.match(pdfText(before.pdf), /Permian Energy/);
    assert.match(pdfText(before.pdf), /2in hose, Houston/);

    // What the office does afterwards: the customer and the item renamed, the seller's address and terms set,
    // the line's price changed underneath (as a bad import or a direct edit would).
    const db = env.tenant.db;
    await db.update(companies).set({ name: "Permian Energy Holdings LLC" }).where(
      eq(companies.id, customer.id),
    );
    await db.update(items).set({ item_description: "Hose (renamed)", item_number: "HOSE-NEW" })
      .where(eq(items.id, item.id));
    const [owner] = await db.select().from(companies).where(eq(companies.id, 1));
    await db.update(companies).set({
      name: "Renamed Seller",
      settings: { ...owner.settings, sellerAddress: "1 New Street", paymentTermsDays: 45 },
    }).where(eq(companies.id, 1));
    await db.update(sales).set({ price: 1.5 }).where(eq(sales.id, a.id));

    const after = await views();
    assert.deepEqual(after.pdf, before.pdf, "the reprint is the very PDF issued");
    assert.equal(after.ticket.customer.name, "Permian Energy");
    assert.deepEqual(after.ticket.totals, before.ticket.totals);
    assert.equal(after.list.customer.name, "Permian Energy");
    assert.deepEqual(after.list.totals, before.list.totals);
    const pick = (l: any) => [
      l.price,
      l.calculated_tax,
      l.calculated_total,
      l.sales_inventory.item.item_number,
      l.sales_inventory.item.item_description,
    ];
    assert.deepEqual(after.lines.map(pick), before.lines.map(pick));
    assert.deepEqual(after.data.map(pick), before.data.map(pick));
    assert.equal(after.data[0].customer.name, "Permian Energy");
    assert.deepEqual(after.xlsx, before.xlsx);
    assert.equal(after.xlsx[0]["Item"], "2in hose, Houston");

    // A draft follows today's data: a new ticket for the same customer shows the new name.
    const draft = await makeTicket(db, { customer_id: customer.id });
    assert.equal(
      (await call(env, token, "GET", `${PATH}/${draft.id}`)).customer.name,
      "Permian Energy Holdings LLC",
    );
  }));

Deno.test("issued invoices - re-opening cancels the revision; approving again issues Rev. 1; the original stays", () =>
  withEnv(async (env) => {
    const { t, b, token } = await awaitingApproval(env);
    await call(env, token, "PUT", PATH, { id: t.id, status: "APP" });
    const original = await pdf(env, token, `ticket_id=${t.id}&type=invoice`);
    const first = await call(env, token, "GET", `${PATH}/${t.id}`);

    const reopened = await call(env, token, "PUT", PATH, { id: t.id, status: "OPEN" });
    assert.equal(reopened.issued, null);
    assert.equal(reopened.revisions.length, 1);
    assert.equal(reopened.revisions[0].cancelled_by, "Ada Approver");
    assert.ok(reopened.revisions[0].cancelled_at);
    const draftPdf = pdfText(await pdf(env, token, `ticket_id=${t.id}&type=invoice`));
    assert.match(draftPdf, /Rev\. 1, draft: not issued/);
    // The draft changes: a line's quantity.
    await call(env, token, "PUT", "/api/sales/sales", { ...b, quantity: 5 });
    for (const status of ["RFB", "RFA", "APP"]) await call(env, token, "PUT", PATH, { id: t.id, status });
    const revised = await call(env, token, "GET", `${PATH}/${t.id}`);
    assert.equal(revised.invoice_number, first.invoice_number, "the number is kept");
    assert.equal(revised.issued.revision, 1);
    assert.deepEqual(revised.revisions.map((r: any) => [r.revision, r.cancelled_at === null]), [[0, false], [
      1,
      true,
    ]]);
    assert.notEqual(revised.totals.grandtotal, first.totals.grandtotal);
    assert.equal(
      revised.revisions[0].grandtotal,
      first.totals.grandtotal,
      "the original's figures stay listed",
    );

    const rev1 = pdfText(await pdf(env, token, `ticket_id=${t.id}&type=invoice`));
    assert.match(rev1, /Revision/);
    assert.match(rev1, /Rev\. 1/);
    assert.deepEqual(await pdf(env, token, `ticket_id=${t.id}&type=invoice&revision=0`), original);
    assert.doesNotMatch(pdfText(original), /Rev\. 1/);
    const listed = (await call(env, token, "GET", `${PATH}?showInvoiced=true`)).results.find((r: any) =>
      r.id === t.id
    );
    assert.equal(listed.invoice_revision, 1);

    const missing = await env.request(`/api/sales/ticketpdf?ticket_id=${t.id}&type=invoice&revision=7`, {
      token,
    });
    assert.equal(missing.status, 404);
    // Issued once, kept: the ticket cannot be deleted, even re-opened.
    await call(env, token, "PUT", PATH, { id: t.id, status: "OPEN" });
    const { token: admin } = await env.userWithToken({ permissions: ["sales-admin", "approval-authority"] });
    await call(env, admin, "DELETE", `${PATH}/${t.id}`, undefined, 409);
  }));
