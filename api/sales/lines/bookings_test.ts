import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { withEnv } from "../../../scripts/testing/harness.ts";
import { makeTicket } from "../../../db/factories.ts";
import { sales } from "../../../db/schema/mod.ts";
import { addDays, formatDate, today } from "../../../lib/format.ts";
import { makeItemOf, makeRow, makeUnit, send, stored, tokenWith } from "../inventory/test_fixtures.ts";
import { bookingsOf } from "./reservations.ts";

const PATH = "/api/sales/sales";
const CHECK_IN = "/api/sales/inventory/check-in";
/** 08:00 UTC, `n` days from today: what the line form sends. */
const day = (n: number) => `${addDays(today(new Date(), "UTC"), n)}T08:00`;
const line = async (env: Parameters<Parameters<typeof withEnv>[0]>[0], id: number) =>
  (await env.tenant.db.select().from(sales).where(eq(sales.id, id)).get())!;

/** A serial (quantity 1 unless given) and `n` open tickets. */
async function setup(env: Parameters<Parameters<typeof withEnv>[0]>[0], n: number, quantity = 1) {
  const item = await makeItemOf(env, quantity === 1 ? "Serialized" : "Itemized");
  const row = await makeRow(env, { item_id: item.id, quantity });
  const tickets = [];
  for (let i = 0; i < n; i++) tickets.push(await makeTicket(env.tenant.db, { use_min_rate_logic: false }));
  return { item, row, tickets };
}

/**
 * A serial booked on the first of two tickets from day 2 to day 4, then its start moved behind us (the stored
 * instant moved back, as the clock would): a booking whose start has come and that holds nothing yet.
 */
async function dueBooking(env: Parameters<Parameters<typeof withEnv>[0]>[0], token: string) {
  const { row, tickets: [a, b] } = await setup(env, 2);
  const booked = await send(env, token, "POST", PATH, {
    ticket_id: a.id,
    inventory_id: row.id,
    quantity: 1,
    start_date: day(2),
    end_date: day(4),
  });
  await env.tenant.db.update(sales).set({ start_date: `${day(-1)}:00Z` }).where(eq(sales.id, booked.id));
  return { row, a, b, booked };
}

Deno.test("bookings - one serial on two tickets: overlapping dates are refused by name, back to back is fine", () =>
  withEnv(async (env) => {
    const token = await tokenWith(env, []);
    const admin = await tokenWith(env, ["sales-admin"]);
    const { row, tickets: [a, b] } = await setup(env, 2);
    const booking = (ticket: number, start: number, end: number) => ({
      ticket_id: ticket,
      inventory_id: row.id,
      quantity: 1,
      start_date: day(start),
      end_date: day(end),
    });
    const first = await send(env, token, "POST", PATH, booking(a.id, 10, 15));
    const clash = await send(env, token, "POST", PATH, booking(b.id, 12, 20), 409);
    assert.equal(
      clash.detail,
      `${row.serial_number} is booked on ticket ${a.ticket_number} (${formatDate(day(10), "UTC")} to ${
        formatDate(day(15), "UTC")
      }): 0 of 1 free on ${formatDate(day(12), "UTC")}, this line needs 1.`,
    );
    assert.equal(clash.bookings[0].line_id, first.id);
    // the first ends as the second starts: no overlap
    const second = await send(env, token, "POST", PATH, booking(b.id, 15, 20));
    // an edit moving dates into the other booking is refused; one moving away frees its old range
    await send(env, admin, "PUT", PATH, { id: second.id, start_date: day(14) }, 409);
    assert.equal((await line(env, second.id)).start_date, `${day(15)}:00Z`, "a refusal changes nothing");
    await send(env, admin, "PUT", PATH, { id: first.id, start_date: day(30), end_date: day(35) });
    await send(env, admin, "PUT", PATH, { id: second.id, start_date: day(10) });
    // neither has started: nothing is out today
    assert.equal((await stored(env, row.id))!.quantity_out, 0);
    assert.deepEqual(
      [(await line(env, first.id)).quantity_pending, (await line(env, first.id)).quantity_held],
      [1, 0],
    );
  }));

