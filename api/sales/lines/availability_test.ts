import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { withEnv } from "../../../scripts/testing/harness.ts";
import { makeLine, makeTicket } from "../../../db/factories.ts";
import { inventory, inventory_log } from "../../../db/schema/mod.ts";
import { auditOf, makeItemOf, makeRow, send, stored, tokenWith } from "../inventory/test_fixtures.ts";

const PATH = "/api/sales/sales";

Deno.test("availability - refusal with the five figures; holds, moves and releases, audited", () =>
  withEnv(async (env) => {
    const token = await tokenWith(env, []);
    const db = env.tenant.db;
    const item = await makeItemOf(env, "Itemized");
    const row = await makeRow(env, { item_id: item.id, quantity: 10, quantity_out_location: 2 });
    const ticket = await makeTicket(db, { use_min_rate_logic: false });
    const a = await send(env, token, "POST", PATH, {
      ticket_id: ticket.id,
      inventory_id: row.id,
      quantity: 5,
    });
    assert.equal((await stored(env, row.id))!.quantity_out, 5);
    const refused = await send(env, token, "POST", PATH, {
      ticket_id: ticket.id,
      inventory_id: row.id,
      quantity: 4,
    }, 409);
    assert.equal(refused.detail, "ERROR: Line item quantity exceeds available inventory:");
    assert.deepEqual(refused.figures, {
      inventory_quantity: 10,
      quantity_out_tickets: 5,
      quantity_out_location: 2,
      available: 3,
      line_quantity: 4,
    });
    await send(env, token, "PUT", PATH, { id: a.id, quantity: 9 }, 409);
    assert.equal((await stored(env, row.id))!.quantity_out, 5, "a refusal changes nothing");
    await send(env, token, "PUT", PATH, { id: a.id, quantity: 8 });
    assert.equal((await stored(env, row.id))!.quantity_out, 8);
    await send(env, token, "PUT", PATH, { id: a.id, quantity: 2 });
    assert.equal((await stored(env, row.id))!.quantity_out, 2);
    // inventory change moves the hold
    const other = await makeRow(env, { item_id: item.id, quantity: 3 });
    await send(env, token, "PUT", PATH, { id: a.id, inventory_id: other.id, quantity: 3 });
    assert.equal((await stored(env, row.id))!.quantity_out, 0);
    assert.equal((await stored(env, other.id))!.quantity_out, 3);
    // delete (sales-admin only, like the screen's Delete) releases
    await env.json(`${PATH}/${a.id}`, { token, method: "DELETE", status: 403 });
    await env.json(`${PATH}/${a.id}`, { token: await tokenWith(env, ["sales-admin"]), method: "DELETE" });
    assert.equal((await stored(env, other.id))!.quantity_out, 0);
    const audits = (await auditOf(env, row.id)).map((r) => [r.action, r.quantity_change, r.ticket_number]);
    assert.deepEqual(audits, [
      ["Line Added", -5, ticket.ticket_number],
      ["Line Updated", -3, ticket.ticket_number],
      ["Line Updated", 6, ticket.ticket_number],
      ["Line Updated", 2, ticket.ticket_number],
    ]);
    assert.deepEqual((await auditOf(env, other.id)).map((r) => [r.action, r.quantity_change]), [
      ["Line Updated", -3],
      ["Line Deleted", 3],
    ]);
  }));

Deno.test("availability - exceptions: unchanged quantity, Charge Code, logged lines; quotes hold nothing", () =>
  withEnv(async (env) => {
    const token = await tokenWith(env, []);
    const db = env.tenant.db;
    const row = await makeRow(env, { item_id: (await makeItemOf(env, "Itemized")).id, quantity: 2 });
    const ticket = await makeTicket(db, { use_min_rate_logic: false });
    // a line holding nothing (as a template fill may leave it) with more than is available: an edit
    // that leaves the quantity alone is not checked
    const old = await makeLine(db, { ticket_id: ticket.id, inventory_id: row.id, quantity: 5 });
    const kept = await send(env, token, "PUT", PATH, { id: old.id, quantity: 5, price: 1 });
    assert.equal(kept.quantity_held, 0);
    // Charge Code: never held
    const charge = await makeRow(env, { item_id: (await makeItemOf(env, "Charge Code")).id, quantity: 0 });
    const c = await send(env, token, "POST", PATH, {
      ticket_id: ticket.id,
      inventory_id: charge.id,
      quantity: 50,
    });
    assert.equal(c.quantity_held, 0);
    assert.equal((await stored(env, charge.id))!.quantity_out, 0);
    const logged = await send(env, token, "POST", PATH, {
      ticket_id: ticket.id,
      inventory_id: row.id,
      quantity: 2,
    });
    await db.insert(inventory_log).values({
      sale_id: logged.id,
      date: "2024-01-01",
      quantity_in: 1,
      action: "Check In",
    });
    await db.update(inventory).set({ quantity_out: 1 }).where(eq(inventory.id, row.id));
    await env.tenant.db.run(`update sales set quantity_held = 1 where id = ${logged.id}`);
    // logged line: holds its quantity less what came back (1), checked against availability like any
    // other change (it once kept its hold whatever its quantity: stock went unheld or stuck out)
    const bigger = await send(env, token, "PUT", PATH, { id: logged.id, quantity: 3 });
    assert.equal(bigger.quantity_held, 2);
    assert.equal((await stored(env, row.id))!.quantity_out, 2);
    await send(env, token, "PUT", PATH, { id: logged.id, quantity: 2 + 7 }, 409);
    assert.equal((await stored(env, row.id))!.quantity_out, 2);
    const moved = await send(env, token, "PUT", PATH, { id: logged.id, inventory_id: charge.id }, 409);
    assert.equal(moved.detail, "A line with check-in history cannot change its inventory.");
    // quotes hold nothing
    const quote = await makeTicket(db, { status: "QUOTE", isQuote: true });
    const q = await send(env, token, "POST", PATH, {
      ticket_id: quote.id,
      inventory_id: row.id,
      quantity: 100,
    });
    assert.equal(q.quantity_held, 0);
    assert.equal((await stored(env, row.id))!.quantity_out, 2, "the quote took nothing");
  }));
