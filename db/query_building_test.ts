import assert from "node:assert/strict";
import { and, eq, inArray, like, sql } from "drizzle-orm";
import { withEnv } from "../scripts/testing/harness.ts";
import { seedDemo } from "../scripts/demo.ts";
import { assertSameQuery, drizzleBuild, plannedBuild, shadowQueryBuilding } from "./query_building.ts";
import { shadowRowMapping } from "./row_mapping.ts";
import { companies, items, sales, tickets, users } from "./schema/mod.ts";
import { drizzle } from "drizzle-orm/libsql";
import { alias } from "drizzle-orm/sqlite-core";
import { SALES_SORTS } from "../api/sales/lines/schemas.ts";
import { TICKET_SORTS } from "../api/sales/tickets/schemas.ts";
import { INVENTORY_SORTS } from "../api/sales/inventory/schemas.ts";
import { INSPECTION_SORTS } from "../api/pt/inspections/schemas.ts";
import { JOB_SORTS } from "../api/pt/jobs/schemas.ts";
import { AUDIT_SORTS } from "../api/sales/audit/schemas.ts";

Deno.test("query building - drizzle's text, parameters and numbering for nested, inlined and listed chunks", () => {
  const statements = [
    sql`select ${items.id}, ${sql`${items.item_number} || ${"-x"}`} from ${items} where ${
      and(eq(items.id, 3), like(items.item_description, "%a'b%"), inArray(items.id, [1, 2, 3]))
    }`,
    sql`select ${sql`${"inline 'q'"}`.inlineParams()}, ${[1, "two", null]}, ${sql.identifier('we"ird')}`,
    sql`update ${sales} set price = ${12.5} where ${sales.ticket_id} in (select ${tickets.id} from ${tickets})`,
    sql.join([sql`a = ${1}`, undefined, sql`b = ${true}`], sql` and `),
  ];
  const config = () => ({
    casing: { getColumnCasing: (c: { name: string }) => c.name },
    escapeName: (n: string) => `"${n.replace(/"/g, '""')}"`,
    escapeParam: (i: number) => `$${i}`,
    escapeString: (s: string) => `'${s.replace(/'/g, "''")}'`,
    paramStartIndex: { value: 0 },
  });
  for (const s of statements) {
    const ours = config();
    const theirs = config();
    const chunks = (s as unknown as { queryChunks: unknown[] }).queryChunks;
    // drizzle's own recursion calls the prototype's method: compare with drizzle's throughout.
    shadowQueryBuilding(true);
    let expected;
    try {
      expected = drizzleBuild.call(s, chunks, theirs);
    } finally {
      shadowQueryBuilding(false);
    }
    const got = plannedBuild.call(s, chunks, ours);
    assertSameQuery(got, expected, ours.paramStartIndex.value, theirs.paramStartIndex.value);
  }
  // A difference is seen.
  assert.throws(() => assertSameQuery({ sql: "a", params: [1] }, { sql: "a", params: ["1"] }));
});