Deno.test("bookings - a booking next month does not block this week; an open end reaches it", () =>
  withEnv(async (env) => {
    const token = await tokenWith(env, []);
    const { row, tickets: [a, b, c] } = await setup(env, 3, 2);
    await send(env, token, "POST", PATH, {
      ticket_id: a.id,
      inventory_id: row.id,
      quantity: 2,
      start_date: day(30),
      end_date: day(35),
    });
    // this week, back before the booking: taken now, out today
    const week = await send(env, token, "POST", PATH, {
      ticket_id: b.id,
      inventory_id: row.id,
      quantity: 1,
      end_date: day(7),
    });
    assert.equal(week.quantity_held, 1);
    assert.equal((await stored(env, row.id))!.quantity_out, 1);
    // one more from today with no end (until returned) would still be out when the booking starts
    const open = await send(
      env,
      token,
      "POST",
      PATH,
      { ticket_id: c.id, inventory_id: row.id, quantity: 1 },
      409,
    );
    assert.match(open.detail, new RegExp(`booked on ticket ${a.ticket_number} `));
    assert.match(open.detail, /0 of 2 free/);
    await send(env, token, "POST", PATH, {
      ticket_id: c.id,
      inventory_id: row.id,
      quantity: 1,
      end_date: day(30),
    });
  }));

Deno.test("bookings - quotes never reserve; a future booking of more than the row owns is refused", () =>
  withEnv(async (env) => {
    const token = await tokenWith(env, []);
    const { row, tickets: [a] } = await setup(env, 1, 3);
    const quote = await makeTicket(env.tenant.db, {
      status: "QUOTE",
      isQuote: true,
      use_min_rate_logic: false,
    });
    const q = await send(env, token, "POST", PATH, {
      ticket_id: quote.id,
      inventory_id: row.id,
      quantity: 3,
    });
    assert.deepEqual([q.quantity_held, (await line(env, q.id)).quantity_pending], [0, 0]);
    await send(env, token, "POST", PATH, {
      ticket_id: a.id,
      inventory_id: row.id,
      quantity: 3,
      start_date: day(3),
      end_date: day(10),
    });
    const over = await send(env, token, "POST", PATH, {
      ticket_id: a.id,
      inventory_id: row.id,
      quantity: 4,
      start_date: day(40),
    }, 409);
    assert.equal(over.detail, `Only 3 of ${row.serial_number} can be booked; this line needs 4.`);
  }));

Deno.test("bookings - checking in or deleting a line frees its dates", () =>
  withEnv(async (env) => {
    const token = await tokenWith(env, []);
    const admin = await tokenWith(env, ["sales-admin"]);
    const { row, tickets: [a, b, c] } = await setup(env, 3);
    const out = await send(env, token, "POST", PATH, {
      ticket_id: a.id,
      inventory_id: row.id,
      quantity: 1,
      end_date: day(10),
    });
    const later = { inventory_id: row.id, quantity: 1, start_date: day(5), end_date: day(8) };
    await send(env, token, "POST", PATH, { ...later, ticket_id: b.id }, 409);
    // back early: the rest of its range is free
    await send(env, token, "POST", CHECK_IN, { ticket_id: a.id, line_items: [out.id], quantities_in: [1] });
    const booked = await send(env, token, "POST", PATH, { ...later, ticket_id: b.id });
    await send(env, token, "POST", PATH, { ...later, ticket_id: c.id }, 409);
    await env.json(`${PATH}/${booked.id}`, { token: admin, method: "DELETE" });
    await send(env, token, "POST", PATH, { ...later, ticket_id: c.id });
  }));

