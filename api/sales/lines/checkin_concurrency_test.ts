import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { withEnv } from "../../../scripts/testing/harness.ts";
import { inventory_audit, inventory_log, sales } from "../../../db/schema/mod.ts";
import { heldLine, lineOf, logOf, rowOf } from "./checkin_fixtures.ts";

const PATH = "/api/sales/inventory/check-in";

Deno.test("check-in concurrency - 30 parallel check-ins of 1 on a line of 12: exactly 12 land, none lost", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const s = await heldLine(env, { quantity: 12, stock: 20 });
    const results = await Promise.all(Array.from({ length: 30 }, async (_, i) => {
      const res = await env.request(PATH, {
        token,
        method: "POST",
        json: {
          ticket_id: s.ticketId,
          line_items: [s.lineId],
          ...(i % 3 === 0 ? { quantities_sold: [1] } : { quantities_in: [1] }),
        },
      });
      return { status: res.status, body: await res.json() };
    }));
    const ok = results.filter((r) => r.status === 200).length;
    assert.equal(ok, 12);
    assert.ok(results.every((r) => r.status === 200 || r.status === 422 || r.status === 409));
    const logs = await logOf(env, s.lineId);
    const sold = logs.reduce((n, l) => n + l.quantity_sold, 0);
    assert.equal(logs.reduce((n, l) => n + l.quantity_in, 0) + sold, 12, "never above the quantity");
    const row = await rowOf(env, s.inventoryId);
    assert.equal(row!.quantity_out, 0, "quantity_out never negative, every one accounted");
    assert.equal(row!.quantity, 20 - sold);
    const line = await lineOf(env, s.lineId);
    assert.equal(line!.quantity_held, 0);
    assert.equal(line!.isSold, sold > 0);
    const audits = await env.tenant.db.select().from(inventory_audit)
      .where(eq(inventory_audit.inventory_id, s.inventoryId));
    assert.equal(audits.length, 12, "one audit row per change");
  }));

Deno.test("check-in concurrency - a guard failing on a later line rolls back the earlier lines", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const a = await heldLine(env, { quantity: 2, stock: 5 });
    const b = await heldLine(env, { quantity: 2, stock: 5, line: { ticket_id: a.ticketId } });
    // line b holds nothing any more (as if released elsewhere): its guarded update must fail
    await env.tenant.db.update(sales).set({ quantity_held: 0 }).where(eq(sales.id, b.lineId));
    const res = await env.request(PATH, {
      token,
      method: "POST",
      json: { ticket_id: a.ticketId, line_items: [a.lineId, b.lineId], quantities_in: [2, 2] },
    });
    assert.equal(res.status, 409);
    assert.equal((await rowOf(env, a.inventoryId))!.quantity_out, 2);
    assert.equal((await lineOf(env, a.lineId))!.quantity_held, 2);
    assert.equal((await env.tenant.db.select().from(inventory_log)).length, 0);
    assert.equal((await env.tenant.db.select().from(inventory_audit)).length, 0);
  }));
