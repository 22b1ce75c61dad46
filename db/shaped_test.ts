import assert from "node:assert/strict";
import { eq, sql } from "drizzle-orm";
import { analyzeForPlans, withEnv } from "../scripts/testing/harness.ts";
import { makeTicket } from "./factories.ts";
import { companies, tickets, users } from "./schema/mod.ts";
import { drivenByIds, rowsInIdOrder, shaped } from "./shaped.ts";
import type { TenantDatabase } from "./client.ts";

const ON_CUSTOMER = eq(companies.id, tickets.customer_id);
const ON_REP = eq(users.id, tickets.sales_rep_id);
const FIELDS = { ticket: tickets, customer: companies.name, rep: users.name };

let builds = 0;
const built = (db: TenantDatabase) =>
  db.select(FIELDS).from(tickets).innerJoin(companies, ON_CUSTOMER).leftJoin(users, ON_REP)
    .where(eq(tickets.id, sql.placeholder("id")));
const TICKET = shaped((db) => {
  builds++;
  return built(db);
});

Deno.test("shaped statements - built once, the same rows as the statement built each time, on the tenant and inside a transaction", () =>
  withEnv(async (env) => {
    const db = env.tenant.db;
    const a = await makeTicket(db);
    const b = await makeTicket(db);
    const direct = (id: number) =>
      db.select(FIELDS).from(tickets).innerJoin(companies, ON_CUSTOMER).leftJoin(users, ON_REP)
        .where(eq(tickets.id, id));
    assert.deepEqual(await TICKET.get(db, { id: a.id }), await direct(a.id).get());
    assert.deepEqual(await TICKET.all(db, { id: b.id }), await direct(b.id).all());
    assert.equal(await TICKET.get(db, { id: 999_999 }), undefined);
    assert.equal((await TICKET.get(db, { id: b.id }))?.rep, null, "a left join's missing row maps to null");
    // Inside a write transaction: its own connection, so it sees the transaction's uncommitted row.
    let inside: unknown;
    let outside: unknown;
    await env.tenant.write(async (tx) => {
      await tx.update(tickets).set({ notes: "changed in the transaction" }).where(eq(tickets.id, a.id));
      inside = await TICKET.get(tx, { id: a.id });
      outside = await env.tenant.client.execute({
        sql: "select notes from tickets where id = ?",
        args: [a.id],
      });
    });
    assert.equal((inside as { ticket: { notes: string } }).ticket.notes, "changed in the transaction");
    assert.notEqual(
      (outside as { rows: { notes: string }[] }).rows[0].notes,
      "changed in the transaction",
      "not yet committed outside",
    );
    assert.deepEqual(await TICKET.get(db, { id: a.id }), await direct(a.id).get());
    assert.equal(builds, 1, "the statement was built once");
  }));

const BY_IDS = shaped((db) =>
  drivenByIds(db.select({ id: tickets.id, number: tickets.ticket_number }).from(tickets), tickets.id)
);

Deno.test("shaped statements - rows by ids given as one JSON array, in the ids' order, any number of them", () =>
  withEnv(async (env) => {
    const db = env.tenant.db;
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await makeTicket(db));
    const ids = [made[3].id, made[0].id, made[4].id, 999_999, made[1].id];
    const rows = await rowsInIdOrder(BY_IDS, db, ids, (r) => r.id);
    assert.deepEqual(rows.map((r) => r.id), [made[3].id, made[0].id, made[4].id, made[1].id]);
    assert.deepEqual(
      rows.map((r) => r.number),
      [made[3], made[0], made[4], made[1]].map((t) => t.ticket_number),
    );
    assert.deepEqual(await rowsInIdOrder(BY_IDS, db, [], (r) => r.id), []);
    assert.deepEqual((await rowsInIdOrder(BY_IDS, db, [made[2].id], (r) => r.id)).map((r) => r.id), [
      made[2].id,
    ]);
    // Given twice, read once.
    assert.equal((await rowsInIdOrder(BY_IDS, db, [made[2].id, made[2].id], (r) => r.id)).length, 1);
    // The array drives and each row is read by its key, however small the table looks to the planner.
    await analyzeForPlans(env); // statistics (a file; a libSQL server keeps its own)
    const text = drivenByIds(db.select({ id: tickets.id }).from(tickets), tickets.id).toSQL().sql;
    const plan = (await env.tenant.client.execute({ sql: `explain query plan ${text}`, args: ["[1,2]"] }))
      .rows
      .map((r) => String(r.detail));
    assert.match(plan[0], /SCAN wanted/, plan.join("\n"));
    assert.match(plan[1], /SEARCH tickets USING INTEGER PRIMARY KEY/, plan.join("\n"));
  }));
