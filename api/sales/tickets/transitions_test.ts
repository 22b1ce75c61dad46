import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { type TestEnv, withEnv } from "../../../scripts/testing/harness.ts";
import { makeInventory, makeItem, makeLine, makeTicket } from "../../../db/factories.ts";
import { inventory, inventory_log, sales, tickets } from "../../../db/schema/mod.ts";
import { call, parties, stockOf } from "./test_fixtures.ts";

const PATH = "/api/sales/tickets";
const move = (env: TestEnv, token: string, id: number, status: string, code = 200, extra = {}) =>
  call(env, token, "PUT", PATH, { id, status, ...extra }, code);

Deno.test("transitions - OPEN to RFB to RFA (once every line is handled) to APP by an approver only", () =>
  withEnv(async (env) => {
    const { customer, rep, token } = await parties(env);
    const approver = (await env.userWithToken({ permissions: ["approval-authority"] })).token;
    const t = await call(env, token, "POST", PATH, { customer_id: customer.id, sales_rep_id: rep.id });
    const line = await makeLine(env.tenant.db, { ticket_id: t.id, quantity: 2 });
    assert.equal((await move(env, token, t.id, "RFB")).status, "RFB");
    const blocked = await move(env, token, t.id, "RFA", 409);
    assert.equal(blocked.detail, "Request Approval is blocked until every line is checked in or sold.");
    await env.tenant.db.insert(inventory_log).values({
      sale_id: line.id,
      date: "2025-01-01",
      quantity_in: 1,
      action: "in",
    });
    await env.tenant.db.insert(inventory_log).values({
      sale_id: line.id,
      date: "2025-01-01",
      quantity_sold: 1,
      action: "sold",
    });
    assert.equal((await move(env, token, t.id, "RFA")).status, "RFA");
    const refused = await move(env, token, t.id, "APP", 403);
    assert.match(refused.detail, /approval authority/);
    const inv = await move(env, approver, t.id, "APP", 200, { invoice_date: "2025-02-03" });
    assert.deepEqual([inv.status, inv.isInvoice, inv.invoice_number, inv.invoice_date, inv.message], [
      "APP",
      true,
      "INV-00001",
      "2025-02-03",
      "Invoice created",
    ]);
    // Re-open: approvers only; the invoice keeps its number and gets it back on re-approval.
    await move(env, token, t.id, "OPEN", 403);
    const reopened = await move(env, approver, t.id, "OPEN");
    assert.deepEqual([reopened.status, reopened.isInvoice, reopened.invoice_number], [
      "OPEN",
      false,
      "INV-00001",
    ]);
    await move(env, approver, t.id, "RFB");
    await move(env, approver, t.id, "RFA");
    assert.equal((await move(env, approver, t.id, "APP")).invoice_number, "INV-00001");
    const t2 = await makeTicket(env.tenant.db, { customer_id: customer.id, status: "RFA" });
    const second = await move(env, approver, t2.id, "APP");
    assert.deepEqual([second.invoice_number, second.invoice_date], [
      "INV-00002",
      new Date().toISOString().slice(0, 10),
    ]);
    // An invoice cannot be deleted.
    assert.match(
      (await call(env, await env.login(), "DELETE", `${PATH}/${t2.id}`, undefined, 409)).detail,
      /invoice/,
    );
  }));

Deno.test("transitions - charge-code lines (nothing to check in) do not block Request Approval", () =>
  withEnv(async (env) => {
    const { customer, rep, token } = await parties(env);
    const t = await call(env, token, "POST", PATH, { customer_id: customer.id, sales_rep_id: rep.id });
    const mileage = await makeItem(env.tenant.db, { item_number: "MILES", inventory_type: "Charge Code" });
    const row = await makeInventory(env.tenant.db, { item_id: mileage.id, quantity: 0 });
    await makeLine(env.tenant.db, { ticket_id: t.id, inventory_id: row.id, quantity: 140 });
    await move(env, token, t.id, "RFB");
    const got = await call(env, token, "GET", `${PATH}/${t.id}`, undefined, 200);
    assert.equal(got.lines_complete, true);
    assert.equal((await move(env, token, t.id, "RFA")).status, "RFA");
  }));

Deno.test("transitions - backwards moves allowed, the rest refused with 409 and a sentence", () =>
  withEnv(async (env) => {
    const { customer, token } = await parties(env, ["approval-authority"]);
    const at = (status: "OPEN" | "RFB" | "RFA" | "APP" | "QUOTE") =>
      makeTicket(env.tenant.db, { customer_id: customer.id, status, isQuote: status === "QUOTE" });
    assert.equal((await move(env, token, (await at("RFB")).id, "OPEN")).status, "OPEN");
    assert.equal((await move(env, token, (await at("RFA")).id, "RFB")).status, "RFB");
    assert.equal((await move(env, token, (await at("QUOTE")).id, "QUOTE")).status, "QUOTE");
    for (
      const [from, to] of [["OPEN", "RFA"], ["OPEN", "APP"], ["RFA", "OPEN"], ["APP", "RFB"], [
        "QUOTE",
        "OPEN",
      ], [
        "OPEN",
        "CLONEQUOTE",
      ], ["RFB", "QUOTE"]] as const
    ) {
      const r = await move(env, token, (await at(from)).id, to, 409);
      assert.equal(r.detail, `Cannot change status from ${from} to ${to}.`);
    }
    await call(env, token, "PUT", PATH, { id: (await at("OPEN")).id, status: "NOPE" }, 422);
  }));

Deno.test("transitions - CLONEQUOTE makes an OPEN copy with a new ticket number, its lines and held stock", () =>
  withEnv(async (env) => {
    const { customer, rep, token } = await parties(env);
    const row = await stockOf(env, "Itemized", 5);
    const q = await call(env, token, "POST", PATH, {
      customer_id: customer.id,
      sales_rep_id: rep.id,
      status: "QUOTE",
    });
    await makeLine(env.tenant.db, {
      ticket_id: q.id,
      inventory_id: row.id,
      quantity: 3,
      price: 10,
      order: 1,
      markup: 5,
    });
    const copy = await move(env, token, q.id, "CLONEQUOTE");
    assert.notEqual(copy.id, q.id);
    assert.deepEqual([copy.status, copy.clone, copy.isQuote, copy.source_ticket_id, copy.ticket_number], [
      "OPEN",
      true,
      false,
      q.id,
      "T-00001",
    ]);
    const lines = await env.tenant.db.select().from(sales).where(eq(sales.ticket_id, copy.id));
    assert.deepEqual(lines.map((l) => [l.quantity, l.price, l.markup, l.quantity_held]), [[3, 10, 5, 3]]);
    assert.equal(
      (await env.tenant.db.select().from(inventory).where(eq(inventory.id, row.id)).get())!.quantity_out,
      3,
    );
    const stillQuote = await env.tenant.db.select().from(tickets).where(eq(tickets.id, q.id)).get();
    assert.equal(stillQuote!.status, "QUOTE");
    // Not enough left for a second copy: refused, nothing made.
    const refused = await move(env, token, q.id, "CLONEQUOTE", 409);
    assert.match(refused.detail, /^ERROR: Line item quantity exceeds available inventory:/);
    assert.equal((await env.tenant.db.select().from(tickets)).length, 2);
  }));
