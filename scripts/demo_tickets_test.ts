import assert from "node:assert/strict";
import { count, eq, sql } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import { withEnv } from "./testing/harness.ts";
import { seedDemo } from "./demo.ts";
import { seedTickets } from "./demo_tickets.ts";
import type { TenantDatabase } from "../db/client.ts";
import {
  companies,
  inventory,
  inventory_audit,
  inventory_log,
  rejections,
  sales,
  templates,
  tickets,
} from "../db/schema/mod.ts";

const n = async (db: TenantDatabase, table: SQLiteTable) =>
  (await db.select({ n: count() }).from(table))[0].n;

const counts = async (db: TenantDatabase) => ({
  tickets: await n(db, tickets),
  sales: await n(db, sales),
  log: await n(db, inventory_log),
  audit: await n(db, inventory_audit),
  rejections: await n(db, rejections),
});

interface Row {
  id: number;
  ticket_number: string;
  invoice_number: string | null;
  invoice_date: string | null;
  ticket_date: string;
  isPaid: boolean;
  disputed: boolean;
  use_min_rate_logic: boolean;
  template_id: number | null;
  totals: { grandtotal: number; discount: number; state_tax: number };
}

Deno.test("demo tickets - every stage has its tickets, made by the services, without stock drift; twice adds nothing", () =>
  withEnv(async (env) => {
    const db = env.tenant.db;
    const started = performance.now();
    await seedDemo(db, { scryptN: 1024 });
    console.log(`seedDemo: ${Math.round(performance.now() - started)} ms`);
    const first = await counts(db);

    const token = await env.login();
    const list = async (query: string): Promise<Row[]> =>
      (await env.json(`/api/sales/tickets?rowsPerPage=-1&${query}`, { token })).results;
    const quotes = await list("ticketFlowFilter=QUOTE");
    const open = await list("ticketFlowFilter=OPEN");
    const rfb = await list("ticketFlowFilter=RFB");
    const rfa = await list("ticketFlowFilter=RFA");
    const invoices = await list("ticketFlowFilter=APP");
    assert.deepEqual([quotes, open, rfb, rfa, invoices].map((l) => l.length), [2, 3, 3, 1, 3]);

    // Numbering: quotes and tickets from their series, oldest first; invoices numbered and dated in turn.
    const numbers = (l: Row[]) => l.map((t) => t.ticket_number).sort();
    assert.deepEqual(numbers(quotes), ["Q-00001", "Q-00002"]);
    assert.deepEqual(
      numbers([...open, ...rfb, ...rfa, ...invoices]),
      Array.from({ length: 10 }, (_, i) => `T-${String(i + 1).padStart(5, "0")}`),
    );
    const byNumber = [...invoices].sort((a, b) => a.invoice_number!.localeCompare(b.invoice_number!));
    assert.deepEqual(byNumber.map((i) => i.invoice_number), ["INV-00001", "INV-00002", "INV-00003"]);
    assert.ok(
      byNumber.every((i, k) =>
        i.invoice_date! > i.ticket_date && (k === 0 || i.invoice_date! > byNumber[k - 1].invoice_date!)
      ),
    );
    assert.equal(invoices.filter((i) => i.isPaid).length, 1);
    assert.ok([...open, ...rfb, ...rfa, ...quotes].every((t) => t.invoice_number === null));

    // Dates over the last month, money with discounts and taxes.
    const all = [...quotes, ...open, ...rfb, ...rfa, ...invoices];
    const today = new Date().toISOString().slice(0, 10);
    const monthAgo = new Date(Date.now() - 31 * 86_400_000).toISOString().slice(0, 10);
    assert.ok(all.every((t) => t.ticket_date >= monthAgo && t.ticket_date <= today));
    assert.ok(new Set(all.map((t) => t.ticket_date)).size >= 10, "spread dates");
    assert.ok(all.every((t) => t.totals.grandtotal > 0), "every ticket is worth something");
    assert.ok(all.filter((t) => t.totals.discount > 0).length >= 4);
    assert.ok(all.every((t) => t.totals.state_tax > 0));

    // One disputed ticket, back in RFB with its unresolved rejection; the one awaiting approval is complete.
    const disputed = all.filter((t) => t.disputed);
    assert.equal(disputed.length, 1);
    assert.ok(rfb.some((t) => t.id === disputed[0].id));
    const awaiting = await env.json(`/api/sales/tickets/${rfa[0].id}`, { token });
    assert.equal(awaiting.lines_complete, true);
    const rejected = await env.json(`/api/sales/tickets/${disputed[0].id}`, { token });
    assert.deepEqual(rejected.rejections.map((r: { resolved: boolean }) => r.resolved), [false]);

    // Open: one from a template, one without min-rate logic.
    assert.equal(open.filter((t) => t.template_id !== null).length, 1);
    assert.equal(open.filter((t) => !t.use_min_rate_logic).length, 1);

    const lines = await db.select().from(sales);
    const logs = await db.select().from(inventory_log);
    assert.ok(
      all.every((t) => lines.filter((l) => l.ticket_id === t.id).length >= 3),
      "lines on every ticket",
    );

    // Ready to bill: one partly checked in (some lines still out after check-ins).
    const partly = rfb.filter((t) => {
      const mine = lines.filter((l) => l.ticket_id === t.id);
      const logged = mine.filter((l) => logs.some((g) => g.sale_id === l.id));
      return logged.length > 0 && mine.some((l) => l.quantity_held > 0);
    });
    assert.ok(partly.length >= 1, "a ticket partly checked in");

    // An invoice with a sold line, whose sale left stock through the log.
    const sold = lines.filter((l) => l.isSold);
    assert.equal(sold.length, 1);
    assert.ok(invoices.some((i) => i.id === sold[0].ticket_id));
    assert.ok(logs.some((g) => g.sale_id === sold[0].id && g.action === "Sold"));

    // Quotes hold nothing; every stock row holds exactly what its lines hold.
    assert.ok(
      lines.filter((l) => quotes.some((q) => q.id === l.ticket_id)).every((l) => l.quantity_held === 0),
    );
    const held = new Map(
      (await db.select({ id: sales.inventory_id, sum: sql<number>`sum(${sales.quantity_held})` }).from(sales)
        .groupBy(sales.inventory_id)).map((h) => [h.id, h.sum]),
    );
    const rows = await db.select().from(inventory);
    for (const r of rows) assert.equal(r.quantity_out, held.get(r.id) ?? 0, `row ${r.serial_number}`);
    assert.ok(rows.every((r) => r.quantity - r.quantity_out - r.quantity_out_location >= 0));
    // Each line that holds stock was audited out with its ticket number.
    const audit = await db.select().from(inventory_audit);
    const ticketNumbers = new Set(audit.map((a) => a.ticket_number).filter(Boolean));
    for (const t of [...open, ...rfb, ...rfa, ...invoices]) {
      assert.ok(ticketNumbers.has(t.ticket_number), t.ticket_number);
    }

    const [owner] = await db.select().from(companies).where(eq(companies.isOwner, true));
    assert.equal(await seedTickets(db, owner), undefined, "a second run seeds nothing");
    await seedDemo(db, { scryptN: 1024 });
    assert.deepEqual(await counts(db), first);
  }));

