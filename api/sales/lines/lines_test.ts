import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { withEnv } from "../../../scripts/testing/harness.ts";
import { makeCompany, makeLine, makeTicket } from "../../../db/factories.ts";
import { companies, sales } from "../../../db/schema/mod.ts";
import { fromZonedInput, today as zonedToday } from "../../../lib/format.ts";
import { makeItemOf, makeRow, send, tokenWith } from "../inventory/test_fixtures.ts";

const PATH = "/api/sales/sales";
const today = () => new Date().toISOString().slice(0, 10);

Deno.test("lines - defaults of a new line, totals fields, hours, order after the last", () =>
  withEnv(async (env) => {
    const token = await tokenWith(env, []);
    const db = env.tenant.db;
    const item = await makeItemOf(env, "Itemized", { rate: 50 });
    const row = await makeRow(env, { item_id: item.id, quantity: 10, minimum_rate: 200 });
    const plain = await makeTicket(db, { use_min_rate_logic: false });
    const a = await send(env, token, "POST", PATH, { ticket_id: plain.id, inventory_id: row.id });
    assert.equal(a.quantity, 1);
    assert.equal(a.duration, 1);
    assert.equal(a.discount, 0);
    assert.equal(a.price, 50);
    assert.equal(a.start_date, `${today()}T00:00:00Z`);
    assert.equal(a.order, 1);
    assert.equal(a.calculated_total, 50);
    assert.equal(a.calculated_tax, 0);
    assert.equal(a.sales_inventory.serial_number, row.serial_number);
    assert.equal(a.sales_inventory.item.item_number, item.item_number);
    assert.deepEqual(a.inventory_log, []);
    assert.equal(a.calculated_inventory_status, "Item not fully checked in or sold");
    const b = await send(env, token, "POST", PATH, {
      ticket_id: plain.id,
      inventory_id: row.id,
      quantity: "2",
      price: 10,
      duration: 3,
      markup: 10,
      discount: "",
      state_tax: 5,
      start_date: "2024-03-01T08:00",
      end_date: "2024-03-01T10:20",
    });
    assert.equal(b.order, 2);
    assert.equal(b.discount, null);
    assert.equal(b.hours, 2.33);
    assert.equal(b.start_date, "2024-03-01T08:00:00Z");
    assert.ok(Math.abs(b.calculated_total - 69.3) < 1e-9);
    assert.ok(Math.abs(b.calculated_tax - 3.3) < 1e-9);
    const minRate = await makeTicket(db, { use_min_rate_logic: true });
    const c = await send(env, token, "POST", PATH, { ticket_id: minRate.id, inventory_id: row.id });
    assert.equal(c.duration, 0);
    assert.equal(c.minimum_rate, 200);
    assert.equal(c.calculated_total, 200);
    const lines = await env.json(`${PATH}/ticket?ticket_id=${plain.id}&paginate=false`, { token });
    assert.deepEqual(lines.results.map((l: { id: number }) => l.id), [a.id, b.id]);
  }));

Deno.test("lines - validation messages", () =>
  withEnv(async (env) => {
    const token = await tokenWith(env, []);
    const db = env.tenant.db;
    const serial = await makeRow(env, { item_id: (await makeItemOf(env, "Serialized")).id, quantity: 1 });
    const ticket = await makeTicket(db, { use_min_rate_logic: false });
    const err = async (json: unknown) => (await send(env, token, "POST", PATH, json, 422)).errors;
    assert.deepEqual(await err({ ticket_id: ticket.id }), [{ path: "inventory_id", message: "Required" }]);
    const e1 = await err({
      ticket_id: ticket.id,
      inventory_id: serial.id,
      quantity: null,
      start_date: "",
      price: null,
    });
    assert.deepEqual(e1.map((e: { path: string; message: string }) => `${e.path}:${e.message}`), [
      "quantity:Required",
      "start_date:Required",
      "price:Required",
    ]);
    assert.equal(
      (await err({ ticket_id: ticket.id, inventory_id: serial.id, quantity: 2 }))[0].message,
      "Must be at most 1",
    );
    assert.equal(
      (await err({ ticket_id: ticket.id, inventory_id: serial.id, quantity: 0.5 }))[0].message,
      "Must be a whole number",
    );
    assert.equal(
      (await err({ ticket_id: ticket.id, inventory_id: serial.id, quantity: -1 }))[0].message,
      "Must be at least 0",
    );
    assert.equal(
      (await err({ ticket_id: ticket.id, inventory_id: serial.id, discount: "x" }))[0].message,
      "Must be a number",
    );
    assert.equal(
      (await err({ ticket_id: ticket.id, inventory_id: serial.id, start_date: "03/01/2024" }))[0].path,
      "start_date",
    );
    assert.equal(
      (await err({
        ticket_id: ticket.id,
        inventory_id: serial.id,
        start_date: "2024-03-02T00:00",
        end_date: "2024-03-01T00:00",
      }))[0]
        .message,
      "End Date cannot be before Start Date",
    );
    const minRate = await makeTicket(db, { use_min_rate_logic: true });
    assert.deepEqual(await err({ ticket_id: minRate.id, inventory_id: serial.id, minimum_rate: "" }), [
      { path: "minimum_rate", message: "Required" },
    ]);
    const charge = await makeRow(env, { item_id: (await makeItemOf(env, "Charge Code")).id, quantity: 0 });
    const ok = await send(env, token, "POST", PATH, {
      ticket_id: ticket.id,
      inventory_id: charge.id,
      quantity: 12.5,
    });
    assert.equal(ok.quantity, 12.5, "charge codes take fractional quantities");
    // quote lines: no dates, no hours
    const quote = await makeTicket(db, { status: "QUOTE", isQuote: true, use_min_rate_logic: false });
    const q = await send(env, token, "POST", PATH, {
      ticket_id: quote.id,
      inventory_id: serial.id,
      start_date: "2024-03-01T08:00",
      end_date: "2024-03-01T10:00",
    });
    assert.equal(q.start_date, null);
    assert.equal(q.end_date, null);
    assert.equal(q.hours, null);
  }));

