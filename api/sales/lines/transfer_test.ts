import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { withEnv } from "../../../scripts/testing/harness.ts";
import { makeCategory, makeCompany, makeTicket } from "../../../db/factories.ts";
import { inventory_log, sales, tickets } from "../../../db/schema/mod.ts";
import { auditOf, heldLine, lineOf, logOf, post, rowOf } from "./checkin_fixtures.ts";

const TRANSFER = "/api/sales/tickets/transfer";
const BILL_BACK = "/api/sales/tickets/bill-back";
const CHECK_IN = "/api/sales/inventory/check-in";

const ticketOf = (env: { tenant: { db: import("../../../db/client.ts").TenantDatabase } }, id: number) =>
  env.tenant.db.select().from(tickets).where(eq(tickets.id, id)).get();

Deno.test("transfer - to a new OPEN transfer ticket: lines, holds and log move; stock unchanged", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const customer = await makeCompany(env.tenant.db);
    const source = await makeTicket(env.tenant.db, {
      customer_id: customer.id,
      status: "RFB",
      location: "Pad 7",
    });
    const a = await heldLine(env, { quantity: 3, stock: 5, line: { ticket_id: source.id } });
    const b = await heldLine(env, { quantity: 2, stock: 5, line: { ticket_id: source.id } });
    const stays = await heldLine(env, { quantity: 1, stock: 5, line: { ticket_id: source.id } });
    await post(env, token, CHECK_IN, { ticket_id: source.id, line_items: [a.lineId], quantities_in: [1] });
    const res = await post(env, token, TRANSFER, { ticket_id: source.id, line_ids: [a.lineId, b.lineId] });
    assert.match(res.ticket_number, /^T-\d{5}$/);
    const target = await ticketOf(env, res.ticket_id);
    assert.deepEqual(
      [target!.status, target!.isTransfer, target!.source_ticket_id, target!.customer_id, target!.location],
      ["OPEN", true, source.id, customer.id, "Pad 7"],
    );
    assert.equal((await lineOf(env, a.lineId))!.ticket_id, target!.id);
    assert.equal((await lineOf(env, b.lineId))!.ticket_id, target!.id);
    assert.equal((await lineOf(env, stays.lineId))!.ticket_id, source.id);
    assert.equal((await lineOf(env, a.lineId))!.quantity_held, 2);
    assert.equal((await rowOf(env, a.inventoryId))!.quantity_out, 2, "holds move with the line");
    assert.equal((await logOf(env, a.lineId)).length, 1, "the log follows the line");
    const audit = (await auditOf(env, b.inventoryId)).at(-1)!;
    assert.deepEqual([audit.action, audit.quantity_change, audit.ticket_number], [
      "Line Transferred",
      0,
      res.ticket_number,
    ]);

    const second = await post(env, token, TRANSFER, { ticket_id: source.id, line_ids: [stays.lineId] });
    assert.notEqual(second.ticket_number, res.ticket_number, "a new number each time");
  }));

