import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { withEnv } from "../../../scripts/testing/harness.ts";
import { makeCompany, makeTicket } from "../../../db/factories.ts";
import { companies, inventory_audit, inventory_log } from "../../../db/schema/mod.ts";
import { auditOf, heldLine, lineOf, logOf, post, rowOf } from "./checkin_fixtures.ts";

const PATH = "/api/sales/inventory/check-in";

Deno.test("check-in - quantity in returns stock: quantity_out and held fall, logged and audited", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const customer = await makeCompany(env.tenant.db, { name: "Pioneer Drilling" });
    const ticket = await makeTicket(env.tenant.db, { customer_id: customer.id, ticket_number: "T-00042" });
    const s = await heldLine(env, { quantity: 5, stock: 10, line: { ticket_id: ticket.id } });
    const res = await post(env, token, PATH, {
      ticket_id: s.ticketId,
      line_items: [s.lineId],
      quantities_in: ["3"],
      quantity_dates: ["2026-03-01T10:00"],
    });
    assert.equal(res.lines[0].checked_in, 3);
    assert.equal(res.lines[0].not_checked_in_or_sold, 2);
    assert.equal(res.lines[0].handled, false);
    const row = await rowOf(env, s.inventoryId);
    assert.deepEqual([row!.quantity, row!.quantity_out], [10, 2]);
    assert.equal((await lineOf(env, s.lineId))!.quantity_held, 2);
    const [log] = await logOf(env, s.lineId);
    assert.deepEqual(
      [
        log.action,
        log.quantity_in,
        log.date,
        log.starting_quantity,
        log.ending_quantity,
        log.remove_quantity,
      ],
      ["Check In", 3, "2026-03-01T10:00:00Z", 10, 10, false],
    );
    assert.equal(log.user_name.length > 0, true);
    const [audit] = await auditOf(env, s.inventoryId);
    assert.deepEqual([audit.action, audit.quantity, audit.quantity_change], ["Check In", 10, 3]);
    assert.deepEqual([audit.ticket_number, audit.customer_name], ["T-00042", "Pioneer Drilling"]);

    const rest = await post(env, token, PATH, {
      ticket_id: s.ticketId,
      line_items: [s.lineId],
      quantities_in: [2],
    });
    assert.equal(rest.lines[0].handled, true);
    assert.equal(rest.lines[0].isSold, false);
    assert.equal((await rowOf(env, s.inventoryId))!.quantity_out, 0);

    const log2 = await env.json(`/api/sales/sales/${s.lineId}/inventory-log`, { token });
    assert.deepEqual(log2.map((l: { quantity_in: number }) => l.quantity_in), [2, 3], "newest first");
    await env.json(`/api/sales/sales/999999/inventory-log`, { token, status: 404 });
  }));

Deno.test("check-in - sold leaves stock for good and marks the line sold when nothing is left out", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const s = await heldLine(env, { quantity: 4, stock: 10 });
    await post(env, token, PATH, {
      ticket_id: s.ticketId,
      line_items: [s.lineId],
      quantities_in: [1],
      quantities_sold: [3],
    });
    const row = await rowOf(env, s.inventoryId);
    assert.deepEqual([row!.quantity, row!.quantity_out], [7, 0]);
    const line = await lineOf(env, s.lineId);
    assert.deepEqual([line!.quantity_held, line!.isSold], [0, true]);
    const logs = await logOf(env, s.lineId);
    assert.deepEqual(
      logs.map((l) => [l.action, l.quantity_in, l.quantity_sold, l.starting_quantity, l.ending_quantity]),
      [["Check In", 1, 0, 10, 10], ["Sold", 0, 3, 10, 7]],
    );
    assert.deepEqual(
      (await auditOf(env, s.inventoryId)).map((a) => [a.action, a.quantity, a.quantity_change]),
      [["Check In", 10, 1], ["Sold", 7, -3]],
    );
    const again = await post(env, token, PATH, {
      ticket_id: s.ticketId,
      line_items: [s.lineId],
      quantities_in: [1],
    }, 409);
    assert.match(again.detail, /A sold line is not checked in again/);
  }));

Deno.test("check-in - remove quantity is Itemized only, leaves stock, is not checked in but is no longer out", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const s = await heldLine(env, { quantity: 5, stock: 10 });
    const res = await post(env, token, PATH, {
      ticket_id: s.ticketId,
      line_items: [s.lineId],
      quantities_in: [2],
      remove_quantities: [true],
    });
    assert.deepEqual([res.lines[0].checked_in, res.lines[0].removed, res.lines[0].not_checked_in_or_sold], [
      0,
      2,
      3,
    ]);
    const row = await rowOf(env, s.inventoryId);
    assert.deepEqual([row!.quantity, row!.quantity_out], [8, 3]);
    const [log] = await logOf(env, s.lineId);
    assert.deepEqual([log.action, log.remove_quantity, log.ending_quantity], ["Removed", true, 8]);
    assert.deepEqual((await auditOf(env, s.inventoryId)).map((a) => [a.action, a.quantity_change]), [[
      "Removed",
      -2,
    ]]);
    // the removed 2 came back off the line: only 3 more may come back
    const cap = await post(env, token, PATH, {
      ticket_id: s.ticketId,
      line_items: [s.lineId],
      quantities_in: [4],
    }, 422);
    assert.match(cap.detail, /^All Checked-In and Sold can't exceed Quantity: /);
    // the other 3 back: in + removed account for the line, which is handled (no dead end)
    const done = await post(env, token, PATH, {
      ticket_id: s.ticketId,
      line_items: [s.lineId],
      quantities_in: [3],
    });
    assert.deepEqual([done.lines[0].not_checked_in_or_sold, done.lines[0].handled], [0, true]);

    for (const type of ["Serialized", "Charge Code"] as const) {
      const other = await heldLine(env, { quantity: 1, stock: 1, item: { inventory_type: type } });
      const body = await post(env, token, PATH, {
        ticket_id: other.ticketId,
        line_items: [other.lineId],
        quantities_in: [1],
        remove_quantities: [true],
      }, 422);
      assert.equal(body.errors[0].message, "Remove quantity is for Itemized items only");
    }
  }));