Deno.test("query building and row mapping - every statement and result of the lists, downloads and saves is drizzle's", () =>
  withEnv(async (env) => {
    await seedDemo(env.tenant.db, { scryptN: 1024 });
    const token = await env.login();
    shadowQueryBuilding(true);
    shadowRowMapping(true);
    try {
      const lists: [string, readonly string[], string][] = [
        ["/api/sales/sales?isInvoice=true&hideQuotes=true", SALES_SORTS, "serial_number=1"],
        ["/api/sales/tickets?showInvoiced=true", TICKET_SORTS, "search_ticket_number=1"],
        ["/api/sales/inventory?inventory_type=Serialized", INVENTORY_SORTS, "search_serial_number=1"],
        ["/api/pt/inspections?", INSPECTION_SORTS, "search_serial_number=1"],
        ["/api/pt/jobs?", JOB_SORTS, "search_job_number=1"],
        ["/api/sales/audit/inventory-rows?", AUDIT_SORTS, "serial_number=1"],
      ];
      for (const [path, sorts, search] of lists) {
        const sep = path.endsWith("?") ? "" : "&";
        await env.json(`${path}${sep}page=1&rowsPerPage=10`, { token });
        await env.json(`${path}${sep}page=2&rowsPerPage=10&${search}`, { token });
        for (const s of sorts) await env.json(`${path}${sep}sortBy=${s}&descending=true`, { token });
        if (path.startsWith("/api/sales/tickets")) continue; // tickets have no download
        const res = await env.request(`${path.replace("?", "/download?")}${sep}page=-1`, { token });
        assert.equal(res.status, 200, path);
        await res.arrayBuffer();
      }
      // A column of a table the query does not join: the same error both ways.
      assert.throws(
        () => env.tenant.db.select({ id: sales.id, item: items.item_number }).from(sales).toSQL(),
        /field references a column "items"."item_number", but the table "items" is not part of the query/,
      );
      // A line saved on an open ticket (reads, the line, its hold and audit), then the ticket's screen.
      const pair = (await env.tenant.client.execute(`
        select t.id as ticket_id, min(i.id) as inventory_id from tickets t
        join inventory i on i.business_unit_id = t.business_unit_id
        join items it on it.id = i.item_id and it.inventory_type = 'Charge Code'
        where t.status = 'OPEN' and t.is_quote = 0 group by t.id order by t.id limit 1`)).rows[0];
      assert.ok(pair, "the demo has an open ticket with a charge code of its unit");
      const saved = await env.json("/api/sales/sales", {
        token,
        method: "POST",
        json: { ticket_id: Number(pair.ticket_id), inventory_id: Number(pair.inventory_id), quantity: 1 },
      });
      assert.ok(saved.id);
      const ticket = await env.json(`/api/sales/tickets/${pair.ticket_id}`, { token });
      assert.equal(ticket.id, Number(pair.ticket_id));
      const lines = await env.json(`/api/sales/sales?ticket_id=${pair.ticket_id}`, { token });
      assert.ok(lines.results.some((l: { id: number }) => l.id === saved.id));
    } finally {
      shadowQueryBuilding(false);
      shadowRowMapping(false);
    }
  }));

Deno.test("query building - a whole-number LIMIT is written into the text, the OFFSET and any other limit stay parameters", () =>
  withEnv(async (env) => {
    await seedDemo(env.tenant.db, { scryptN: 1024 });
    const db = env.tenant.db;
    const page = db.select({ id: items.id }).from(items).orderBy(items.id).limit(3).offset(2);
    const q = page.toSQL();
    assert.match(q.sql, / limit 3 offset \?$/);
    assert.deepEqual(q.params, [2]);
    // Inside a subquery too (a list's deferred join), and with the same rows as bound values give.
    const outer = db.select({ id: items.id }).from(items).where(inArray(items.id, page)).orderBy(items.id);
    assert.match(outer.toSQL().sql, /in \(select .* limit 3 offset \?\)/);
    const all = (await env.tenant.client.execute("select id from items order by id")).rows.map((r) =>
      Number(r.id)
    );
    assert.ok(all.length > 5, "the demo has items");
    assert.deepEqual((await outer).map((r) => r.id), all.slice(2, 5));
    // Not a whole number (never from a validated page size): drizzle's own bound parameter.
    for (const odd of [2.5, Number.MAX_SAFE_INTEGER + 2]) {
      const t = db.select({ id: items.id }).from(items).limit(odd).toSQL();
      assert.match(t.sql, / limit \?$/);
      assert.deepEqual(t.params, [odd]);
    }
    // No limit at all (a download's page=-1): none in the text.
    assert.doesNotMatch(db.select({ id: items.id }).from(items).limit(-1).toSQL().sql, /limit/);
  }));

Deno.test("query building - joins built once per condition read the same as drizzle's, whatever else varies", () => {
  const db = drizzle(":memory:" as never);
  const reps = alias(users, "reps");
  const on = eq(companies.id, tickets.customer_id);
  const statements = () => [
    db.select({ id: tickets.id }).from(tickets).innerJoin(companies, on),
    db.select({ id: tickets.id }).from(tickets).leftJoin(companies, on).leftJoin(
      reps,
      eq(reps.id, tickets.id),
    ),
    db.select({ id: tickets.id, c: companies.name }).from(tickets).innerJoin(companies, on).where(
      eq(tickets.id, 3),
    ),
  ];
  // Built twice: the second time from the kept joins; each compared with drizzle's own building.
  for (let round = 0; round < 2; round++) {
    for (const s of statements()) {
      const got = s.toSQL();
      shadowQueryBuilding(true);
      try {
        assert.deepEqual(s.toSQL(), got);
      } finally {
        shadowQueryBuilding(false);
      }
    }
  }
});
