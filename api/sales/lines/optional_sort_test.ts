import assert from "node:assert/strict";
import type { InStatement } from "@libsql/client";
import { analyzeForPlans, withEnv } from "../../../scripts/testing/harness.ts";
import { makeCategory, makeCompany, makeLine, makeTicket, makeUser } from "../../../db/factories.ts";
import { sub_categories } from "../../../db/schema/mod.ts";
import { makeItemOf, makeRow, planOf, recordingCtx } from "../inventory/test_fixtures.ts";
import { loadSessionUser } from "../../auth/service.ts";
import { SalesListQuery } from "./schemas.ts";
import { listSales } from "./list.ts";
import type { TestEnv } from "../../../scripts/testing/harness.ts";

const OPTIONAL = {
  business_unit: { table: "categories", key: "business_unit_id" },
  product_line: { table: "categories", key: "product_line_id" },
  sub_product_line: { table: "sub_categories", key: "sub_product_line_id" },
  sales_rep: { table: "users", key: "sales_rep_id" },
} as const;

/**
 * Tickets whose optional unit, product line, sub product line and rep are missing, shared, or named alike
 * but for case (a tie of the sort), some invoices and some quotes; lines in and out of their `order`.
 */
async function seed(env: TestEnv) {
  const db = env.tenant.db;
  const customer = await makeCompany(db, { company_type: "customer_company", name: "Acme Drilling" });
  const item = await makeItemOf(env, "Itemized", { item_number: "SW3", item_description: "Swivel" });
  const row = await makeRow(env, { item_id: item.id, serial_number: "SW-A", quantity: 10_000 });
  const names = ["beta", "Alpha", "alpha", "Gamma"];
  const unitsOf = [];
  const linesOf = [];
  const subsOf = [];
  const repsOf = [];
  for (const [i, name] of names.entries()) {
    unitsOf.push(
      await makeCategory(db, { model: "Business Unit", name: `${name} unit ${i % 2 ? "" : "x"}` }),
    );
    const pl = await makeCategory(db, { model: "Product Line", name: `${name} line${i}` });
    linesOf.push(pl);
    // Sub product lines are unique only under their product line: two of the same name, two parents.
    subsOf.push(
      (await db.insert(sub_categories).values({ company_id: 1, category_id: pl.id, name }).returning())[0],
    );
    repsOf.push(await makeUser(db, { name: name === "Gamma" ? "alpha" : name, isSalesRep: true }));
  }
  for (let t = 0; t < 20; t++) {
    const pick = <T extends { id: number }>(
      list: T[],
      k: number,
    ) => (t % k === 0 ? null : list[t % list.length].id);
    const ticket = await makeTicket(db, {
      customer_id: customer.id,
      business_unit_id: pick(unitsOf, 5),
      product_line_id: pick(linesOf, 4),
      sub_product_line_id: pick(subsOf, 3),
      sales_rep_id: pick(repsOf, 6),
      ...(t % 3 ? { status: "APP", isInvoice: true, invoice_number: `INV-${t}` } : {}),
      ...(t === 4 ? { isQuote: true, status: "QUOTE" } : {}),
    });
    for (let l = 0; l < 1 + (t % 3); l++) {
      await makeLine(db, { ticket_id: ticket.id, inventory_id: row.id, order: (t + 2 - l) % 3, price: 1 });
    }
  }
  await analyzeForPlans(env);
}

/** The list's order, written the plain way: every line joined, sorted by name, then ticket and place. */
async function reference(env: TestEnv, sort: keyof typeof OPTIONAL, descending: boolean, invoices: boolean) {
  const { table, key } = OPTIONAL[sort];
  const d = descending ? "desc" : "asc";
  const r = await env.tenant.client.execute(
    `select s.id from sales s join tickets t on t.id = s.ticket_id left join ${table} n on n.id = t.${key}
     ${invoices ? "where t.is_invoice = 1 and t.is_quote = 0 and t.status <> 'QUOTE'" : ""}
     order by n.name collate nocase ${d}, n.id ${d}, t.id ${d}, s."order" ${d}, s.id ${d}`,
  );
  return r.rows.map((x) => Number(x.id));
}

