import assert from "node:assert/strict";
import { gunzipSync } from "node:zlib";
import { withEnv } from "../../../scripts/testing/harness.ts";
import { makeInventory, makeItem, makeTicket } from "../../../db/factories.ts";
import { inventory_log, sales, type Ticket } from "../../../db/schema/mod.ts";
import { staticBody } from "../../lib/static_body.ts";
import { loadLines } from "./query.ts";
import { lineTotals, ticketComplete, ticketTotals } from "../tickets/rules.ts";
import { tokenWith } from "../inventory/test_fixtures.ts";
import type { TestEnv } from "../../../scripts/testing/harness.ts";

/**
 * A ticket of `n` lines of three kinds (itemized lines with check-ins, some complete, a charge code, an
 * expendable), prices and taxes varied, several lines sharing an order (ties go by id).
 */
async function longTicket(env: TestEnv, n: number, over: Partial<Ticket> = {}) {
  const db = env.tenant.db;
  const ticket = await makeTicket(db, { use_min_rate_logic: n % 2 === 0, ...over });
  const kinds = await Promise.all((["Itemized", "Charge Code", "Itemized"] as const).map(async (type, k) => {
    const item = await makeItem(db, { inventory_type: type, isExpendable: k === 2, rate: 10 + k });
    return await makeInventory(db, { item_id: item.id, quantity: 100_000 });
  }));
  const rows = Array.from({ length: n }, (_, i) => ({
    company_id: 1,
    start_date: "2026-01-01T08:00:00Z",
    ticket_id: ticket.id,
    inventory_id: kinds[i % 3].id,
    order: Math.floor((n - i) / 3),
    quantity: 1 + (i % 4),
    price: 12.345 + i,
    duration: 1 + (i % 3),
    minimum_rate: i % 5 ? 7.5 : null,
    markup: i % 7 ? null : 12.5,
    discount: i % 4 ? 3 : null,
    state_tax: 6.25,
    county_tax: i % 2 ? 1.5 : null,
    notes: `line ${i} “quoted” ✓`,
  }));
  const ids: number[] = [];
  for (let i = 0; i < n; i += 200) {
    const made = await db.insert(sales).values(rows.slice(i, i + 200)).returning({ id: sales.id });
    ids.push(...made.map((r) => r.id));
  }
  const logs = ids.filter((_, i) => i % 3 === 0).map((sale_id, k) => ({
    sale_id,
    inventory_id: kinds[0].id,
    date: `2026-01-${String(1 + (k % 28)).padStart(2, "0")}T00:00:00Z`,
    quantity_in: k % 2 === 0 ? 1 + ((3 * k) % 4) : 1,
    action: "Checked In",
  }));
  for (let i = 0; i < logs.length; i += 200) await db.insert(inventory_log).values(logs.slice(i, i + 200));
  return { ticket, ids };
}

/** The body of an answer, unzipped when it was compressed. */
async function bodyOf(res: Response): Promise<unknown> {
  const bytes = new Uint8Array(await res.arrayBuffer());
  const text = new TextDecoder().decode(
    res.headers.get("content-encoding") === "gzip" ? gunzipSync(bytes) : bytes,
  );
  return JSON.parse(text);
}

Deno.test("ticket lines - a long ticket's lines are streamed, the same answer as one read of them all", () =>
  withEnv(async (env) => {
    const token = await tokenWith(env, []);
    const { ticket } = await longTicket(env, 257);
    const whole = await loadLines(env.tenant.db, { ticketId: ticket.id });
    assert.equal(whole.length, 257);
    const expected = JSON.parse(JSON.stringify({ results: whole, total: whole.length }));
    for (const encoding of ["identity", "gzip"]) {
      const res = await env.request(`/api/sales/sales/ticket?ticket_id=${ticket.id}`, {
        token,
        headers: { "accept-encoding": encoding },
      });
      assert.equal(res.status, 200);
      assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
      assert.equal(staticBody(res), undefined, "answered as a stream of pieces, not one text");
      assert.deepEqual(await bodyOf(res), expected, encoding);
    }
    // The body's keys in the same order as the whole answer's.
    const text = await (await env.request(`/api/sales/sales/ticket?ticket_id=${ticket.id}`, { token }))
      .text();
    assert.equal(text, JSON.stringify({ results: whole, total: whole.length }));
  }));

Deno.test("ticket lines - a short ticket's lines are one JSON answer", () =>
  withEnv(async (env) => {
    const token = await tokenWith(env, []);
    const { ticket } = await longTicket(env, 7);
    const whole = await loadLines(env.tenant.db, { ticketId: ticket.id });
    const res = await env.request(`/api/sales/sales/ticket?ticket_id=${ticket.id}`, { token });
    assert.notEqual(staticBody(res), undefined);
    assert.equal(await res.text(), JSON.stringify({ results: whole, total: 7 }));
    const empty = await makeTicket(env.tenant.db);
    assert.deepEqual(await env.json(`/api/sales/sales/ticket?ticket_id=${empty.id}`, { token }), {
      results: [],
      total: 0,
    });
    await env.json(`/api/sales/sales/ticket?ticket_id=999999`, { token, status: 404 });
    await env.json(`/api/sales/sales/ticket?ticket_id=x`, { token, status: 422 });
  }));

Deno.test("ticket detail - a long ticket's totals and completeness, read in several pieces, as from all its lines", () =>
  withEnv(async (env) => {
    const token = await tokenWith(env, []);
    for (const [n, over] of [[1_203, {}], [1_001, { rounding: "exact" as const }]] as const) {
      const { ticket } = await longTicket(env, n, over);
      const lines = await loadLines(env.tenant.db, { ticketId: ticket.id });
      const detail = await env.json(`/api/sales/tickets/${ticket.id}`, { token });
      assert.deepEqual(detail.totals, ticketTotals(lines.map((l) => lineTotals(l, ticket)), ticket.rounding));
      const complete = ticketComplete(
        lines.map((l) => ({ line: l, item: l.sales_inventory.item, logs: l.inventory_log })),
      );
      assert.equal(complete, false, "some itemized lines are still out");
      assert.equal(detail.lines_complete, complete);
    }
    // Every line handled (charge codes), over several pieces: complete.
    const db = env.tenant.db;
    const charge = await makeInventory(db, {
      item_id: (await makeItem(db, { inventory_type: "Charge Code" })).id,
    });
    const handled = await makeTicket(db);
    for (let i = 0; i < 1_200; i += 200) {
      await db.insert(sales).values(
        Array.from({ length: 200 }, () => ({
          company_id: 1,
          ticket_id: handled.id,
          inventory_id: charge.id,
          quantity: 1,
          price: 5,
          duration: 1,
        })),
      );
    }
    assert.equal((await env.json(`/api/sales/tickets/${handled.id}`, { token })).lines_complete, true);
  }));

Deno.test("tickets list - a page of long tickets has each one's totals, read a ticket at a time", () =>
  withEnv(async (env) => {
    const token = await tokenWith(env, []);
    const made = [
      (await longTicket(env, 1_203)).ticket,
      (await longTicket(env, 5)).ticket,
      (await longTicket(env, 1_001, { rounding: "exact" })).ticket,
    ];
    const page = await env.json(`/api/sales/tickets?rowsPerPage=25`, { token });
    for (const t of made) {
      const lines = await loadLines(env.tenant.db, { ticketId: t.id });
      const row = page.results.find((r: { id: number }) => r.id === t.id);
      assert.deepEqual(row.totals, ticketTotals(lines.map((l) => lineTotals(l, t)), t.rounding));
    }
  }));
