import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { companies, tickets } from "../../../db/schema/mod.ts";
import { makeTicket } from "../../../db/factories.ts";
import { withEnv } from "../../../scripts/testing/harness.ts";
import { today } from "../../../lib/format.ts";
import { call, parties } from "./test_fixtures.ts";
import { heldLine, post } from "../lines/checkin_fixtures.ts";

Deno.test("invoice date - an approval is dated on the company's calendar, not UTC's", () =>
  withEnv(async (env) => {
    // At any moment one of these two zones is on another calendar day than UTC (UTC+14 and UTC-11).
    const now = new Date();
    const zone = ["Pacific/Kiritimati", "Pacific/Pago_Pago"].find((z) =>
      today(now, z) !== today(now, "UTC")
    )!;
    const db = env.tenant.db;
    await db.update(companies).set({ settings: { timeZone: zone } }).where(eq(companies.id, 1));
    const token = await env.login();
    const ticket = await makeTicket(db, { status: "RFA" });
    const approved = await env.json("/api/sales/tickets", {
      method: "PUT",
      token,
      json: { id: ticket.id, status: "APP" },
    });
    assert.equal(approved.status, "APP");
    assert.equal(approved.invoice_date.slice(0, 10), today(new Date(), zone), zone);
    assert.notEqual(approved.invoice_date.slice(0, 10), today(new Date(), "UTC"));
  }));

Deno.test("ticket date - a new ticket (and a quote's clone) is dated on the company's calendar", () =>
  withEnv(async (env) => {
    const now = new Date();
    const zone = ["Pacific/Kiritimati", "Pacific/Pago_Pago"].find((z) =>
      today(now, z) !== today(now, "UTC")
    )!;
    await env.tenant.db.update(companies).set({ settings: { timeZone: zone } }).where(eq(companies.id, 1));
    const { customer, rep, token } = await parties(env);
    const t = await call(env, token, "POST", "/api/sales/tickets", {
      customer_id: customer.id,
      sales_rep_id: rep.id,
    });
    assert.equal(t.ticket_date.slice(0, 10), today(new Date(), zone), zone);
    const q = await call(env, token, "POST", "/api/sales/tickets", {
      customer_id: customer.id,
      sales_rep_id: rep.id,
      status: "QUOTE",
    });
    const clone = await call(env, token, "PUT", "/api/sales/tickets", { id: q.id, status: "CLONEQUOTE" });
    assert.equal(clone.ticket_date.slice(0, 10), today(new Date(), zone));
  }));

Deno.test("ticket date - a transfer's new ticket is dated on the company's calendar", () =>
  withEnv(async (env) => {
    const now = new Date();
    const zone = ["Pacific/Kiritimati", "Pacific/Pago_Pago"].find((z) =>
      today(now, z) !== today(now, "UTC")
    )!;
    await env.tenant.db.update(companies).set({ settings: { timeZone: zone } }).where(eq(companies.id, 1));
    const token = await env.login();
    const source = await makeTicket(env.tenant.db, { status: "RFB" });
    const a = await heldLine(env, { quantity: 1, stock: 5, line: { ticket_id: source.id } });
    const res = await post(env, token, "/api/sales/tickets/transfer", {
      ticket_id: source.id,
      line_ids: [a.lineId],
    });
    const target = await env.tenant.db.select().from(tickets).where(eq(tickets.id, res.ticket_id)).get();
    assert.equal(target!.ticket_date, today(new Date(), zone), zone);
  }));
