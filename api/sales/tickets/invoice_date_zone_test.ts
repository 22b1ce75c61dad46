import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { companies } from "../../../db/schema/mod.ts";
import { makeTicket } from "../../../db/factories.ts";
import { withEnv } from "../../../scripts/testing/harness.ts";
import { today } from "../../../lib/format.ts";

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
