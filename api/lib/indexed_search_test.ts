import assert from "node:assert/strict";
import { type TestEnv, withEnv } from "../../scripts/testing/harness.ts";
import { makeCompany, makeInventory, makeJob, makeLine, makeTicket } from "../../db/factories.ts";
import { INVENTORY_SORTS } from "../sales/inventory/schemas.ts";

/** Terms of every kind: any case, mid-string, literal quotes, spaces and wildcards, too short for trigrams. */
const TERMS = [
  "04233",
  "pv2-1",
  '"QUOTED"',
  'ted" 9',
  "50%_",
  "ünï",
  "ÜNÏ",
  "e-4",
  "NOPE",
  "-5",
  "V",
  "42",
  "2-",
];
const VALUES = ["PV2-104233", "pv2-204233", 'SJ3 "QUOTED" 9', "lot 50%_1", "HU2-500", "Ünïcode-42", "ab2-5"];

const like = (term: string) => "%" + term.replace(/[\\%_]/g, (m) => "\\" + m) + "%";

/** What LIKE alone finds (the results before the index): ids in id order. */
async function byLike(env: TestEnv, table: string, column: string, term: string) {
  const r = await env.tenant.client.execute({
    sql: `select id from ${table} where ${column} like ? escape '\\' order by id`,
    args: [like(term)],
  });
  return r.rows.map((x) => Number(x.id));
}

async function check(
  env: TestEnv,
  token: string,
  list: (term: string) => string,
  table: string,
  column: string,
  idOf: (row: any) => number,
) {
  for (const term of TERMS) {
    const got = (await env.json(list(encodeURIComponent(term)), { token })).results.map(idOf)
      .sort((a: number, b: number) => a - b);
    const expected = await byLike(env, table, column, term);
    assert.deepEqual([...new Set(got)], expected, `${table}.${column} contains "${term}"`);
  }
  // FTS5's own check that the trigram index holds exactly what the table holds.
  await env.tenant.client.execute(
    `INSERT INTO ${table}_fts(${table}_fts, rank) VALUES ('integrity-check', 1)`,
  );
}

Deno.test("ticket search - ticket and invoice numbers through the trigram index, LIKE's results exactly, kept in step", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const customer = await makeCompany(env.tenant.db, { company_type: "customer_company" });
    for (const [i, v] of VALUES.entries()) {
      await makeTicket(env.tenant.db, {
        customer_id: customer.id,
        ticket_number: v,
        invoice_number: i % 3 ? `INV ${VALUES[(i + 2) % VALUES.length]}` : null,
      });
    }
    const list = (param: string) => (term: string) =>
      `/api/sales/tickets?ticketFlowFilter=ALL&showInvoiced=true&rowsPerPage=-1&${param}=${term}`;
    const id = (r: { id: number }) => r.id;
    await check(env, token, list("search_ticket_number"), "tickets", "ticket_number", id);
    await check(env, token, list("search_invoice_number"), "tickets", "invoice_number", id);
    // Renumbered, invoiced and deleted tickets: the triggers keep the index in step.
    await env.tenant.client.executeMultiple(`
      update tickets set ticket_number = 'RENUMBERED-' || id where id % 2 = 0;
      update tickets set invoice_number = 'INV-NEW-' || id where invoice_number is null;
      delete from tickets where id = (select max(id) from tickets);`);
    await check(env, token, list("search_ticket_number"), "tickets", "ticket_number", id);
    await check(env, token, list("search_invoice_number"), "tickets", "invoice_number", id);
    assert.equal((await env.json(list("search_ticket_number")("renumbered"), { token })).total, 3);
  }));