Deno.test("sales data - a sort on the ticket's optional unit, product lines or rep: every page in order, the ticketless nulls first ascending and last descending", () =>
  withEnv(async (env) => {
    await seed(env);
    const token = await env.login();
    const { user } = (await loadSessionUser(env.tenant.db, 1))!;
    const ctx = recordingCtx(env, user, []);
    for (const sort of Object.keys(OPTIONAL) as (keyof typeof OPTIONAL)[]) {
      for (const descending of [false, true]) {
        for (const invoices of [false, true]) {
          const expected = await reference(env, sort, descending, invoices);
          assert.ok(expected.length >= 10);
          const qs = `sortBy=${sort}&descending=${descending}` +
            (invoices ? "&isInvoice=true&hideQuotes=true" : "");
          const what = `${sort} descending=${descending} invoices=${invoices}`;
          const all = await env.json(`/api/sales/sales?${qs}&page=-1`, { token });
          assert.deepEqual(all.results.map((r: { id: number }) => r.id), expected, `${what}: page=-1`);
          assert.equal(all.total, expected.length);
          const paged: number[] = [];
          for (let page = 1; page <= Math.ceil(expected.length / 10); page++) {
            const { results, total } = await env.json(`/api/sales/sales?${qs}&page=${page}&rowsPerPage=10`, {
              token,
            });
            assert.equal(total, expected.length);
            paged.push(...results.map((r: { id: number }) => r.id));
          }
          assert.deepEqual(paged, expected, `${what}: pages of 10`);
          // Smaller pages than the table offers, so every page boundary falls inside and across the walks.
          const q = SalesListQuery.parse(Object.fromEntries(new URLSearchParams(qs)));
          for (const size of [1, 3, 7]) {
            const paged: number[] = [];
            for (let page = 1; page <= Math.ceil(expected.length / size) + 1; page++) {
              paged.push(
                ...(await listSales(ctx, { ...q, page, rowsPerPage: size })).results.map((r) => r.id),
              );
            }
            assert.deepEqual(paged, expected, `${what}: pages of ${size}`);
          }
        }
      }
    }
  }));

Deno.test("sales data - the optional sorts walk indexes: no temporary B-tree, no scan of every line", () =>
  withEnv(async (env) => {
    await seed(env);
    const { user } = (await loadSessionUser(env.tenant.db, 1))!;
    for (const sortBy of Object.keys(OPTIONAL)) {
      for (const descending of [false, true]) {
        for (const filter of [{}, { isInvoice: "true", hideQuotes: "true" }]) {
          const log: InStatement[] = [];
          const q = SalesListQuery.parse({ ...filter, sortBy, descending, page: 2, rowsPerPage: 10 });
          await listSales(recordingCtx(env, user, log), q);
          const walks = log.filter((s) => /\blimit\b/i.test(typeof s === "string" ? s : s.sql));
          assert.ok(walks.length >= 1);
          for (const walk of walks) {
            const plan = (await planOf(env, walk)).map((l) => l.detail).join("\n");
            const what = `${sortBy} ${descending} ${JSON.stringify(filter)}:\n${plan}`;
            assert.doesNotMatch(plan, /TEMP B-TREE/, what);
            assert.doesNotMatch(plan, /^SCAN (sales|tickets)\b(?! USING)/m, what);
          }
        }
      }
    }
  }));

