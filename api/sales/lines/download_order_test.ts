import assert from "node:assert/strict";
import { withEnv } from "../../../scripts/testing/harness.ts";
import { makeCompany, makeLine, makeTicket } from "../../../db/factories.ts";
import { makeItemOf, makeRow } from "../inventory/test_fixtures.ts";
import { loadSessionUser } from "../../auth/service.ts";
import type { Ctx } from "../../lib/context.ts";
import { SalesListQuery } from "./schemas.ts";
import { listSales, salesInOrder } from "./list.ts";

Deno.test("sales data download - read a page at a time from where the last ended, it is the list's own order", () =>
  withEnv(async (env) => {
    const db = env.tenant.db;
    const customer = await makeCompany(db, { company_type: "customer_company", name: "Acme Drilling" });
    const item = await makeItemOf(env, "Itemized", { item_number: "SW3", item_description: "Swivel" });
    const row = await makeRow(env, { item_id: item.id, serial_number: "SW-A", quantity: 10_000 });
    const invoice = await makeTicket(db, {
      customer_id: customer.id,
      status: "APP",
      isInvoice: true,
      invoice_number: "INV-00001",
      invoice_date: "2024-04-10",
    });
    const open = await makeTicket(db, { customer_id: customer.id });
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
