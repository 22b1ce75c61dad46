import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import type { InStatement } from "@libsql/client";
import { withEnv } from "../../../scripts/testing/harness.ts";
import { makeCompany, makeTicket } from "../../../db/factories.ts";
import { tickets } from "../../../db/schema/mod.ts";
import { recordingCtx } from "../inventory/test_fixtures.ts";
import { loadSessionUser } from "../../auth/service.ts";
import { TICKET_FLOWS, TicketListQuery } from "./schemas.ts";
import { listTickets } from "./service.ts";

Deno.test("tickets - the lists' total without a search is the tickets counted by company, status and flags, kept by every kind of change", () =>
  withEnv(async (env) => {
    const db = env.tenant.db;
    const other = await makeCompany(db, { company_type: "inspection_company" });
    const made = [];
    const statuses = ["OPEN", "RFB", "RFA", "QUOTE", "APP"] as const;
    for (let i = 0; i < 20; i++) {
      made.push(
        await makeTicket(db, {
          company_id: i % 7 === 6 ? other.id : 1,
          status: statuses[i % 5],
          isQuote: i % 5 === 3,
          isPaid: i % 3 === 0,
          isSigned: i % 4 === 0,
        }),
      );
    }
    const { user } = (await loadSessionUser(db, 1))!;
    const ctx = { tdb: env.tenant, db, user, config: env.services.config };
    const filters: Record<string, string>[] = [];
    const flagSets: Record<string, string>[] = [
      {},
      { hidePaid: "true" },
      { hideSigned: "true", isQuote: "false" },
      { isQuote: "true" },
    ];
    for (const ticketFlowFilter of ["", ...TICKET_FLOWS]) {
      for (const showInvoiced of ["false", "true"]) {
        for (const flags of flagSets) filters.push({ ticketFlowFilter, showInvoiced, ...flags });
      }
    }
    const check = async (step: string) => {
      const kept = await env.tenant.client.execute(
        `select company_id, status, is_quote, is_paid, is_signed, tickets from ticket_flag_counts
         where tickets <> 0 order by 1, 2, 3, 4, 5`,
      );
      const actual = await env.tenant.client.execute(
        `select company_id, status, is_quote, is_paid, is_signed, count(*) from tickets
         group by 1, 2, 3, 4, 5 order by 1, 2, 3, 4, 5`,
      );
      const values = (r: Record<number, unknown>) => [0, 1, 2, 3, 4, 5].map((i) => r[i]);
      assert.deepEqual(kept.rows.map(values), actual.rows.map(values), `${step}: the kept counts`);
      for (const filter of filters) {
        const q = TicketListQuery.parse(filter);
        const every = (await listTickets(ctx, { ...q, page: -1, rowsPerPage: -1 })).results.length;
        const log: InStatement[] = [];
        const { total } = await listTickets(recordingCtx(env, user, log), q);
        assert.equal(total, every, `${step} ${JSON.stringify(filter)}: the total`);
        // A count of the tickets (the lines of the page's tickets may be counted: ticketTotalsOf).
        const counts = log.filter((s) =>
          /\bcount\(.*\bfrom "tickets"/is.test(typeof s === "string" ? s : s.sql)
        );
        assert.equal(counts.length, 0, `${step} ${JSON.stringify(filter)}: counted the tickets`);
      }
    };
    await check("made");
    await db.update(tickets).set({ status: "APP", isPaid: true }).where(eq(tickets.id, made[0].id));
    await check("a ticket invoiced and paid");
    await db.update(tickets).set({ isQuote: false, status: "OPEN" }).where(eq(tickets.id, made[3].id));
    await check("a quote made a ticket");
    await db.update(tickets).set({ isSigned: true }).where(eq(tickets.id, made[1].id));
    await check("a ticket signed");
    await db.update(tickets).set({ company_id: other.id }).where(eq(tickets.id, made[2].id));
    await check("a ticket moved to another company");
    await db.update(tickets).set({ ticket_number: "T-RENAMED" }).where(eq(tickets.id, made[4].id));
    await check("a ticket's other field changed");
    await db.delete(tickets).where(eq(tickets.id, made[5].id));
    await check("a ticket deleted");
    // A search is counted as before.
    const log: InStatement[] = [];
    await listTickets(recordingCtx(env, user, log), TicketListQuery.parse({ search_ticket_number: "T" }));
    assert.ok(log.some((s) => /\bcount\(/i.test(typeof s === "string" ? s : s.sql)), "a search is counted");
  }));
