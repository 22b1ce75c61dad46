import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import type { InStatement } from "@libsql/client";
import { withEnv } from "../../../scripts/testing/harness.ts";
import { makeLine, makeTicket } from "../../../db/factories.ts";
import { sales, tickets } from "../../../db/schema/mod.ts";
import { recordingCtx } from "../inventory/test_fixtures.ts";
import { loadSessionUser } from "../../auth/service.ts";
import { SalesListQuery } from "./schemas.ts";
import { invoiceAndOpenTicket } from "./line_fixtures.ts";
import { listSales } from "./list.ts";

Deno.test("sales data - the default filters' total is the lines counted by flags, kept by every kind of change", () =>
  withEnv(async (env) => {
    const db = env.tenant.db;
    const { customer, row, invoice, open } = await invoiceAndOpenTicket(env);
    const quote = await makeTicket(db, { customer_id: customer.id, isQuote: true });
    const lines = [];
    for (const [ticket, n] of [[invoice, 5], [open, 4], [quote, 3]] as const) {
      for (let i = 0; i < n; i++) {
        lines.push(await makeLine(db, { ticket_id: ticket.id, inventory_id: row.id }));
      }
    }
    const { user } = (await loadSessionUser(db, 1))!;
    const check = async (step: string) => {
      const counted = await env.tenant.client.execute(
        "select ticket_invoice, ticket_quote, lines from sales_flag_counts where lines <> 0 order by 1, 2",
      );
      const actual = await env.tenant.client.execute(
        "select ticket_invoice, ticket_quote, count(*) from sales group by 1, 2 order by 1, 2",
      );
      assert.deepEqual(
        counted.rows.map((r) => [r[0], r[1], r[2]]),
        actual.rows.map((r) => [r[0], r[1], r[2]]),
        `${step}: the counts`,
      );
      for (
        const filter of [{}, { isInvoice: "true" }, { hideQuotes: "true" }, {
          isInvoice: "true",
          hideQuotes: "true",
        }]
      ) {
        const q = SalesListQuery.parse(filter);
        const every = (await listSales({ tdb: env.tenant, db, user, config: env.services.config }, {
          ...q,
          page: -1,
          rowsPerPage: -1,
        })).results.length;
        const log: InStatement[] = [];
        const { total } = await listSales(recordingCtx(env, user, log), q);
        assert.equal(total, every, `${step} ${JSON.stringify(filter)}: the total`);
        const counts = log.filter((s) => /\bcount\(/i.test(typeof s === "string" ? s : s.sql));
        assert.equal(counts.length, 0, `${step} ${JSON.stringify(filter)}: counted the lines`);
      }
    };
    await check("made");
    await db.update(tickets).set({ isInvoice: true, status: "APP", invoice_number: "INV-2" }).where(
      eq(tickets.id, open.id),
    );
    await check("the open ticket invoiced");
    await db.update(tickets).set({ isQuote: false }).where(eq(tickets.id, quote.id));
    await check("the quote made a ticket");
    await db.update(tickets).set({ status: "QUOTE" }).where(eq(tickets.id, quote.id));
    await check("back to a quote by its status");
    await db.update(sales).set({ ticket_id: quote.id }).where(eq(sales.id, lines[0].id));
    await check("a line moved to another ticket");
    await db.delete(sales).where(eq(sales.id, lines[1].id));
    await check("a line deleted");
    await db.delete(tickets).where(eq(tickets.id, invoice.id));
    await check("a ticket deleted with its lines");
    // Another filter is counted as before.
    const log: InStatement[] = [];
    await listSales(
      recordingCtx(env, user, log),
      SalesListQuery.parse({ isInvoice: "true", ticket_number: "T" }),
    );
    assert.ok(log.some((s) => /\bcount\(/i.test(typeof s === "string" ? s : s.sql)), "a search is counted");
  }));