Deno.test("lines - update, reorder, invoiced lines refused, customer users 403", () =>
  withEnv(async (env) => {
    const token = await tokenWith(env, []);
    const db = env.tenant.db;
    const ticket = await makeTicket(db, { use_min_rate_logic: false });
    const a = await makeLine(db, { ticket_id: ticket.id, order: 1 });
    const b = await makeLine(db, { ticket_id: ticket.id, order: 2 });
    const other = await makeLine(db);
    // Edit on line rows is sales-admin's: a sales user may add lines, not change them.
    const refused = await send(env, token, "PUT", PATH, { id: a.id, price: 7 }, 403);
    assert.equal(refused.detail, "Only a sales admin can edit a line item.");
    assert.equal((await db.select().from(sales).where(eq(sales.id, a.id)).get())!.price, a.price);
    const admin = await tokenWith(env, ["sales-admin"]);
    const upd = await send(env, admin, "PUT", PATH, { id: a.id, price: 7, notes: "n" });
    assert.equal(upd.price, 7);
    assert.equal(upd.notes, "n");
    assert.equal(upd.quantity, 1, "unsent fields kept");
    await send(env, token, "POST", `${PATH}/reorder`, {
      ticket_id: ticket.id,
      items: [{ id: a.id, order: 2 }, { id: b.id, order: 1 }],
    });
    const lines = await env.json(`${PATH}/ticket?ticket_id=${ticket.id}`, { token });
    assert.deepEqual(lines.results.map((l: { id: number }) => l.id), [b.id, a.id]);
    const bad = await send(env, token, "POST", `${PATH}/reorder`, {
      ticket_id: ticket.id,
      items: [{ id: a.id, order: 1 }, { id: other.id, order: 2 }],
    }, 422);
    assert.deepEqual(bad.errors, [{ path: "items.1.id", message: "Not a line of this ticket" }]);

    const invoice = await makeTicket(db, { status: "APP", isInvoice: true, invoice_number: "INV-1" });
    const line = await makeLine(db, { ticket_id: invoice.id });
    const msg = "Invoiced lines cannot change.";
    assert.equal((await send(env, admin, "PUT", PATH, { id: line.id, price: 1 }, 409)).detail, msg);
    assert.equal(
      (await send(env, token, "POST", PATH, { ticket_id: invoice.id, inventory_id: line.inventory_id }, 409))
        .detail,
      msg,
    );
    assert.equal(
      (await env.json(`${PATH}/${line.id}`, {
        token: await tokenWith(env, ["sales-admin"]),
        method: "DELETE",
        status: 409,
      }))
        .detail,
      msg,
    );
    await send(env, token, "POST", `${PATH}/reorder`, { ticket_id: invoice.id, items: [] }, 409);

    const customer = await makeCompany(db, { company_type: "customer_company" });
    const outsider = await tokenWith(env, ["sales-admin"], customer.id);
    await send(env, outsider, "POST", PATH, { ticket_id: ticket.id, inventory_id: a.inventory_id }, 403);
    await env.json(`${PATH}/ticket?ticket_id=${ticket.id}`, { token: outsider, status: 403 });
    await env.json(PATH, { token: outsider, status: 403 });
    await env.json(`${PATH}/${a.id}`, { token: outsider, method: "DELETE", status: 403 });
    await env.json(`${PATH}/ticket?ticket_id=999999`, { token, status: 404 });
  }));

Deno.test("lines - a new line without a start begins at the start of today on the company's clock", () =>
  withEnv(async (env) => {
    const db = env.tenant.db;
    await db.update(companies).set({ settings: { timeZone: "America/Chicago" } }).where(eq(companies.id, 1));
    const token = await tokenWith(env, []);
    const item = await makeItemOf(env, "Itemized", { rate: 50 });
    const row = await makeRow(env, { item_id: item.id, quantity: 10 });
    const ticket = await makeTicket(db, { use_min_rate_logic: false });
    const line = await send(env, token, "POST", PATH, { ticket_id: ticket.id, inventory_id: row.id });
    const midnight = `${
      fromZonedInput(`${zonedToday(new Date(), "America/Chicago")}T00:00`, "America/Chicago")
    }:00Z`;
    assert.equal(line.start_date, midnight);
    assert.match(line.start_date, /T0[56]:00:00Z$/, "Chicago's midnight is 05:00 or 06:00 UTC");
  }));
