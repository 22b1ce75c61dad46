import assert from "node:assert/strict";
import { withEnv } from "../../../scripts/testing/harness.ts";
import { makeCompany, makeTicket } from "../../../db/factories.ts";
import { TICKET_SORTS, TicketListQuery } from "./schemas.ts";
import type { InStatement } from "@libsql/client";
import { isFileClient } from "../../../db/sqlite_client.ts";
import { loadSessionUser } from "../../auth/service.ts";
import { recordingCtx } from "../inventory/test_fixtures.ts";
import { everyTicket } from "./service.ts";

/**
 * Pages come from the indexes (ids first, customers and sales reps walked by name); the All list is
 * one plain ORDER BY. Every sort, both ways, paged in tens, must give exactly the All list's order,
 * across the boundary between tickets without a sales rep and those with one.
 */
Deno.test("ticket list order - every sort, both directions: the pages put together are the All list", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const customers = [
      await makeCompany(env.tenant.db, { name: "basin flow" }),
      await makeCompany(env.tenant.db, { name: "Acme Drilling" }),
      await makeCompany(env.tenant.db, { name: "Acme Drilling" }),
    ];
    const reps = [
      (await env.userWithToken({ name: "zed rep", isSalesRep: true })).user,
      (await env.userWithToken({ name: "Ann Rep", isSalesRep: true })).user,
    ];
    for (let i = 0; i < 27; i++) {
      await makeTicket(env.tenant.db, {
        ticket_number: `T-${String(100 - i).padStart(5, "0")}`,
        invoice_number: i % 4 ? `INV-${String(i * 7 % 27).padStart(5, "0")}` : null,
        invoice_date: i % 3 ? `2026-01-${String(1 + (i * 5) % 28).padStart(2, "0")}` : null,
        ticket_date: `2026-02-${String(1 + (i * 11) % 28).padStart(2, "0")}`,
        customer_id: customers[i % 3].id,
        // 12 tickets without a rep: the boundary falls inside page 2 ascending, page 2 descending
        sales_rep_id: i % 5 < 2 ? null : reps[i % 2].id,
        status: "APP",
      });
    }
    const { user } = (await loadSessionUser(env.tenant.db, 1))!;
    const get = async (qs: string) =>
      ((await env.json(`/api/sales/tickets?ticketFlowFilter=APP&${qs}`, { token })).results as {
        id: number;
      }[])
        .map((t) => t.id);
    for (const sortBy of TICKET_SORTS) {
      for (const descending of [false, true]) {
        const qs = `sortBy=${sortBy}&descending=${descending}`;
        const all = await get(`${qs}&rowsPerPage=-1`);
        assert.equal(all.length, 27);
        const paged = [
          ...await get(`${qs}&rowsPerPage=10&page=1`),
          ...await get(`${qs}&rowsPerPage=10&page=2`),
          ...await get(`${qs}&rowsPerPage=10&page=3`),
        ];
        assert.deepEqual(paged, all, qs);
        // Every row walks the ids once and reads them by id: no page read (limit and offset), but on a remote
        // database, which has no cursor.
        const log: InStatement[] = [];
        const walked: number[] = [];
        const q = TicketListQuery.parse({ ticketFlowFilter: "APP", sortBy, descending: String(descending) });
        for await (const t of await everyTicket(recordingCtx(env, user, log), q)) walked.push(t.id);
        assert.deepEqual(walked, all, `${qs}: every row`);
        const pages = log.filter((s) => /\blimit\b/i.test(typeof s === "string" ? s : s.sql));
        assert.equal(pages.length > 0, !isFileClient(env.tenant.client), `${qs}: read by OFFSET pages`);
      }
    }
    // Without a rep first when ascending, last when descending; names case-insensitively.
    const names = async (descending: boolean) =>
      ((await env.json(
        `/api/sales/tickets?ticketFlowFilter=APP&sortBy=sales_rep&descending=${descending}&rowsPerPage=-1`,
        { token },
      )).results as { sales_rep: { name: string } | null }[]).map((t) => t.sales_rep?.name ?? "-");
    const asc = await names(false);
    assert.deepEqual([asc[0], asc[11], asc[12], asc[26]], ["-", "-", "Ann Rep", "zed rep"]);
    assert.deepEqual((await names(true)).reverse(), asc);
  }));

Deno.test("ticket list - every row (page=-1) in the default order reads after the last row: the pages put together", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const customer = await makeCompany(env.tenant.db, { name: "Acme Drilling" });
    // More than the first reads of 100 and 200 rows, in both directions.
    for (let i = 0; i < 340; i++) {
      await makeTicket(env.tenant.db, { customer_id: customer.id, status: "OPEN" });
    }
    for (const descending of ["", "&descending=false", "&descending=true"]) {
      const paged: number[] = [];
      for (let page = 1; page <= 7; page++) {
        const { results } = await env.json(`/api/sales/tickets?rowsPerPage=50&page=${page}${descending}`, {
          token,
        });
        paged.push(...results.map((t: { id: number }) => t.id));
      }
      assert.equal(new Set(paged).size, 340, descending);
      const all = await env.json(`/api/sales/tickets?page=-1${descending}`, { token });
      assert.deepEqual(all.results.map((t: { id: number }) => t.id), paged, `page=-1${descending}`);
      assert.equal(all.total, 340);
    }
  }));