Deno.test("check-in - the spec's messages: positive, whole, the cap with the item description", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const s = await heldLine(env, { quantity: 3, item: { item_description: "2in chiksan" } });
    const body = (q: Record<string, unknown>) => ({ ticket_id: s.ticketId, line_items: [s.lineId], ...q });
    assert.equal(
      (await post(env, token, PATH, body({ quantities_in: [-1] }), 422)).errors[0].message,
      "Must be a positive number",
    );
    assert.equal(
      (await post(env, token, PATH, body({ quantities_sold: ["1.5"] }), 422)).errors[0].message,
      "Must be a whole number",
    );
    assert.equal(
      (await post(env, token, PATH, body({ quantities_in: [0] }), 422)).errors[0].message,
      "Enter a quantity in or sold",
    );
    const cap = await post(env, token, PATH, body({ quantities_in: [2], quantities_sold: [2] }), 422);
    assert.equal(cap.detail, "All Checked-In and Sold can't exceed Quantity: 2in chiksan");
    await post(env, token, PATH, body({ quantities_in: [2] }));
    const later = await post(env, token, PATH, body({ quantities_sold: [2] }), 422);
    assert.equal(later.detail, "All Checked-In and Sold can't exceed Quantity: 2in chiksan");
    assert.equal((await logOf(env, s.lineId)).length, 1, "refusals change nothing");
    await post(env, token, PATH, { ticket_id: s.ticketId, line_items: [] }, 422);
    await post(env, token, PATH, body({ quantities_in: [1, 1] }), 422);
  }));

Deno.test("check-in - all lines or none; lines must be on the ticket; quotes and invoices refuse", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const a = await heldLine(env, { quantity: 2, stock: 5 });
    const b = await heldLine(env, {
      quantity: 2,
      stock: 5,
      line: { ticket_id: a.ticketId },
      item: { item_description: "Frac valve" },
    });
    const res = await post(env, token, PATH, {
      ticket_id: a.ticketId,
      line_items: [a.lineId, b.lineId],
      quantities_in: [2, 3],
    }, 422);
    assert.equal(res.detail, "All Checked-In and Sold can't exceed Quantity: Frac valve");
    assert.equal((await rowOf(env, a.inventoryId))!.quantity_out, 2);
    assert.equal((await env.tenant.db.select().from(inventory_log)).length, 0);
    assert.equal((await env.tenant.db.select().from(inventory_audit)).length, 0);

    const ok = await post(env, token, PATH, {
      ticket_id: a.ticketId,
      line_items: [a.lineId, b.lineId],
      quantities_in: [2, 2],
    });
    assert.deepEqual(ok.lines.map((l: { handled: boolean }) => l.handled), [true, true]);

    const elsewhere = await heldLine(env);
    await post(env, token, PATH, {
      ticket_id: a.ticketId,
      line_items: [elsewhere.lineId],
      quantities_in: [1],
    }, 404);
    await post(
      env,
      token,
      PATH,
      { ticket_id: 999999, line_items: [elsewhere.lineId], quantities_in: [1] },
      404,
    );
    const quote = await heldLine(env, { ticket: { status: "QUOTE", isQuote: true } });
    await post(env, token, PATH, {
      ticket_id: quote.ticketId,
      line_items: [quote.lineId],
      quantities_in: [1],
    }, 409);
    const invoice = await heldLine(env, { ticket: { status: "APP", isInvoice: true } });
    await post(env, token, PATH, {
      ticket_id: invoice.ticketId,
      line_items: [invoice.lineId],
      quantities_in: [1],
    }, 409);
  }));

Deno.test("check-in - staff of other companies are refused", () =>
  withEnv(async (env) => {
    const s = await heldLine(env);
    const outsider = await makeCompany(env.tenant.db);
    const { token } = await env.userWithToken({ company_id: outsider.id });
    await post(env, token, PATH, { ticket_id: s.ticketId, line_items: [s.lineId], quantities_in: [1] }, 403);
    await env.json(`/api/sales/sales/${s.lineId}/inventory-log`, { token, status: 403 });
    assert.ok(await env.tenant.db.select().from(companies).where(eq(companies.id, outsider.id)).get());
  }));
