import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { withEnv } from "../../../scripts/testing/harness.ts";
import { makeLine, makeTicket } from "../../../db/factories.ts";
import { sales, tickets } from "../../../db/schema/mod.ts";
import { tokenWith } from "../inventory/test_fixtures.ts";

Deno.test("sales data - the lines' invoice and quote flags follow their ticket (invoiced, quoted, moved), so the default filters list what a join would", () =>
  withEnv(async (env) => {
    const token = await tokenWith(env, []);
    const db = env.tenant.db;
    /** The default filters' lines through the API, and what a join with the tickets says they are. */
    const check = async (step: string) => {
      const listed =
        (await env.json("/api/sales/sales?isInvoice=true&hideQuotes=true&rowsPerPage=200", { token }))
          .results.map((r: { id: number }) => r.id).sort((a: number, b: number) => a - b);
      const joined = (await env.tenant.client.execute(`
        select s.id from sales s join tickets t on t.id = s.ticket_id
        where t.is_invoice = 1 and t.is_quote = 0 and t.status <> 'QUOTE' order by s.id`)).rows.map((r) =>
        Number(r.id)
      );
      assert.deepEqual(listed, joined, step);
      return listed as number[];
    };
    const open = await makeTicket(db, {});
    const invoice = await makeTicket(db, { status: "APP", isInvoice: true, invoice_number: "INV-1" });
    const a = await makeLine(db, { ticket_id: open.id });
    const b = await makeLine(db, { ticket_id: invoice.id });
    assert.deepEqual(await check("new lines take their ticket's flags"), [b.id]);

    await db.update(tickets).set({ isInvoice: true, status: "APP" }).where(eq(tickets.id, open.id));
    assert.deepEqual(await check("a ticket invoiced"), [a.id, b.id]);
    await db.update(tickets).set({ status: "QUOTE" }).where(eq(tickets.id, open.id));
    assert.deepEqual(await check("status QUOTE"), [b.id]);
    await db.update(tickets).set({ status: "APP", isQuote: true }).where(eq(tickets.id, open.id));
    assert.deepEqual(await check("is_quote"), [b.id]);
    await db.update(tickets).set({ isQuote: false, isInvoice: false, status: "OPEN" }).where(
      eq(tickets.id, open.id),
    );
    assert.deepEqual(await check("back to open"), [b.id]);

    await db.update(sales).set({ ticket_id: invoice.id }).where(eq(sales.id, a.id));
    assert.deepEqual(await check("a line moved to an invoice"), [a.id, b.id]);
    await db.update(sales).set({ ticket_id: open.id }).where(eq(sales.id, b.id));
    assert.deepEqual(await check("a line moved to an open ticket"), [a.id]);

    // Every sort offered, under the default filters, lists the same lines.
    for (const sortBy of ["start_date", "quantity", "price", "ticket_number", "item_description"]) {
      const ids =
        (await env.json(`/api/sales/sales?isInvoice=true&hideQuotes=true&sortBy=${sortBy}`, { token }))
          .results.map((r: { id: number }) => r.id);
      assert.deepEqual(ids, [a.id], sortBy);
    }
  }));
