import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { withEnv } from "../../../scripts/testing/harness.ts";
import { makeLine, makeTicket } from "../../../db/factories.ts";
import { sales } from "../../../db/schema/mod.ts";
import { makeItemOf, makeRow, send } from "../inventory/test_fixtures.ts";

Deno.test("cloned quote lines - a quote's undated lines start when cloned, so they can be saved as they are", () =>
  withEnv(async (env) => {
    const db = env.tenant.db;
    const { token } = await env.userWithToken({ permissions: ["sales-admin"] });
    const row = await makeRow(env, { item_id: (await makeItemOf(env, "Itemized")).id, quantity: 5 });
    const quote = await makeTicket(db, { status: "QUOTE", isQuote: true, use_min_rate_logic: false });
    await makeLine(db, {
      ticket_id: quote.id,
      inventory_id: row.id,
      quantity: 2,
      price: 10,
      start_date: null,
    });
    const before = Date.now() - 60_000;
    const copy = await send(env, token, "PUT", "/api/sales/tickets", { id: quote.id, status: "CLONEQUOTE" });
    const [line] = await db.select().from(sales).where(eq(sales.ticket_id, copy.id));
    assert.ok(line.start_date, "the copy has a start date");
    assert.ok(Date.parse(line.start_date!) >= before);
    // Saving the copied line as it is (what the line form sends) is accepted.
    const saved = await send(env, token, "PUT", "/api/sales/sales", { id: line.id, quantity: 2, price: 10 });
    assert.equal(saved.start_date, line.start_date);
  }));
