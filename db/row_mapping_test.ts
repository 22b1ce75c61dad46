import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { aliasedTable, count, eq, sql } from "drizzle-orm";
import { withEnv } from "../scripts/testing/harness.ts";
import { makeCompany, makeInventory, makeLine, makeTicket } from "./factories.ts";
import { companies, files, inventory, items, sales, tickets, users } from "./schema/mod.ts";
import {
  drizzleMapAll,
  drizzleMapGet,
  plannedMapAll,
  plannedMapGet,
  type PreparedQuery,
} from "./row_mapping.ts";

interface Preparable {
  prepare(): {
    values(): Promise<unknown[]>;
    mapAllResult: unknown;
    mapGetResult: unknown;
  };
}

/** The planned mapping is installed, and gives what drizzle's own gives for the same raw rows. */
async function same(name: string, query: Preparable, expectRows: number) {
  const prepared = query.prepare() as ReturnType<Preparable["prepare"]> & PreparedQuery;
  assert.notEqual(prepared.mapAllResult, drizzleMapAll, "the planned mapping is installed");
  assert.notEqual(prepared.mapGetResult, drizzleMapGet);
  const raw = await prepared.values();
  assert.equal(raw.length, expectRows, `${name}: rows`);
  assert.deepEqual(plannedMapAll.call(prepared, raw), drizzleMapAll.call(prepared, raw), `${name}: all`);
  assert.deepEqual(plannedMapGet.call(prepared, raw), drizzleMapGet.call(prepared, raw), `${name}: get`);
  // The same keys in the same order (what a client reads off the wire).
  assert.equal(
    JSON.stringify(plannedMapAll.call(prepared, raw)),
    JSON.stringify(drizzleMapAll.call(prepared, raw)),
    `${name}: key order`,
  );
  // As a batch result too.
  assert.deepEqual(
    plannedMapAll.call(prepared, { rows: raw }, true),
    drizzleMapAll.call(prepared, { rows: raw }, true),
  );
}

Deno.test("row mapping - planned once per query, the same objects as drizzle's for joins, nulls, decoders and blobs", () =>
  withEnv(async (env) => {
    const db = env.tenant.db;
    const customer = await makeCompany(db, {
      company_type: "customer_company",
      settings: { timeZone: "UTC" },
    });
    const [admin] = await db.select().from(users).limit(1);
    const withRep = await makeTicket(db, {
      customer_id: customer.id,
      sales_rep_id: admin.id,
      isInvoice: true,
    });
    const noRep = await makeTicket(db, { customer_id: customer.id });
    const stock = await makeInventory(db);
    await makeLine(db, { ticket_id: withRep.id, inventory_id: stock.id });
    await makeLine(db, { ticket_id: noRep.id, inventory_id: stock.id, price: 12.5 });
    await db.insert(files).values({
      sha256: "ab".repeat(32),
      name: "a.pdf",
      content_type: "application/pdf",
      size: 3,
      data: Buffer.from([1, 2, 3]),
    });
    const reps = aliasedTable(users, "reps");

    // Whole tables, a left join that finds nothing for one row (its object is null).
    await same(
      "whole tables",
      db.select().from(tickets).innerJoin(companies, eq(companies.id, tickets.customer_id))
        .leftJoin(reps, eq(reps.id, tickets.sales_rep_id)).orderBy(tickets.id),
      2,
    );
    // Nested partial selections, booleans, JSON, computed fields with their own decoders.
    await same(
      "nested",
      db.select({
        id: sales.id,
        price: sales.price,
        doubled: sql<number>`${sales.price} * 2`.mapWith(Number),
        ticket: { id: tickets.id, isInvoice: tickets.isInvoice, number: tickets.ticket_number },
        customer: { name: companies.name, settings: companies.settings },
        rep: { id: reps.id, email: reps.email },
        stock: { id: inventory.id, description: items.item_description },
        lines: sql<string>`(select count(*) from ${sales} s2 where s2.ticket_id = ${tickets.id})`,
      }).from(sales)
        .innerJoin(tickets, eq(tickets.id, sales.ticket_id))
        .innerJoin(companies, eq(companies.id, tickets.customer_id))
        .leftJoin(reps, eq(reps.id, tickets.sales_rep_id))
        .innerJoin(inventory, eq(inventory.id, sales.inventory_id))
        .innerJoin(items, eq(items.id, inventory.item_id))
        .orderBy(sales.id),
      2,
    );
    // An object of two tables, one left joined and missing: drizzle keeps it (its first column decides only
    // while every column is of that one table); the same for a missing table after a present one.
    await same(
      "mixed tables",
      db.select({
        id: sales.id,
        who: { rep: reps.id, ticket: tickets.id },
        whom: { ticket: tickets.id, rep: reps.email },
        rep: { email: reps.email, id: reps.id },
      }).from(sales)
        .innerJoin(tickets, eq(tickets.id, sales.ticket_id))
        .leftJoin(reps, eq(reps.id, tickets.sales_rep_id))
        .orderBy(sales.id),
      2,
    );
    // A blob column (a Buffer), an aggregate, and a query that finds nothing.
    await same("blob", db.select().from(files), 1);
    await same("count", db.select({ n: count() }).from(sales), 1);
    await same("none", db.select().from(sales).where(eq(sales.id, -1)), 0);

    // Through the driver, as the app calls it.
    const [line] = await db.select({ id: sales.id, rep: { id: reps.id } }).from(sales)
      .innerJoin(tickets, eq(tickets.id, sales.ticket_id)).leftJoin(reps, eq(reps.id, tickets.sales_rep_id))
      .where(eq(sales.ticket_id, noRep.id));
    assert.equal(line.rep, null, "a left join that found nothing is null");
    const file = await db.select().from(files).get();
    assert.ok(Buffer.isBuffer(file!.data) && file!.data.equals(Buffer.from([1, 2, 3])));
    const company = await db.select({ settings: companies.settings }).from(companies)
      .where(eq(companies.id, customer.id)).get();
    assert.deepEqual(company, { settings: { timeZone: "UTC" } });
  }));
