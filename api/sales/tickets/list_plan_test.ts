import assert from "node:assert/strict";
import { analyzeForPlans, withEnv } from "../../../scripts/testing/harness.ts";
import { makeCompany, makeTicket } from "../../../db/factories.ts";
import { TICKET_SORTS } from "./schemas.ts";

/**
 * Every offered sort of a stage list reads its page from an index in the list's order: no query of
 * the page sorts the stage's rows in a temporary B-tree (issue 10: those sorts, and OFFSET walking the
 * joins, cost 20-120 ms on 50,000 tickets). Checked on the plans of the statements the list runs.
 */
Deno.test("ticket list plans - every sort pages through an index, never a temp B-tree", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const customer = await makeCompany(env.tenant.db, { name: "Permian Energy" });
    const { user: rep } = await env.userWithToken({ name: "Rita Rep", isSalesRep: true });
    for (let i = 0; i < 60; i++) {
      await makeTicket(env.tenant.db, {
        customer_id: customer.id,
        sales_rep_id: i % 3 ? rep.id : null,
        status: (["OPEN", "RFB", "APP"] as const)[i % 3],
        invoice_number: i % 3 === 2 ? `INV-${i}` : null,
      });
    }
    await env.tenant.client.execute("ANALYZE");
    const client = env.tenant.client;
    const execute = client.execute.bind(client);
    const seen: { sql: string; args: unknown[] }[] = [];
    client.execute = ((stmt: { sql: string; args: unknown[] }) => {
      if (typeof stmt === "object" && /^select .*from "(tickets|companies|users)"/.test(stmt.sql)) {
        seen.push(stmt);
      }
      return execute(stmt as never);
    }) as typeof client.execute;
    try {
      for (const flow of ["APP", "OPEN", "ALL", "ALL&showInvoiced=true", "OPEN&showInvoiced=true"]) {
        for (const sortBy of [undefined, ...TICKET_SORTS]) {
          for (const descending of [false, true]) {
            seen.length = 0;
            const qs = `ticketFlowFilter=${flow}&page=2&rowsPerPage=10&descending=${descending}` +
              (sortBy ? `&sortBy=${sortBy}` : "");
            await env.json(`/api/sales/tickets?${qs}`, { token });
            assert.ok(seen.length >= 2, qs);
            for (const s of seen) {
              const plan = (await execute({ sql: `explain query plan ${s.sql}`, args: s.args as never }))
                .rows.map((r) => String(r.detail)).join("\n");
              assert.doesNotMatch(plan, /TEMP B-TREE/, `${qs}\n${s.sql}\n${plan}`);
              assert.doesNotMatch(plan, /^SCAN tickets/m, `${qs}\n${s.sql}\n${plan}`);
            }
          }
        }
      }
    } finally {
      client.execute = execute;
    }
  }));

Deno.test("ticket list by sales rep or customer over every stage - each one's tickets (and those without a rep) from an index in order", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const customers = [];
    for (const name of ["permian Energy", "Permian Energy", "Apex Oil"]) {
      customers.push(await makeCompany(env.tenant.db, { name }));
    }
    const reps = [];
    // Two reps named alike but for case, and tickets without one.
    for (const name of ["rita Rep", "Rita Rep", "Al Rep"]) {
      reps.push((await env.userWithToken({ name, isSalesRep: true })).user);
    }
    for (let i = 0; i < 40; i++) {
      await makeTicket(env.tenant.db, {
        customer_id: customers[i % 3].id,
        sales_rep_id: i % 4 === 0 ? null : reps[i % 3].id,
        status: (["OPEN", "RFB", "APP"] as const)[i % 3],
        invoice_number: i % 3 === 2 ? `INV-${i}` : null,
      });
    }
    const checkPlans = await analyzeForPlans(env);
    const sorts = [
      ["sales_rep", "left join users n on n.id = t.sales_rep_id"],
      ["customer", "join companies n on n.id = t.customer_id"],
    ];
    for (const [sortBy, join] of sorts) {
      for (const descending of [false, true]) {
        const d = `${sortBy} ${descending ? "desc" : "asc"}`;
        const dir = descending ? "desc" : "asc";
        const expected = (await env.tenant.client.execute(
          `select t.id from tickets t ${join} order by n.name collate nocase ${dir}, n.id ${dir}, t.id ${dir}`,
        )).rows.map((r) => Number(r.id));
        const path =
          `/api/sales/tickets?ticketFlowFilter=ALL&showInvoiced=true&sortBy=${sortBy}&descending=${descending}`;
        const paged: number[] = [];
        for (let page = 1; page <= 4; page++) {
          const { results } = await env.json(`${path}&page=${page}&rowsPerPage=10`, { token });
          paged.push(...results.map((r: { id: number }) => r.id));
        }
        assert.deepEqual(paged, expected, d);
        const client = env.tenant.client;
        const execute = client.execute.bind(client);
        const seen: { sql: string; args: unknown[] }[] = [];
        client.execute = ((stmt: { sql: string; args: unknown[] }) => {
          if (typeof stmt === "object" && /^select .*from "(tickets|users|companies)"/.test(stmt.sql)) {
            seen.push(stmt);
          }
          return execute(stmt as never);
        }) as typeof client.execute;
        try {
          for (const page of [1, 2, 3]) await env.json(`${path}&page=${page}&rowsPerPage=10`, { token });
        } finally {
          client.execute = execute;
        }
        for (const s of checkPlans ? seen : []) {
          const plan = (await execute({ sql: `explain query plan ${s.sql}`, args: s.args as never }))
            .rows.map((r) => String(r.detail)).join("\n");
          assert.doesNotMatch(plan, /TEMP B-TREE/, `${d}\n${s.sql}\n${plan}`);
          assert.doesNotMatch(plan, /^SCAN tickets/m, `${d}\n${s.sql}\n${plan}`);
        }
      }
    }
  }));