Deno.test("demo tickets - every demo template makes a ticket (twice) with the defaults, and every line is priced", () =>
  withEnv(async (env) => {
    const db = env.tenant.db;
    await seedDemo(db, { scryptN: 1024 });
    const token = await env.login();
    const me = await env.json<{ id: number }>("/api/admin/users/me", { token });
    const [customer] = await db.select().from(companies).where(eq(companies.isOwner, false)).limit(1);
    const list = await db.select().from(templates);
    assert.equal(list.length, 3, "a template per business unit");
    for (const tpl of list) {
      for (const round of [1, 2]) {
        const made = await env.json<
          { id: number; use_min_rate_logic: boolean; totals: { grandtotal: number } }
        >(
          "/api/sales/tickets",
          {
            token,
            method: "POST",
            json: {
              customer_id: customer.id,
              sales_rep_id: me.id,
              business_unit_id: tpl.business_unit_id,
              template_id: tpl.id,
            },
          },
        );
        assert.equal(made.use_min_rate_logic, true, "new tickets default to min-rate mode");
        const lines = (await env.json<
          { results: { calculated_total: number; sales_inventory: { serial_number: string } }[] }
        >(
          `/api/sales/sales/ticket?ticket_id=${made.id}&paginate=false`,
          { token },
        )).results;
        assert.equal(
          lines.length,
          tpl.inventory_ids.length,
          `${tpl.name}, ticket ${round}: every template row`,
        );
        for (const l of lines) {
          assert.ok(l.calculated_total > 0, `${tpl.name}: ${l.sales_inventory.serial_number} is priced`);
        }
        assert.ok(made.totals.grandtotal > 0);
      }
    }
  }));
