import assert from "node:assert/strict";
import { eq, sql } from "drizzle-orm";
import { withEnv } from "./testing/harness.ts";
import { seedDemo } from "./demo.ts";
import { describe, type Query, stockViolations } from "./testing/stock_invariant.ts";
import type { TenantDatabase } from "../db/client.ts";
import { inventory, inventory_log, items, sales, tickets } from "../db/schema/mod.ts";
import { EXPENDABLE_HELD, HANDLED } from "../api/sales/lines/rules.ts";
import { INVOICE_REOPENED, USED_ON_INVOICE } from "../api/sales/tickets/service/settle_on_invoice.ts";

const query = (db: TenantDatabase): Query => async (s) =>
  (await db.all(sql.raw(s))) as Record<string, unknown>[];

async function holds(db: TenantDatabase) {
  const v = await stockViolations(query(db));
  assert.equal(describe(v), "", "the stock invariant holds");
}

/** The demo's expendable lines: their ticket's status, what they hold, their row's figures. */
async function expendables(db: TenantDatabase) {
  return await db.select({
    id: sales.id,
    ticket_id: sales.ticket_id,
    status: tickets.status,
    invoice_number: tickets.invoice_number,
    quantity: sales.quantity,
    held: sales.quantity_held,
    inventory_id: sales.inventory_id,
  }).from(sales)
    .innerJoin(tickets, eq(tickets.id, sales.ticket_id))
    .innerJoin(inventory, eq(inventory.id, sales.inventory_id))
    .innerJoin(items, eq(items.id, inventory.item_id))
    .where(eq(items.isExpendable, true));
}

Deno.test("demo stock - every demo ticket's lines hold what they say; approving, re-opening and approving again keep it", () =>
  withEnv(async (env) => {
    const db = env.tenant.db;
    await seedDemo(db, { scryptN: 1024 });
    await holds(db);
    const token = await env.login();

    // The report: expendable gasket kits on paid INV-00001 held stock while the screen said checked in.
    const exp = await expendables(db);
    const onInvoices = exp.filter((l) => l.status === "APP");
    assert.ok(onInvoices.length >= 1, "an expendable on an invoice");
    assert.ok(onInvoices.every((l) => l.held === 0), "used up on approval");
    const before = exp.filter((l) => l.status !== "APP" && l.status !== "QUOTE");
    assert.ok(before.some((l) => l.held > 0), "an expendable still held on a ticket not yet approved");

    const status = async (ticketId: number) =>
      new Map(
        (await env.json<
          { results: { id: number; calculated_inventory_status: string; quantity_held: number }[] }
        >(
          `/api/sales/sales/ticket?ticket_id=${ticketId}&paginate=false`,
          { token },
        )).results.map((l) => [l.id, l]),
      );
    for (const l of [...onInvoices, ...before]) {
      const shown = (await status(l.ticket_id)).get(l.id)!;
      assert.equal(shown.calculated_inventory_status, l.held > 0 ? EXPENDABLE_HELD : HANDLED);
    }
    // Every line shown checked in, on every demo ticket, holds nothing.
    const all = await db.select({ id: tickets.id }).from(tickets);
    for (const t of all) {
      for (const l of (await status(t.id)).values()) {
        if (l.calculated_inventory_status === HANDLED) assert.equal(l.quantity_held, 0, `line ${l.id}`);
      }
    }

    // Approve the ticket awaiting approval: its expendables leave stock, audited, logged.
    const rfa = before.find((l) => l.status === "RFA")!;
    assert.ok(rfa, "the demo's ticket awaiting approval has an expendable");
    const row0 = (await db.select().from(inventory).where(eq(inventory.id, rfa.inventory_id)))[0];
    const put = (id: number, status: string) =>
      env.json(`/api/sales/tickets`, { token, method: "PUT", json: { id, status } });
    await put(rfa.ticket_id, "APP");
    const row1 = (await db.select().from(inventory).where(eq(inventory.id, rfa.inventory_id)))[0];
    assert.equal(row1.quantity, row0.quantity - rfa.held, "the row owns what was used no more");
    assert.equal(row1.quantity_out, row0.quantity_out - rfa.held, "nor is it out");
    const log = await db.select().from(inventory_log).where(eq(inventory_log.sale_id, rfa.id));
    assert.deepEqual(log.map((g) => [g.action, g.quantity_sold]), [[USED_ON_INVOICE, rfa.held]]);
    assert.equal((await status(rfa.ticket_id)).get(rfa.id)!.calculated_inventory_status, HANDLED);
    await holds(db);

    // Re-open it: the use is undone (the line holds it again), audited; approve again: used again.
    await put(rfa.ticket_id, "OPEN");
    const row2 = (await db.select().from(inventory).where(eq(inventory.id, rfa.inventory_id)))[0];
    assert.deepEqual([row2.quantity, row2.quantity_out], [row0.quantity, row0.quantity_out]);
    assert.equal((await db.select().from(inventory_log).where(eq(inventory_log.sale_id, rfa.id))).length, 0);
    assert.equal((await status(rfa.ticket_id)).get(rfa.id)!.calculated_inventory_status, EXPENDABLE_HELD);
    const audit = await db.all<{ action: string; quantity_change: number }>(
      sql`select action, quantity_change from inventory_audit where inventory_id = ${rfa.inventory_id}
           and action in (${USED_ON_INVOICE}, ${INVOICE_REOPENED})
           and ticket_number = (select ticket_number from tickets where id = ${rfa.ticket_id}) order by id`,
    );
    assert.deepEqual(audit.map((a) => [a.action, a.quantity_change]), [
      [USED_ON_INVOICE, -rfa.held],
      [INVOICE_REOPENED, rfa.held],
    ]);
    await holds(db);
    for (const s of ["RFB", "RFA", "APP"]) await put(rfa.ticket_id, s);
    const row3 = (await db.select().from(inventory).where(eq(inventory.id, rfa.inventory_id)))[0];
    assert.deepEqual([row3.quantity, row3.quantity_out], [row1.quantity, row1.quantity_out]);
    await holds(db);

    // Re-open the paid demo invoice and every other: the invariant holds at each step.
    const invoices = await db.select().from(tickets).where(eq(tickets.status, "APP"));
    for (const t of invoices) {
      await put(t.id, "OPEN");
      await holds(db);
    }
    for (const t of invoices) {
      for (const s of ["RFB", "RFA", "APP"]) await put(t.id, s);
    }
    await holds(db);
  }));