Deno.test("transfer - to an existing OPEN ticket of the same customer and business unit only; sold lines and invoices stay", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const customer = await makeCompany(env.tenant.db);
    const source = await makeTicket(env.tenant.db, { customer_id: customer.id });
    const target = await makeTicket(env.tenant.db, { customer_id: customer.id });
    const existing = await heldLine(env, { line: { ticket_id: target.id, order: 4 } });
    const s = await heldLine(env, { quantity: 2, line: { ticket_id: source.id } });
    const other = await makeTicket(env.tenant.db);
    assert.equal(
      (await post(env, token, TRANSFER, {
        ticket_id: source.id,
        line_ids: [s.lineId],
        to_ticket_id: other.id,
      }, 422)).detail,
      "Choose a ticket of the same customer",
    );
    // A ticket of another business unit cannot take lines holding this unit's stock.
    const midland = await makeCategory(env.tenant.db, { model: "Business Unit", name: "Midland" });
    const odessa = await makeCategory(env.tenant.db, { model: "Business Unit", name: "Odessa" });
    await env.tenant.db.update(tickets).set({ business_unit_id: midland.id }).where(
      eq(tickets.id, source.id),
    );
    const elsewhere = await makeTicket(env.tenant.db, {
      customer_id: customer.id,
      business_unit_id: odessa.id,
    });
    const otherUnit = await post(env, token, TRANSFER, {
      ticket_id: source.id,
      line_ids: [s.lineId],
      to_ticket_id: elsewhere.id,
    }, 422);
    assert.equal(otherUnit.detail, "Choose a ticket of the same business unit");
    assert.equal((await lineOf(env, s.lineId))!.ticket_id, source.id);
    const closed = await makeTicket(env.tenant.db, { customer_id: customer.id, status: "RFB" });
    await post(
      env,
      token,
      TRANSFER,
      { ticket_id: source.id, line_ids: [s.lineId], to_ticket_id: closed.id },
      422,
    );
    await post(
      env,
      token,
      TRANSFER,
      { ticket_id: source.id, line_ids: [s.lineId], to_ticket_id: source.id },
      422,
    );
    await post(env, token, TRANSFER, {
      ticket_id: source.id,
      line_ids: [existing.lineId],
      to_ticket_id: target.id,
    }, 404);

    const res = await post(env, token, TRANSFER, {
      ticket_id: source.id,
      line_ids: [s.lineId],
      to_ticket_id: target.id,
    });
    assert.equal(res.ticket_id, target.id);
    const moved = await lineOf(env, s.lineId);
    assert.deepEqual([moved!.ticket_id, moved!.order], [target.id, 5]);

    const sold = await heldLine(env, { quantity: 2, line: { ticket_id: target.id } });
    await post(env, token, CHECK_IN, {
      ticket_id: target.id,
      line_items: [sold.lineId],
      quantities_sold: [1],
    });
    const refused = await post(env, token, TRANSFER, { ticket_id: target.id, line_ids: [sold.lineId] }, 409);
    assert.match(refused.detail, /sold/);
    const invoice = await makeTicket(env.tenant.db, { status: "APP", isInvoice: true });
    const onInvoice = await heldLine(env, { line: { ticket_id: invoice.id } });
    await post(env, token, TRANSFER, { ticket_id: invoice.id, line_ids: [onInvoice.lineId] }, 409);
    assert.equal((await lineOf(env, onInvoice.lineId))!.ticket_id, invoice.id);
  }));

Deno.test("bill back - a new OPEN ticket of sold lines from an approved invoice, once per sale", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const customer = await makeCompany(env.tenant.db);
    const ticket = await makeTicket(env.tenant.db, { customer_id: customer.id });
    const s = await heldLine(env, {
      quantity: 4,
      stock: 10,
      line: { ticket_id: ticket.id, price: 75, discount: 10 },
    });
    const unsold = await heldLine(env, { quantity: 1, line: { ticket_id: ticket.id } });
    await post(env, token, CHECK_IN, {
      ticket_id: ticket.id,
      line_items: [s.lineId],
      quantities_in: [1],
      quantities_sold: [3],
    });
    await post(env, token, CHECK_IN, {
      ticket_id: ticket.id,
      line_items: [unsold.lineId],
      quantities_in: [1],
    });
    await post(env, token, BILL_BACK, { ticket_id: ticket.id, line_ids: [s.lineId] }, 409);
    await env.tenant.db.update(tickets).set({ status: "APP", isInvoice: true, invoice_number: "INV-00007" })
      .where(eq(tickets.id, ticket.id));
    const stockBefore = await rowOf(env, s.inventoryId);

    assert.equal(
      (await post(env, token, BILL_BACK, { ticket_id: ticket.id, line_ids: [unsold.lineId] }, 422)).detail,
      "Nothing sold on this line",
    );
    const res = await post(env, token, BILL_BACK, { ticket_id: ticket.id, line_ids: [s.lineId] });
    const made = await ticketOf(env, res.ticket_id);
    assert.deepEqual(
      [made!.status, made!.isBillBack, made!.source_ticket_id, made!.customer_id],
      ["OPEN", true, ticket.id, customer.id],
    );
    const lines = await env.tenant.db.select().from(sales).where(eq(sales.ticket_id, made!.id));
    assert.equal(lines.length, 1);
    assert.deepEqual(
      [
        lines[0].inventory_id,
        lines[0].quantity,
        lines[0].price,
        lines[0].discount,
        lines[0].isSold,
        lines[0].quantity_held,
      ],
      [s.inventoryId, 3, 75, 10, true, 0],
    );
    assert.deepEqual(await rowOf(env, s.inventoryId), stockBefore, "the stock already left: nothing moves");
    const logs = await env.tenant.db.select().from(inventory_log).where(eq(inventory_log.sale_id, s.lineId));
    assert.deepEqual(logs.map((l) => [l.action, l.billed]), [["Check In", false], ["Sold", true]]);
    assert.equal((await auditOf(env, s.inventoryId)).at(-1)!.action, "Bill Back");
    const twice = await post(env, token, BILL_BACK, { ticket_id: ticket.id, line_ids: [s.lineId] }, 409);
    assert.match(twice.detail, /Already billed back/);
  }));