Deno.test("job search - job numbers through the trigram index, LIKE's results exactly, kept in step", () =>
  withEnv(async (env) => {
    const token = await env.login();
    for (const v of VALUES) await makeJob(env.tenant.db, { job_number: v });
    const list = (term: string) => `/api/pt/jobs?rowsPerPage=-1&search_job_number=${term}`;
    const id = (r: { id: number }) => r.id;
    await check(env, token, list, "jobs", "job_number", id);
    await env.tenant.client.executeMultiple(`
      update jobs set job_number = 'RENUMBERED-' || id where id % 2 = 0;
      delete from jobs where id = (select max(id) from jobs);`);
    await check(env, token, list, "jobs", "job_number", id);
    assert.equal((await env.json(list("renumbered"), { token })).total, 3);
  }));

Deno.test("sales data search - a serial through inventory's suffix index: LIKE's lines exactly", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const ticket = await makeTicket(env.tenant.db);
    for (const v of VALUES) {
      const row = await makeInventory(env.tenant.db, { serial_number: v });
      for (let i = 0; i < 2; i++) {
        await makeLine(env.tenant.db, { ticket_id: ticket.id, inventory_id: row.id });
      }
    }
    // A broad term ("LK-": most lines) is paged by walking the lines in order, a narrow one by its matches.
    for (let i = 0; i < 30; i++) {
      const row = await makeInventory(env.tenant.db, { serial_number: `BULK-${i}` });
      await makeLine(env.tenant.db, {
        ticket_id: ticket.id,
        inventory_id: row.id,
        start_date: i % 4 ? `2024-01-${String(1 + (i % 9)).padStart(2, "0")}T08:00:00Z` : null,
      });
    }
    for (const term of [...TERMS, "LK-", "bulk-1", "K"]) {
      const expected = await env.tenant.client.execute({
        sql: `select s.id from sales s join inventory i on i.id = s.inventory_id
              where i.serial_number like ? escape '\\' order by s.start_date desc, s.id desc`,
        args: [like(term)],
      });
      const paged: number[] = [];
      for (let page = 1; page <= Math.ceil(expected.rows.length / 10); page++) {
        const url = `/api/sales/sales?page=${page}&rowsPerPage=10&serial_number=${encodeURIComponent(term)}`;
        paged.push(...(await env.json(url, { token })).results.map((r: { id: number }) => r.id));
      }
      assert.deepEqual(paged, expected.rows.map((x) => Number(x.id)), `pages of serial contains "${term}"`);
    }
    for (const term of TERMS) {
      const got =
        (await env.json(`/api/sales/sales?page=-1&serial_number=${encodeURIComponent(term)}`, { token }))
          .results.map((r: { id: number }) => r.id).sort((a: number, b: number) => a - b);
      const r = await env.tenant.client.execute({
        sql: `select s.id from sales s join inventory i on i.id = s.inventory_id
              where i.serial_number like ? escape '\\' order by s.id`,
        args: [like(term)],
      });
      assert.deepEqual(got, r.rows.map((x) => Number(x.id)), `serial contains "${term}"`);
    }
  }));

Deno.test("inventory search - a serial's pages, read from its matches or walked in the list's order, are the list's", () =>
  withEnv(async (env) => {
    const token = await env.login();
    // 40 serials of one kind and 10 others: "bulk" and "bulk-1" match enough rows that a page walks the
    // list's order (walkFindsSoon), "bulk-39" so few that its one match is read directly.
    for (let i = 0; i < 40; i++) {
      await makeInventory(env.tenant.db, { serial_number: `BULK-${i}`, quantity: i % 7 });
    }
    for (let i = 0; i < 10; i++) await makeInventory(env.tenant.db, { serial_number: `OTHER-${i}` });
    for (const term of ["bulk", "bulk-1", "bulk-39", "other-", "nope"]) {
      const matched = (await byLike(env, "inventory", "serial_number", term)).length;
      for (const sortBy of INVENTORY_SORTS) {
        for (const descending of [false, true]) {
          const list =
            `/api/sales/inventory?search_serial_number=${term}&sortBy=${sortBy}&descending=${descending}`;
          // The whole list at once is never walked: the order every page must follow.
          const all = (await env.json(`${list}&rowsPerPage=-1`, { token })).results.map((r: { id: number }) =>
            r.id
          );
          assert.equal(all.length, matched, `${term} by ${sortBy}: LIKE's rows`);
          const paged: number[] = [];
          for (let page = 1; page <= Math.ceil(matched / 5); page++) {
            const got = await env.json(`${list}&page=${page}&rowsPerPage=5`, { token });
            assert.equal(got.total, matched, `${term} by ${sortBy}: the total`);
            paged.push(...got.results.map((r: { id: number }) => r.id));
          }
          assert.deepEqual(paged, all, `${term} by ${sortBy}${descending ? " descending" : ""}: pages`);
        }
      }
    }
  }));