Deno.test("bookings - a booking takes its hold when it starts (audited); one whose stock is still out waits", () =>
  withEnv(async (env) => {
    const token = await tokenWith(env, []);
    const db = env.tenant.db;
    // time passes: its start is now behind us
    const { row, a, b, booked } = await dueBooking(env, token);
    // the next line write of the tenant starts it (here one on another row)
    const other = await makeRow(env, { item_id: row.item_id, quantity: 1 });
    await send(env, token, "POST", PATH, {
      ticket_id: b.id,
      inventory_id: other.id,
      quantity: 1,
      end_date: day(1),
    });
    assert.deepEqual(
      [(await line(env, booked.id)).quantity_held, (await line(env, booked.id)).quantity_pending],
      [1, 0],
    );
    assert.equal((await stored(env, row.id))!.quantity_out, 1);
    const audit = await env.json(
      `/api/sales/audit/inventory-rows?page=1&rowsPerPage=10&inventory_id=${row.id}`,
      {
        token,
      },
    );
    assert.ok(audit.results.some((r: { action: string }) => r.action === "Line Started"), "audited");
    // it can be checked in like any line
    await send(env, token, "POST", CHECK_IN, {
      ticket_id: a.id,
      line_items: [booked.id],
      quantities_in: [1],
    });
    assert.equal((await stored(env, row.id))!.quantity_out, 0);

    // the other serial is out (until day 1) when its next booking's start comes: that one waits
    const waiting = await send(env, token, "POST", PATH, {
      ticket_id: a.id,
      inventory_id: other.id,
      quantity: 1,
      start_date: day(2),
      end_date: day(3),
    });
    await db.update(sales).set({ start_date: `${day(-1)}:00Z`, end_date: null }).where(
      eq(sales.id, waiting.id),
    );
    await send(env, token, "POST", PATH, {
      ticket_id: b.id,
      inventory_id: row.id,
      quantity: 1,
      end_date: day(1),
    });
    assert.deepEqual(
      [(await line(env, waiting.id)).quantity_held, (await line(env, waiting.id)).quantity_pending],
      [0, 1],
    );
    assert.equal((await stored(env, other.id))!.quantity_out, 1, "never more out than owned");
  }));

Deno.test("bookings - a stock change (here a quantity edit) first starts the bookings that are due", () =>
  withEnv(async (env) => {
    const token = await tokenWith(env, []);
    const { row, tickets: [a] } = await setup(env, 1, 3);
    const admin = await env.login();
    const booked = await send(env, token, "POST", PATH, {
      ticket_id: a.id,
      inventory_id: row.id,
      quantity: 2,
      start_date: day(2),
      end_date: day(4),
    });
    assert.equal((await stored(env, row.id))!.quantity_out, 0);
    await env.tenant.db.update(sales).set({ start_date: `${day(-1)}:00Z` }).where(eq(sales.id, booked.id));
    // a quantity edit of the row: the booking takes its 2 first, so the row cannot drop below them
    await send(env, admin, "PATCH", "/api/sales/inventory/quantity", [{ id: row.id, quantity: 1 }], 409);
    await send(env, admin, "PATCH", "/api/sales/inventory/quantity", [{ id: row.id, quantity: 2 }]);
    assert.deepEqual(
      [(await line(env, booked.id)).quantity_held, (await stored(env, row.id))!.quantity_out],
      [
        2,
        2,
      ],
    );
    assert.equal((await stored(env, row.id))!.quantity, 2);
  }));

