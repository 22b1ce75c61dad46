import assert from "node:assert/strict";
import type { InStatement } from "@libsql/client";
import { withEnv } from "../../../scripts/testing/harness.ts";
import { makeCompany, makeLine, makeTicket } from "../../../db/factories.ts";
import { addDays, today } from "../../../lib/format.ts";
import {
  makeInventoryCategory,
  makeItemOf,
  makeRow,
  makeUnit,
  planOf,
  recordingCtx,
  send,
  tokenWith,
} from "../inventory/test_fixtures.ts";
import { dueLines } from "../lines/start_due.ts";
import { rentalAvailability } from "./service.ts";
import { AvailabilityQuery, RANGE_MESSAGE } from "./schemas.ts";

const LINES = "/api/sales/sales";
const date = (n: number) => addDays(today(new Date(), "UTC"), n);
/** 08:00 UTC, `n` days from today. */
const at = (n: number) => `${date(n)}T08:00`;

Deno.test("availability calendar - per day: owned, reserved, free and the bookings of an item in a unit", () =>
  withEnv(async (env) => {
    const token = await tokenWith(env, []);
    const item = await makeItemOf(env, "Serialized");
    const [unit, elsewhere] = [await makeUnit(env, [], "Midland"), await makeUnit(env, [], "Odessa")];
    const rows = await Promise.all(
      ["PV-1", "PV-2"].map((serial_number) =>
        makeRow(env, { item_id: item.id, business_unit_id: unit.id, serial_number, quantity: 1 })
      ),
    );
    await makeRow(env, { item_id: item.id, business_unit_id: elsewhere.id, quantity: 1 });
    const tickets = await Promise.all(
      [0, 1, 2].map(() => makeTicket(env.tenant.db, { use_min_rate_logic: false })),
    );
    const book = (t: number, row: number, from: number, to: number) =>
      send(env, token, "POST", LINES, {
        ticket_id: tickets[t].id,
        inventory_id: rows[row].id,
        quantity: 1,
        start_date: at(from),
        end_date: at(to),
      });
    const a = await book(0, 0, 2, 5);
    const b = await book(1, 1, 4, 6);
    // back to back on PV-1: on day 5 one ends at 08:00 as the other starts
    const c = await book(2, 0, 5, 7);
    // a quote's line reserves nothing
    const quote = await makeTicket(env.tenant.db, { status: "QUOTE", isQuote: true });
    await makeLine(env.tenant.db, { ticket_id: quote.id, inventory_id: rows[1].id, start_date: null });

    const cal = await env.json(
      `/api/sales/availability?item_id=${item.id}&business_unit=${unit.id}&from=${date(0)}&to=${date(9)}`,
      { token },
    );
    assert.equal(cal.days.length, 10);
    assert.deepEqual(cal.rows.map((r: { serial_number: string }) => r.serial_number), ["PV-1", "PV-2"]);
    const figures = cal.days.map((
      d: { owned: number; reserved: number; free: number; bookings: number[] },
    ) => [d.owned, d.reserved, d.free, d.bookings.length]);
    assert.deepEqual(figures, [
      [2, 0, 2, 0],
      [2, 0, 2, 0],
      [2, 1, 1, 1],
      [2, 1, 1, 1],
      [2, 2, 0, 2],
      [2, 2, 0, 3],
      [2, 2, 0, 2],
      [2, 1, 1, 1],
      [2, 0, 2, 0],
      [2, 0, 2, 0],
    ]);
    assert.deepEqual(cal.days[5].bookings.sort(), [a.id, b.id, c.id].sort());
    const first = cal.bookings.find((x: { line_id: number }) => x.line_id === a.id);
    assert.deepEqual(
      [first.ticket_number, first.serial_number, first.start_date, first.end_date, first.pending],
      [tickets[0].ticket_number, "PV-1", `${at(2)}:00Z`, `${at(5)}:00Z`, true],
    );
    assert.equal(cal.truncated, false);
  }));

Deno.test("availability calendar - bounded range, real dates, known item and unit; staff only", () =>
  withEnv(async (env) => {
    const token = await tokenWith(env, []);
    const item = await makeItemOf(env, "Itemized");
    const unit = await makeUnit(env);
    const url = (q: string) => `/api/sales/availability?${q}`;
    const base = `item_id=${item.id}&business_unit=${unit.id}`;
    const long = await env.json(url(`${base}&from=2026-01-01&to=2026-04-03`), { token, status: 422 });
    assert.equal(long.detail, `to: ${RANGE_MESSAGE}`);
    await env.json(url(`${base}&from=2026-01-01&to=2026-04-02`), { token });
    await env.json(url(`${base}&from=2026-02-01&to=2026-01-31`), { token, status: 422 });
    await env.json(url(`${base}&from=2026-02-30&to=2026-03-01`), { token, status: 422 });
    await env.json(url(`business_unit=${unit.id}&from=2026-01-01&to=2026-01-02`), { token, status: 422 });
    // a category that is not a business unit
    const notUnit = (await makeInventoryCategory(env)).id;
    await env.json(url(`item_id=999999&business_unit=${unit.id}&from=2026-01-01&to=2026-01-02`), {
      token,
      status: 404,
    });
    await env.json(
      url(`item_id=${item.id}&business_unit=${notUnit}&from=2026-01-01&to=2026-01-02`),
      {
        token,
        status: 404,
      },
    );
    // a customer's user is not the owner company's staff
    const customer = await env.userWithToken({ company_id: (await makeCompany(env.tenant.db)).id });
    await env.json(url(`${base}&from=2026-01-01&to=2026-01-02`), { token: customer.token, status: 403 });
  }));

Deno.test("availability calendar - reservations and starts are read through their partial indexes", () =>
  withEnv(async (env) => {
    const token = await tokenWith(env, []);
    const item = await makeItemOf(env, "Itemized");
    const unit = await makeUnit(env);
    const row = await makeRow(env, { item_id: item.id, business_unit_id: unit.id, quantity: 50 });
    const ticket = await makeTicket(env.tenant.db);
    // many lines returned long ago, which a reservation check must not walk
    await env.tenant.client.execute(`
      with recursive n(i) as (select 1 union all select i + 1 from n where i < 3000)
      insert into sales (ticket_id, company_id, inventory_id, start_date, end_date, quantity)
      select ${ticket.id}, 1, ${row.id}, '2025-01-01T08:00:00Z', '2025-01-02T08:00:00Z', 1 from n`);
    await env.tenant.client.execute("analyze");
    const user = await env.json("/api/admin/users/me", { token });
    const log: InStatement[] = [];
    await rentalAvailability(
      recordingCtx(env, user, log),
      AvailabilityQuery.parse({ item_id: item.id, business_unit: unit.id, from: date(0), to: date(30) }),
    );
    const read = log.find((s) => /from "sales"/.test(typeof s === "string" ? s : s.sql))!;
    const plan = (await planOf(env, read)).map((l) => l.detail).join("\n");
    assert.match(plan, /sales_reservation_idx/, plan);
    assert.doesNotMatch(plan, /SCAN "?sales"?\b/, plan);
    const due = dueLines(env.tenant.db).toSQL();
    const duePlan = (await planOf(env, { sql: due.sql, args: due.params as never })).map((l) => l.detail);
    assert.match(duePlan.join("\n"), /sales_pending_start_idx/);
  }));
