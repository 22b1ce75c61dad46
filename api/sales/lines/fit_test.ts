import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { withEnv } from "../../../scripts/testing/harness.ts";
import { makeCategory, makeCompany, makeTicket } from "../../../db/factories.ts";
import { inventory, templates, tickets } from "../../../db/schema/mod.ts";
import { makeItemOf, makeRow, send } from "../inventory/test_fixtures.ts";

const PATH = "/api/sales/sales";

Deno.test("line fit - only Available stock of the ticket's business unit goes out (422 naming the row); quotes may name any status", () =>
  withEnv(async (env) => {
    const db = env.tenant.db;
    const { token } = await env.userWithToken({ permissions: ["sales-admin"] });
    const midland = await makeCategory(db, { model: "Business Unit", name: "Midland" });
    const odessa = await makeCategory(db, { model: "Business Unit", name: "Odessa" });
    const valve = await makeItemOf(env, "Serialized", {
      item_number: "PV-2",
      item_description: "2in plug valve",
    });
    const repair = await makeRow(env, {
      item_id: valve.id,
      business_unit_id: midland.id,
      serial_number: "PV-2-10005",
      quantity: 1,
      status: "Repair",
    });
    const theirs = await makeRow(env, {
      item_id: valve.id,
      business_unit_id: odessa.id,
      serial_number: "PV-2-10007",
      quantity: 1,
    });
    const ours = await makeRow(env, {
      item_id: valve.id,
      business_unit_id: midland.id,
      serial_number: "PV-2-10001",
      quantity: 1,
    });
    const ticket = await makeTicket(db, { business_unit_id: midland.id });

    const inRepair = await send(
      env,
      token,
      "POST",
      PATH,
      { ticket_id: ticket.id, inventory_id: repair.id },
      422,
    );
    assert.equal(
      inRepair.detail,
      "PV-2 | PV-2-10005 | 2in plug valve is in Repair: only Available stock can go out on a ticket.",
    );
    assert.equal(inRepair.errors[0].path, "inventory_id");
    const otherUnit = await send(
      env,
      token,
      "POST",
      PATH,
      { ticket_id: ticket.id, inventory_id: theirs.id },
      422,
    );
    assert.equal(
      otherUnit.detail,
      "PV-2 | PV-2-10007 | 2in plug valve is Odessa stock: a line takes stock of the ticket's business unit (Midland).",
    );
    assert.equal(
      (await db.select().from(inventory).where(eq(inventory.id, theirs.id)).get())!.quantity_out,
      0,
    );

    const line = await send(env, token, "POST", PATH, { ticket_id: ticket.id, inventory_id: ours.id });
    // Changing the line to a row that cannot go out is refused the same way.
    await send(env, token, "PUT", PATH, { id: line.id, inventory_id: repair.id }, 422);
    // A row that went to Repair after it was put on the line: the line can still be edited.
    await db.update(inventory).set({ status: "Repair" }).where(eq(inventory.id, ours.id));
    const edited = await send(env, token, "PUT", PATH, { id: line.id, price: 99 });
    assert.equal(edited.price, 99);

    // A quote takes nothing out: any status of its unit, still not another unit's stock.
    const quote = await makeTicket(db, { business_unit_id: midland.id, status: "QUOTE", isQuote: true });
    await send(env, token, "POST", PATH, { ticket_id: quote.id, inventory_id: repair.id });
    await send(env, token, "POST", PATH, { ticket_id: quote.id, inventory_id: theirs.id }, 422);
    // A ticket without a business unit takes Available stock of any unit.
    const anyUnit = await makeTicket(db);
    await send(env, token, "POST", PATH, { ticket_id: anyUnit.id, inventory_id: theirs.id });
  }));

Deno.test("line fit - a template naming a row in Repair makes no ticket; the refusal names the line", () =>
  withEnv(async (env) => {
    const db = env.tenant.db;
    const { user, token } = await env.userWithToken({ permissions: [] });
    const midland = await makeCategory(db, { model: "Business Unit", name: "Midland" });
    const charge = await makeRow(env, {
      item_id: (await makeItemOf(env, "Charge Code", { item_number: "CC-DEL" })).id,
      business_unit_id: midland.id,
      serial_number: "MID-CC-DEL",
      quantity: 0,
    });
    const pump = await makeRow(env, {
      item_id:
        (await makeItemOf(env, "Serialized", { item_number: "PMP-TRF", item_description: "Transfer pump" }))
          .id,
      business_unit_id: midland.id,
      serial_number: "PMP-TRF-10002",
      quantity: 1,
      status: "Repair",
    });
    const [tpl] = await db.insert(templates).values({
      company_id: 1,
      created_by_id: user.id,
      name: "Pump job",
      business_unit_id: midland.id,
      inventory_ids: [charge.id, pump.id],
    }).returning();
    const customer = await makeCompany(db, { company_type: "customer_company" });
    const refused = await send(env, token, "POST", "/api/sales/tickets", {
      customer_id: customer.id,
      sales_rep_id: user.id,
      business_unit_id: midland.id,
      template_id: tpl.id,
    }, 422);
    assert.equal(
      refused.detail,
      "Line 2, PMP-TRF | PMP-TRF-10002 | Transfer pump is in Repair: only Available stock can go out on a ticket.",
    );
    assert.equal((await db.select().from(tickets)).length, 0);
  }));
