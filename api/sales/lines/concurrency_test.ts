import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { withEnv } from "../../../scripts/testing/harness.ts";
import { makeTicket } from "../../../db/factories.ts";
import { sales } from "../../../db/schema/mod.ts";
import { makeItemOf, makeRow, stored, tokenWith } from "../inventory/test_fixtures.ts";

const PATH = "/api/sales/sales";

Deno.test("concurrency - 40 parallel creates on 25 available: exactly 25 succeed, never oversold", () =>
  withEnv(async (env) => {
    const token = await tokenWith(env, []);
    const row = await makeRow(env, {
      item_id: (await makeItemOf(env, "Itemized")).id,
      quantity: 30,
      quantity_out_location: 5,
    });
    const ticket = await makeTicket(env.tenant.db, { use_min_rate_logic: false });
    const statuses = await Promise.all(
      Array.from({ length: 40 }, () =>
        env.request(PATH, {
          token,
          method: "POST",
          json: { ticket_id: ticket.id, inventory_id: row.id, quantity: 1 },
        })
          .then(async (r) => {
            await r.body?.cancel();
            return r.status;
          })),
    );
    assert.equal(statuses.filter((s) => s === 200).length, 25);
    assert.equal(statuses.filter((s) => s === 409).length, 15);
    const after = (await stored(env, row.id))!;
    assert.equal(after.quantity_out, 25);
    assert.equal(after.quantity - after.quantity_out - after.quantity_out_location, 0);
    const lines = await env.tenant.db.select().from(sales).where(eq(sales.ticket_id, ticket.id));
    assert.equal(lines.length, 25);
  }));

Deno.test("concurrency - parallel updates of one line's quantity lose no update", () =>
  withEnv(async (env) => {
    const token = await tokenWith(env, []);
    const row = await makeRow(env, { item_id: (await makeItemOf(env, "Itemized")).id, quantity: 20 });
    const ticket = await makeTicket(env.tenant.db, { use_min_rate_logic: false });
    const created = await env.json(PATH, {
      token,
      method: "POST",
      json: { ticket_id: ticket.id, inventory_id: row.id, quantity: 1 },
    });
    const quantities = Array.from({ length: 30 }, (_, i) => (i * 7) % 25);
    await Promise.all(
      quantities.map((quantity) =>
        env.request(PATH, { token, method: "PUT", json: { id: created.id, quantity } }).then((r) =>
          r.body?.cancel()
        )
      ),
    );
    const line = (await env.tenant.db.select().from(sales).where(eq(sales.id, created.id)).get())!;
    const after = (await stored(env, row.id))!;
    assert.equal(after.quantity_out, line.quantity_held);
    assert.equal(line.quantity_held, line.quantity);
    assert.ok(after.quantity - after.quantity_out >= 0);
  }));
