import assert from "node:assert/strict";
import { withEnv } from "../../../scripts/testing/harness.ts";
import { makeCategory, makeCompany, makeLine, makeTicket } from "../../../db/factories.ts";
import { makeItemOf, makeRow, planOf, recordingCtx } from "../inventory/test_fixtures.ts";
import type { InStatement } from "@libsql/client";
import { isFileClient } from "../../../db/sqlite_client.ts";
import { loadSessionUser } from "../../auth/service.ts";
import type { Ctx } from "../../lib/context.ts";
import { SALES_SORTS, SalesListQuery } from "./schemas.ts";
import { invoiceAndOpenTicket } from "./line_fixtures.ts";
import { listSales, salesInOrder } from "./list.ts";

Deno.test("sales data download - read a page at a time from where the last ended, it is the list's own order", () =>
  withEnv(async (env) => {
    const db = env.tenant.db;
    const { row, invoice, open } = await invoiceAndOpenTicket(env);
    // ties, nulls and two tickets, so every phase and tie-break of the keyset is walked across page ends
    for (let i = 0; i < 61; i++) {
      await makeLine(db, {
        ticket_id: i % 3 ? invoice.id : open.id,
        inventory_id: row.id,
        start_date: i % 7 === 0 ? null : `2024-04-${String(1 + (i % 5)).padStart(2, "0")}T08:00:00Z`,
        end_date: i % 4 === 0 ? null : `2024-05-${String(1 + (i % 3)).padStart(2, "0")}T08:00:00Z`,
        price: i % 6,
        quantity: 1 + (i % 2),
        discount: i % 5 === 0 ? null : i % 4,
        duration: 1,
      });
    }
    const { user } = (await loadSessionUser(db, 1))!;
    const ctx: Ctx = { tdb: env.tenant, db, user, config: env.services.config };
    const cases = [
      {},
      { isInvoice: "true", hideQuotes: "true" },
      { sortBy: "end_date" },
      { sortBy: "end_date", descending: "true" },
      { sortBy: "start_date" },
      { sortBy: "discount", descending: "true" },
      { sortBy: "discount" },
      { sortBy: "price", descending: "true" },
      { sortBy: "duration" },
      { sortBy: "customer" },
    ];
    for (const c of cases) {
      const q = SalesListQuery.parse({ ...c, page: 1, rowsPerPage: 50 });
      const expected = (await listSales(ctx, { ...q, page: -1, rowsPerPage: -1 })).results.map((r) => r.id);
      assert.ok(expected.length >= 40, JSON.stringify(c));
      for (const size of [1, 7, 20, 61, 100]) {
        const got: number[] = [];
        for await (const id of await salesInOrder(ctx, q, (r) => r.id, size)) got.push(id);
        assert.deepEqual(got, expected, `${JSON.stringify(c)} in pages of ${size}`);
      }
    }
  }));

Deno.test("sales data - sorts on the ticket or stock walk the parent in order: pages join up to the whole list, in key order", () =>
  withEnv(async (env) => {
    const db = env.tenant.db;
    const names = ["beta Rentals", "Acme Drilling", "Zeta Oil", "acme drilling"];
    const customers = [];
    for (const name of names) {
      customers.push(await makeCompany(db, { company_type: "customer_company", name }));
    }
    const item = await makeItemOf(env, "Serialized", { item_number: "PV2", item_description: "Plug valve" });
    const rows = [];
    for (const serial of ["pv-3", "PV-1", "PV-2", "Pv-10"]) {
      rows.push(await makeRow(env, { item_id: item.id, serial_number: serial, quantity: 1 }));
    }
    for (let t = 0; t < 9; t++) {
      const ticket = await makeTicket(db, {
        customer_id: customers[t % 4].id,
        ...(t % 3
          ? {
            status: "APP",
            isInvoice: true,
            invoice_number: `INV-${9 - t}`,
            invoice_date: `2024-0${1 + (t % 4)}-10`,
          }
          : {}),
      });
      for (let l = 0; l < 1 + (t % 4); l++) {
        await makeLine(db, {
          ticket_id: ticket.id,
          inventory_id: rows[(t + l) % 4].id,
          order: 3 - l,
          price: 1,
        });
      }
    }
    const { user } = (await loadSessionUser(db, 1))!;
    const ctx: Ctx = { tdb: env.tenant, db, user, config: env.services.config };
    const keyOf: Record<
      string,
      (r: Awaited<ReturnType<typeof listSales>>["results"][number]) => string | null
    > = {
      ticket_number: (r) => r.ticket.ticket_number,
      invoice_number: (r) => r.ticket.invoice_number,
      invoice_date: (r) => r.ticket.invoice_date,
      customer: (r) => r.customer.name.toLowerCase(),
      serial_number: (r) => r.sales_inventory.serial_number?.toLowerCase() ?? null,
    };
    for (const [sortBy, key] of Object.entries(keyOf)) {
      for (const descending of [false, true]) {
        const q = SalesListQuery.parse({ sortBy, descending: String(descending), page: 1, rowsPerPage: 10 });
        const all = (await listSales(ctx, { ...q, page: -1, rowsPerPage: -1 })).results;
        assert.equal(all.length, 21);
        const paged = [];
        for (let page = 1; page <= 3; page++) paged.push(...(await listSales(ctx, { ...q, page })).results);
        assert.deepEqual(
          paged.map((r) => r.id),
          all.map((r) => r.id),
          `${sortBy} ${descending}: pages join up`,
        );
        const keys = all.map(key);
        // SQLite's order: nulls first ascending, last descending
        const rank = (k: string | null) => (k === null ? "" : "\u0001" + k);
        const sorted = [...keys].sort((a, b) => rank(a) < rank(b) ? -1 : rank(a) > rank(b) ? 1 : 0);
        assert.deepEqual(
          keys,
          descending ? sorted.reverse() : sorted,
          `${sortBy} ${descending}: in key order`,
        );
      }
    }
  }));

