import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { withEnv } from "../../../scripts/testing/harness.ts";
import { makeCategory, makeCompany, makeLine, makeTicket } from "../../../db/factories.ts";
import { inventory, inventory_log, templates, tickets } from "../../../db/schema/mod.ts";
import { auditOf, makeItemOf, makeRow, send, stored, tokenWith } from "../inventory/test_fixtures.ts";

const PATH = "/api/sales/sales";

Deno.test("availability - refusal with the five figures; holds, moves and releases, audited", () =>
  withEnv(async (env) => {
    const token = await tokenWith(env, []);
    const admin = await tokenWith(env, ["sales-admin"]);
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
    await send(env, admin, "PUT", PATH, { id: a.id, quantity: 9 }, 409);
    assert.equal((await stored(env, row.id))!.quantity_out, 5, "a refusal changes nothing");
    await send(env, admin, "PUT", PATH, { id: a.id, quantity: 8 });
    assert.equal((await stored(env, row.id))!.quantity_out, 8);
    await send(env, admin, "PUT", PATH, { id: a.id, quantity: 2 });
    assert.equal((await stored(env, row.id))!.quantity_out, 2);
    // inventory change moves the hold
    const other = await makeRow(env, { item_id: item.id, quantity: 3 });
    await send(env, admin, "PUT", PATH, { id: a.id, inventory_id: other.id, quantity: 3 });
    assert.equal((await stored(env, row.id))!.quantity_out, 0);
    assert.equal((await stored(env, other.id))!.quantity_out, 3);
    // delete (sales-admin only, like the screen's Delete) releases
    await env.json(`${PATH}/${a.id}`, { token, method: "DELETE", status: 403 });
    await env.json(`${PATH}/${a.id}`, { token: admin, method: "DELETE" });
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
    const admin = await tokenWith(env, ["sales-admin"]);
    const db = env.tenant.db;
    const row = await makeRow(env, { item_id: (await makeItemOf(env, "Itemized")).id, quantity: 2 });
    const ticket = await makeTicket(db, { use_min_rate_logic: false });
    // a line holding nothing (as a template fill may leave it) with more than is available: an edit
    // that leaves the quantity alone is not checked
    const old = await makeLine(db, { ticket_id: ticket.id, inventory_id: row.id, quantity: 5 });
    const kept = await send(env, admin, "PUT", PATH, { id: old.id, quantity: 5, price: 1 });
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
    const bigger = await send(env, admin, "PUT", PATH, { id: logged.id, quantity: 3 });
    assert.equal(bigger.quantity_held, 2);
    assert.equal((await stored(env, row.id))!.quantity_out, 2);
    await send(env, admin, "PUT", PATH, { id: logged.id, quantity: 2 + 7 }, 409);
    assert.equal((await stored(env, row.id))!.quantity_out, 2);
    const moved = await send(env, admin, "PUT", PATH, { id: logged.id, inventory_id: charge.id }, 409);
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

Deno.test("availability - a ticket from a template short of stock names the line and states the five figures", () =>
  withEnv(async (env) => {
    const db = env.tenant.db;
    const { user, token } = await env.userWithToken({ permissions: [] });
    const unit = await makeCategory(db, { model: "Business Unit", name: "Midland" });
    const charge = await makeRow(env, {
      item_id: (await makeItemOf(env, "Charge Code", { item_number: "CC-DEL" })).id,
      business_unit_id: unit.id,
      serial_number: "MID-CC-DEL",
      quantity: 0,
    });
    const swivel = await makeItemOf(env, "Itemized", {
      item_number: "FI-2SW",
      item_description: "2in 1502 Chiksan swivel joint",
      rate: 45,
    });
    const short = await makeRow(env, {
      item_id: swivel.id,
      business_unit_id: unit.id,
      serial_number: "MID-FI-2SW",
      quantity: 12,
      quantity_out: 8,
      quantity_out_location: 4,
    });
    const [tpl] = await db.insert(templates).values({
      company_id: 1,
      created_by_id: user.id,
      name: "Midland flowback rig-up",
      business_unit_id: unit.id,
      inventory_ids: [charge.id, short.id],
    }).returning();
    const customer = await makeCompany(db, { company_type: "customer_company" });
    const body = {
      customer_id: customer.id,
      sales_rep_id: user.id,
      business_unit_id: unit.id,
      template_id: tpl.id,
    };
    const refused = await send(env, token, "POST", "/api/sales/tickets", body, 409);
    assert.equal(
      refused.detail,
      "ERROR: Line item quantity exceeds available inventory: Line 2, FI-2SW | MID-FI-2SW | " +
        "2in 1502 Chiksan swivel joint: Inventory Quantity 12, Quantity Out (Tickets) 8, " +
        "Quantity Out (Location) 4, Available Quantity 0, Line Quantity 1.",
    );
    assert.deepEqual(refused.figures, {
      inventory_quantity: 12,
      quantity_out_tickets: 8,
      quantity_out_location: 4,
      available: 0,
      line_quantity: 1,
    });
    assert.equal((await db.select().from(tickets)).length, 0, "nothing is made");

    await db.update(inventory).set({ quantity_out: 0 }).where(eq(inventory.id, short.id));
    const made = await send(env, token, "POST", "/api/sales/tickets", body);
    const lines = await env.json<
      { results: { price: number; minimum_rate: number; calculated_total: number }[] }
    >(
      `${PATH}/ticket?ticket_id=${made.id}&paginate=false`,
      { token },
    );
    const swivelLine = lines.results[1];
    assert.deepEqual(
      [swivelLine.price, swivelLine.minimum_rate, swivelLine.calculated_total],
      [45, 45, 45],
      "min-rate mode by default: a row without its own rates takes the item's rate, so the line is priced",
    );
  }));