Deno.test("bookings - lowering stock below what its bookings from now on need is refused by name", () =>
  withEnv(async (env) => {
    const token = await tokenWith(env, []);
    const admin = await env.login();
    const { row, tickets: [a, b] } = await setup(env, 2, 3);
    for (const [ticket, quantity] of [[a, 2], [b, 1]] as const) {
      await send(env, token, "POST", PATH, {
        ticket_id: ticket.id,
        inventory_id: row.id,
        quantity,
        start_date: day(5),
        end_date: day(8),
      });
    }
    // nothing is out today, but all 3 are booked from day 5
    assert.equal((await stored(env, row.id))!.quantity_out, 0);
    const refused = await send(env, admin, "PATCH", "/api/sales/inventory/quantity", [{
      id: row.id,
      quantity: 2,
    }], 409);
    assert.match(
      refused.detail,
      new RegExp(`booked on ticket ${a.ticket_number} .*ticket ${b.ticket_number}`),
    );
    assert.match(refused.detail, /3 reserved on .*more than the 2 this change would leave/);
    const unit = await makeUnit(env, [], "Odessa");
    await send(env, admin, "POST", "/api/sales/inventory/business-unit-transfer", {
      inventory_id: row.id,
      to_business_unit_id: unit.id,
      quantity: 1,
    }, 409);
    await send(env, admin, "PUT", "/api/sales/inventory", { id: row.id, quantity: 1 }, 409);
    assert.equal((await stored(env, row.id))!.quantity, 3, "nothing changed");
    // raising it is fine
    await send(env, admin, "PATCH", "/api/sales/inventory/quantity", [{ id: row.id, quantity: 4 }]);
    await send(env, admin, "POST", "/api/sales/inventory/business-unit-transfer", {
      inventory_id: row.id,
      to_business_unit_id: unit.id,
      quantity: 1,
    });
  }));

Deno.test("bookings - 30 parallel saves of one serial over overlapping ranges: no two accepted overlap", () =>
  withEnv(async (env) => {
    const token = await tokenWith(env, []);
    const { row, tickets } = await setup(env, 5);
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) =>
      env.request(PATH, {
        token,
        method: "POST",
        json: {
          ticket_id: tickets[i % 5].id,
          inventory_id: row.id,
          quantity: 1,
          start_date: day(1 + i),
          end_date: day(4 + i),
        },
      }).then(async (r) => ({ status: r.status, body: await r.json() }))));
    assert.deepEqual([...new Set(answers.map((a) => a.status))].sort(), [200, 409]);
    const accepted = await bookingsOf(env.tenant.db, [row.id], `${day(0)}:00Z`, null);
    assert.equal(accepted.length, answers.filter((a) => a.status === 200).length);
    for (const x of accepted) {
      for (const y of accepted) {
        if (x !== y) {
          assert.ok(x.end_date! <= y.start_date || y.end_date! <= x.start_date, "overlap accepted");
        }
      }
    }
    // three-day ranges starting a day apart: at most every third fits, at least every fifth does
    assert.ok(accepted.length >= 6 && accepted.length <= 10, `${accepted.length} accepted`);
  }));

Deno.test("bookings - a due booking is started once by the first of a group of parallel writes, in the same second as a sweep that found none", () =>
  withEnv(async (env) => {
    const token = await tokenWith(env, []);
    // Its save's sweep found nothing due; the clock moves its start behind us within that second.
    const { row, b, booked } = await dueBooking(env, token);
    const others = [];
    for (let i = 0; i < 6; i++) others.push(await makeRow(env, { item_id: row.item_id, quantity: 1 }));
    await Promise.all(
      others.map((o) =>
        send(env, token, "POST", PATH, { ticket_id: b.id, inventory_id: o.id, quantity: 1, end_date: day(1) })
      ),
    );
    assert.deepEqual(
      [(await line(env, booked.id)).quantity_held, (await line(env, booked.id)).quantity_pending],
      [1, 0],
    );
    assert.equal((await stored(env, row.id))!.quantity_out, 1);
    const audit = await env.json(
      `/api/sales/audit/inventory-rows?page=1&rowsPerPage=50&inventory_id=${row.id}`,
      { token },
    );
    assert.equal(audit.results.filter((r: { action: string }) => r.action === "Line Started").length, 1);
  }));