Deno.test("contains-searches of 3+ characters read the trigram index (serials: their suffix index), not every row", () =>
  withEnv(async (env) => {
    const token = await env.login();
    for (const v of VALUES) {
      await makeJob(env.tenant.db, { job_number: v });
      await makeLine(env.tenant.db, {
        ticket_id: (await makeTicket(env.tenant.db, { ticket_number: v })).id,
        inventory_id: (await makeInventory(env.tenant.db, { serial_number: v })).id,
      });
    }
    // Enough rows that reading every one costs more than the index (the planner weighs both).
    for (
      const [table, column] of [["jobs", "job_number"], ["tickets", "ticket_number"], [
        "inventory",
        "serial_number",
      ]]
    ) {
      const cols = (await env.tenant.client.execute(`select name from pragma_table_info('${table}')`)).rows
        .map((r) => String(r.name)).filter((c) => c !== "id");
      const values = cols.map((c) =>
        c === column ? `'FILL-' || n` : c === "invoice_number" ? "null" : `"${c}"`
      );
      await env.tenant.client.execute(
        `insert into ${table} (${cols.map((c) => `"${c}"`).join(", ")})
         with recursive k(n) as (select 1 union all select n + 1 from k where n < 2000)
         select ${values.join(", ")} from k, (select * from ${table} order by id limit 1)`,
      );
    }
    await env.tenant.client.execute(
      `insert into sales (company_id, ticket_id, inventory_id, start_date)
       select company_id, ticket_id, inventory_id + k.n % 5, start_date from sales,
       (with recursive k(n) as (select 1 union all select n + 1 from k where n < 300) select n from k) k`,
    );
    await env.tenant.client.execute("ANALYZE");
    const client = env.tenant.client;
    const execute = client.execute.bind(client);
    const seen: { sql: string; args: unknown[] }[] = [];
    client.execute = ((stmt: { sql: string; args: unknown[] }) => {
      // The searches: a LIKE (checked through a trigram index), or the serials' suffix index alone.
      if (typeof stmt === "object" && /like|inventory_serial_suffixes/.test(stmt.sql)) seen.push(stmt);
      return execute(stmt as never);
    }) as typeof client.execute;
    try {
      for (
        const url of [
          "/api/sales/tickets?ticketFlowFilter=ALL&search_ticket_number=04233",
          "/api/sales/tickets?ticketFlowFilter=ALL&search_invoice_number=04233",
          "/api/pt/jobs?search_job_number=04233",
          "/api/sales/sales?serial_number=04233",
        ]
      ) {
        seen.length = 0;
        await env.json(url, { token });
        assert.ok(seen.length >= 1, url);
        for (const s of seen) {
          const plan = (await execute({ sql: `explain query plan ${s.sql}`, args: s.args as never }))
            .rows.map((r) => String(r.detail)).join("\n");
          const index = url.includes("serial_number")
            ? /SEARCH inventory_serial_suffixes USING PRIMARY KEY \(suffix>\? AND suffix<\?\)/
            : /_fts VIRTUAL TABLE/;
          assert.match(plan, index, `${url}\n${s.sql}\n${plan}`);
          // (A walk of the lines in the page's order, checking each against the rows found, is no scan.)
          assert.doesNotMatch(
            plan,
            /^SCAN (tickets|jobs|inventory)\b|^SCAN sales$/m,
            `${url}\n${s.sql}\n${plan}`,
          );
        }
      }
    } finally {
      client.execute = execute;
    }
  }));
