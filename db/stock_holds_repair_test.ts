import assert from "node:assert/strict";
import { eq, sql } from "drizzle-orm";
import { withEnv } from "../scripts/testing/harness.ts";
import { describe, type Query, stockViolations } from "../scripts/testing/stock_invariant.ts";
import type { TenantDatabase } from "./client.ts";
import { inventory, inventory_audit, inventory_log, sales } from "./schema/mod.ts";
import { makeInventory, makeItem, makeLine, makeTicket } from "./factories.ts";

/** Migration 0034 as the migrator runs it: its statements in order. */
async function runRepair(db: TenantDatabase) {
  const text = await Deno.readTextFile(new URL("./migrations/0034_stock_holds_repair.sql", import.meta.url));
  for (const stmt of text.split("--> statement-breakpoint")) {
    if (stmt.trim()) await db.run(sql.raw(stmt));
  }
}

const query = (db: TenantDatabase): Query => async (s) =>
  (await db.all(sql.raw(s))) as Record<string, unknown>[];

const row = async (db: TenantDatabase, id: number) =>
  (await db.select().from(inventory).where(eq(inventory.id, id)))[0];

Deno.test("migration 0034 - holds, quantity_out and quantity brought to what the lines say, audited; a second run changes nothing", () =>
  withEnv(async (env) => {
    const db = env.tenant.db;
    // As the old code left them: the expendable gasket kits of a paid invoice still hold 3 of 150.
    const kits = await makeItem(db, { item_number: "GK-1", isExpendable: true });
    const kitRow = await makeInventory(db, { item_id: kits.id, quantity: 150, quantity_out: 3 + 4 });
    const invoice = await makeTicket(db, {
      status: "APP",
      isInvoice: true,
      invoice_number: "INV-00001",
      isPaid: true,
    });
    const used = await makeLine(db, {
      ticket_id: invoice.id,
      inventory_id: kitRow.id,
      quantity: 3,
      quantity_held: 3,
    });
    // The same kits on an open ticket: held, and still held after the repair (not invoiced yet).
    const open = await makeTicket(db);
    const openKits = await makeLine(db, {
      ticket_id: open.id,
      inventory_id: kitRow.id,
      quantity: 4,
      quantity_held: 4,
    });

    // Drift: a swivel row counting 5 out where its line, fully checked in, holds 0 and another holds 2.
    const swivel = await makeInventory(db, { quantity: 20, quantity_out: 5 });
    const back = await makeLine(db, {
      ticket_id: open.id,
      inventory_id: swivel.id,
      quantity: 3,
      quantity_held: 0,
    });
    await db.insert(inventory_log).values({
      sale_id: back.id,
      inventory_id: swivel.id,
      date: "2026-03-01T08:00:00Z",
      quantity_in: 3,
      action: "Check In",
    });
    const out = await makeLine(db, {
      ticket_id: open.id,
      inventory_id: swivel.id,
      quantity: 2,
      quantity_held: 2,
    });
    // A quote line holding (quotes hold nothing) on a row counting it out.
    const quote = await makeTicket(db, { status: "QUOTE", isQuote: true });
    const valve = await makeInventory(db, { quantity: 1, quantity_out: 1 });
    const quoted = await makeLine(db, {
      ticket_id: quote.id,
      inventory_id: valve.id,
      quantity: 1,
      quantity_held: 1,
    });

    assert.notEqual(describe(await stockViolations(query(db), { ledger: false })), "", "broken before");
    const auditBefore = (await db.select().from(inventory_audit)).length;
    await runRepair(db);
    assert.equal(
      describe(await stockViolations(query(db), { ledger: false })),
      "",
      "the invariant holds after",
    );

    // The kits: 3 used up on the invoice (quantity 147), 4 still out on the open ticket.
    const k = await row(db, kitRow.id);
    assert.deepEqual([k.quantity, k.quantity_out], [147, 4]);
    const line = async (id: number) => (await db.select().from(sales).where(eq(sales.id, id)))[0];
    assert.deepEqual(
      [(await line(used.id)).quantity_held, (await line(openKits.id)).quantity_held],
      [0, 4],
    );
    const log = await db.select().from(inventory_log).where(eq(inventory_log.sale_id, used.id));
    assert.deepEqual(
      log.map((g) => [g.action, g.quantity_sold, g.starting_quantity, g.ending_quantity]),
      [["Used on Invoice", 3, 150, 147]],
    );
    const s = await row(db, swivel.id);
    assert.deepEqual([s.quantity, s.quantity_out], [20, 2], "out is what its lines hold");
    assert.equal((await line(out.id)).quantity_held, 2);
    assert.deepEqual([(await row(db, valve.id)).quantity_out, (await line(quoted.id)).quantity_held], [0, 0]);

    // Audited like the services: the use per line (running quantity), a hold repair per drifted row.
    const audit = (await db.select().from(inventory_audit)).slice(auditBefore);
    assert.deepEqual(
      audit.map((
        a,
      ) => [a.action, a.inventory_id, a.quantity, a.quantity_change, a.ticket_number, a.invoice_number]),
      [
        ["Used on Invoice", kitRow.id, 147, -3, invoice.ticket_number, "INV-00001"],
        ["Stock Repair (hold)", swivel.id, 20, 3, "", ""],
        ["Stock Repair (hold)", valve.id, 1, 1, "", ""],
      ],
    );
    assert.ok(audit.every((a) => a.updated_by_name === "Migration 0034" && a.item_number !== ""));

    // Run again: nothing left to repair, nothing written.
    await runRepair(db);
    assert.equal((await db.select().from(inventory_audit)).length, auditBefore + 3);
    assert.equal((await db.select().from(inventory_log)).length, 2);
  }));
