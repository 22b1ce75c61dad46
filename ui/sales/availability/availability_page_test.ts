import assert from "node:assert/strict";
import { withEnv } from "../../../scripts/testing/harness.ts";
import { makeCompany, makeTicket } from "../../../db/factories.ts";
import { addDays, today } from "../../../lib/format.ts";
import {
  makeItemOf,
  makeRow,
  makeUnit,
  send,
  tokenWith,
} from "../../../api/sales/inventory/test_fixtures.ts";
import { monthOf, shiftMonth, weeksOf } from "./month.ts";

const cookie = (token: string) => ({ cookie: `session=${token}` });

Deno.test("availability page - the month's days coloured by what is free, the chosen day's bookings listed", () =>
  withEnv(async (env) => {
    const token = await tokenWith(env, []);
    const item = await makeItemOf(env, "Serialized", { item_number: "PV-3IN" });
    const [midland, odessa] = [await makeUnit(env, [], "Midland"), await makeUnit(env, [], "Odessa")];
    const row = await makeRow(env, {
      item_id: item.id,
      business_unit_id: midland.id,
      serial_number: "PV-1",
      quantity: 1,
    });
    await makeRow(env, { item_id: item.id, business_unit_id: odessa.id, serial_number: "PV-9", quantity: 1 });
    const ticket = await makeTicket(env.tenant.db, { ticket_number: "T-00077", use_min_rate_logic: false });
    // booked from the 10th to the 12th of next month (08:00 UTC)
    const month = shiftMonth(today(new Date(), "UTC").slice(0, 7), 1);
    await send(env, token, "POST", "/api/sales/sales", {
      ticket_id: ticket.id,
      inventory_id: row.id,
      quantity: 1,
      start_date: `${month}-10T08:00`,
      end_date: `${month}-12T08:00`,
    });
    const res = await env.request(
      `/sales/availability?item_id=${item.id}&month=${month}&day=${month}-11`,
      cookie(token),
    );
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.match(html, /<h1>Availability: PV-3IN<\/h1>/);
    // the first unit by name holding the item; both offered
    assert.match(html, /<option value="\d+" selected="">Midland<\/option>/);
    assert.match(html, />Odessa<\/option>/);
    const cell = (day: string) =>
      new RegExp(`<td class="calendar-day calendar-(\\w+)"><a [^>]*aria-label="${day}: ([^"]*)"`);
    const [y, m] = month.split("-");
    assert.deepEqual(html.match(cell(`${m}-09-${y}`))!.slice(1), ["all", "1 of 1 free, 0 bookings"]);
    assert.deepEqual(html.match(cell(`${m}-10-${y}`))!.slice(1), ["none", "0 of 1 free, 1 booking"]);
    assert.deepEqual(html.match(cell(`${m}-12-${y}`))!.slice(1), ["none", "0 of 1 free, 1 booking"]);
    assert.deepEqual(html.match(cell(`${m}-13-${y}`))!.slice(1), ["all", "1 of 1 free, 0 bookings"]);
    assert.match(
      html,
      new RegExp(`aria-label="${m}-11-${y}: [^"]*" aria-current="date"`),
    );
    assert.match(html, new RegExp(`Bookings on <!-- -->${m}-11-${y}`));
    // A phone keeps Ticket #, Serial # and Start; the others are lines under them (and hidden columns).
    assert.match(
      html,
      /<a href="\/sales\/tickets\/\d+">T-00077<\/a><span class="cell-more">State: <!-- -->Booked/,
    );
    assert.match(html, /<td>PV-1<span class="cell-more">Quantity: <!-- -->1<\/span><\/td>/);
    assert.match(html, /<td class="col-more">Booked<\/td>/);
    assert.match(
      html,
      new RegExp(
        `href="/sales/availability\\?item_id=${item.id}&amp;business_unit=${midland.id}&amp;month=${
          shiftMonth(month, 1)
        }"`,
      ),
    );
  }));

Deno.test("availability page - no item: where to open it; unknown item: not found; outsiders: away", () =>
  withEnv(async (env) => {
    const token = await tokenWith(env, []);
    const none = await (await env.request("/sales/availability", cookie(token))).text();
    assert.match(none, /Open the calendar of an item from/);
    const unknown = await env.request("/sales/availability?item_id=99999&business_unit=1", cookie(token));
    assert.equal(unknown.status, 404);
    await unknown.body?.cancel();
    const outsider = await env.userWithToken({ company_id: (await makeCompany(env.tenant.db)).id });
    const away = await env.request("/sales/availability", cookie(outsider.token));
    assert.equal(away.status, 302);
    assert.match(away.headers.get("location")!, /^\/(\?refused=|$)/);
    await away.body?.cancel();
  }));

Deno.test("availability month - months from the URL or today; weeks Monday to Sunday", () => {
  assert.equal(monthOf("2026-02", "2026-11-24"), "2026-02");
  assert.equal(monthOf("2026-13", "2026-11-24"), "2026-11");
  assert.equal(shiftMonth("2026-12", 1), "2027-01");
  assert.equal(shiftMonth("2026-01", -1), "2025-12");
  // February 2026 starts on a Sunday
  const days = Array.from({ length: 28 }, (_, i) => addDays("2026-02-01", i));
  const weeks = weeksOf(days);
  assert.equal(weeks.length, 5);
  assert.deepEqual(weeks[0], [null, null, null, null, null, null, "2026-02-01"]);
  assert.deepEqual(weeks[4].slice(0, 1), ["2026-02-23"]);
});