Deno.test("sales data - no sort reads every line into a temporary sort: only the page's rows are sorted", () =>
  withEnv(async (env) => {
    const { user } = (await loadSessionUser(env.tenant.db, 1))!;
    const sorts = [undefined, ...SALES_SORTS.filter((s) => !JOINED_ONLY.has(s))];
    for (const sortBy of sorts) {
      for (const filter of [{}, { isInvoice: "true", hideQuotes: "true" }]) {
        const log: InStatement[] = [];
        const q = SalesListQuery.parse({ ...filter, sortBy, page: 3, rowsPerPage: 50 });
        await listSales(recordingCtx(env, user, log), q);
        const page = log.find((s) => /\blimit\b/i.test(typeof s === "string" ? s : s.sql))!;
        const plan = await planOf(env, page);
        const text = plan.map((l) => l.detail).join("\n");
        for (const l of plan.filter((l) => /TEMP B-TREE/.test(l.detail))) {
          assert.equal(
            l.parent,
            0,
            `${sortBy} ${JSON.stringify(filter)}: a sort inside the ids' subquery:\n${text}`,
          );
        }
      }
    }
  }));

Deno.test("sales data download - a sort through names is walked once by a cursor, never by OFFSET pages, in the list's order", () =>
  withEnv(async (env) => {
    const db = env.tenant.db;
    const unit = await makeCategory(db, { model: "Business Unit", name: "Rentals" });
    const customers = [];
    for (const name of ["beta Rentals", "Acme Drilling", "acme drilling"]) {
      customers.push(await makeCompany(db, { company_type: "customer_company", name }));
    }
    const item = await makeItemOf(env, "Serialized", { item_number: "PV2", item_description: "Plug valve" });
    const rows = [];
    for (const serial of ["pv-3", "PV-1", "Pv-10"]) {
      rows.push(await makeRow(env, { item_id: item.id, serial_number: serial, quantity: 1 }));
    }
    for (let t = 0; t < 12; t++) {
      const ticket = await makeTicket(db, {
        customer_id: customers[t % 3].id,
        business_unit_id: t % 2 ? unit.id : null,
        ...(t % 3
          ? {
            status: "APP",
            isInvoice: true,
            invoice_number: `INV-${(t * 7) % 12}`,
            invoice_date: "2024-01-10",
          }
          : {}),
      });
      for (let l = 0; l < 1 + (t % 4); l++) {
        await makeLine(db, {
          ticket_id: ticket.id,
          inventory_id: rows[(t + l) % 3].id,
          order: 3 - l,
          price: 1,
        });
      }
    }
    const { user } = (await loadSessionUser(db, 1))!;
    const ctx: Ctx = { tdb: env.tenant, db, user, config: env.services.config };
    const token = await env.login();
    const own = new Set([
      "start_date",
      "end_date",
      "quantity",
      "minimum_rate",
      "price",
      "discount",
      "duration",
    ]);
    for (const sortBy of SALES_SORTS.filter((s) => !own.has(s))) {
      for (const descending of ["false", "true"]) {
        for (const filter of [{}, { isInvoice: "true", hideQuotes: "true" }]) {
          const q = SalesListQuery.parse({ ...filter, sortBy, descending, page: 1, rowsPerPage: 10 });
          const expected = (await listSales(ctx, { ...q, page: -1, rowsPerPage: -1 })).results.map((r) =>
            r.id
          );
          assert.ok(expected.length >= 10, `${sortBy} ${descending} ${JSON.stringify(filter)}`);
          const log: InStatement[] = [];
          const got: number[] = [];
          for await (const id of await salesInOrder(recordingCtx(env, user, log), q, (r) => r.id, 4)) {
            got.push(id);
          }
          assert.deepEqual(got, expected, `${sortBy} ${descending} ${JSON.stringify(filter)}`);
          const query = new URLSearchParams({
            ...filter as Record<string, string>,
            sortBy,
            descending,
            page: "-1",
          });
          const all = await env.json(`/api/sales/sales?${query}`, { token });
          assert.deepEqual(all.results.map((r: { id: number }) => r.id), expected, `page=-1 ${query}`);
          assert.equal(all.total, expected.length, `page=-1 ${query}: the total`);
          // A page read (limit and offset) is the OFFSET walk; the walk's own reads are by id.
          const pages = log.filter((s) => /\blimit\b/i.test(typeof s === "string" ? s : s.sql));
          // A remote database has no cursor: there the download reads OFFSET pages (`idsInSteps`).
          assert.equal(
            pages.length > 0,
            !isFileClient(env.tenant.client),
            `${sortBy} ${descending}: read by OFFSET pages`,
          );
        }
      }
    }
  }));

/** Sorts on the item's fields: still a joined sort. */
const JOINED_ONLY = new Set(["item_number", "item_description"]);