Deno.test("sales data - sorts by ticket number, invoice number or date under the invoices filter read the invoices alone", () =>
  withEnv(async (env) => {
    await seed(env);
    const { user } = (await loadSessionUser(env.tenant.db, 1))!;
    for (const sortBy of ["ticket_number", "invoice_number", "invoice_date"]) {
      for (const descending of [false, true]) {
        const log: InStatement[] = [];
        const q = SalesListQuery.parse({
          isInvoice: "true",
          hideQuotes: "true",
          sortBy,
          descending,
          page: 2,
        });
        await listSales(recordingCtx(env, user, log), q);
        const walk = log.find((s) => /\blimit\b/i.test(typeof s === "string" ? s : s.sql))!;
        const plan = (await planOf(env, walk)).map((l) => l.detail).join("\n");
        assert.match(
          plan,
          /^SEARCH tickets USING INDEX tickets_invoice_\w+ \(is_invoice=\?\)/m,
          `${sortBy}:\n${plan}`,
        );
        assert.doesNotMatch(plan, /TEMP B-TREE/, `${sortBy}:\n${plan}`);
      }
    }
  }));

Deno.test("sales data - the default filters are the line's own flags: start order from their index, other sorts from their own, no ticket read", () =>
  withEnv(async (env) => {
    await seed(env);
    const { user } = (await loadSessionUser(env.tenant.db, 1))!;
    for (
      const [sortBy, index] of [
        [undefined, "sales_ticket_flags_start_idx"],
        ["start_date", "sales_ticket_flags_start_idx"],
        ["quantity", "sales_quantity_idx"],
        ["price", "sales_price_idx"],
        ["minimum_rate", "sales_minimum_rate_idx"],
        ["discount", "sales_discount_idx"],
        ["duration", "sales_duration_idx"],
      ]
    ) {
      for (const page of ["1", "2000"]) {
        const log: InStatement[] = [];
        const q = SalesListQuery.parse({
          isInvoice: "true",
          hideQuotes: "true",
          page,
          ...(sortBy ? { sortBy } : {}),
        });
        await listSales(recordingCtx(env, user, log), q);
        const walk = log.find((s) => /\blimit\b/i.test(typeof s === "string" ? s : s.sql))!;
        const plan = (await planOf(env, walk)).map((l) => l.detail).join("\n");
        assert.match(plan, new RegExp(index!), `${sortBy} page ${page}:\n${plan}`);
        // The flags are checked in the index: no line is read from the table to skip it (migration 0031).
        assert.match(plan, new RegExp(`USING COVERING INDEX ${index}`), `${sortBy} page ${page}:\n${plan}`);
        // No probe of each line's ticket, no list of every invoice.
        assert.doesNotMatch(
          plan,
          /CORRELATED|BLOOM FILTER ON tickets|SEARCH tickets USING COVERING/,
          `${sortBy} page ${page}:\n${plan}`,
        );
      }
    }
  }));

Deno.test("sales data - an early page under the invoices filter alone probes each line's ticket by its key, never a join over every invoice", () =>
  withEnv(async (env) => {
    await seed(env);
    const { user } = (await loadSessionUser(env.tenant.db, 1))!;
    for (const sortBy of [undefined, "start_date", "quantity", "price"]) {
      const log: InStatement[] = [];
      const q = SalesListQuery.parse({
        isInvoice: "true",
        ...(sortBy ? { sortBy } : {}),
      });
      await listSales(recordingCtx(env, user, log), q);
      const walk = log.find((s) => /\blimit\b/i.test(typeof s === "string" ? s : s.sql))!;
      const plan = (await planOf(env, walk)).map((l) => l.detail).join("\n");
      // SQLite 3.53 turns a plain EXISTS into a join and builds a Bloom filter over every matching ticket
      // first (8.5 ms for page 1 of the large sales tenant); a probe per line walked is 0.05 ms.
      assert.match(plan, /CORRELATED SCALAR SUBQUERY/, `${sortBy}:\n${plan}`);
      assert.doesNotMatch(plan, /EXISTS USING|BLOOM FILTER ON tickets/, `${sortBy}:\n${plan}`);
    }
  }));
