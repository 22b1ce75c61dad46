import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { withEnv } from "../../../scripts/testing/harness.ts";
import { makeInventory } from "../../../db/factories.ts";
import { companies } from "../../../db/schema/mod.ts";
import { formatDate } from "../../../lib/format.ts";
import { heldLine, logOf, post } from "./checkin_fixtures.ts";

const CHECK_IN = "/api/sales/inventory/check-in";
const RECLASS = "/api/sales/sales/reclass";
const CHICAGO = "America/Chicago";

Deno.test("check-in - a date sent as a bare day is that day's start on the company's clock", () =>
  withEnv(async (env) => {
    await env.tenant.db.update(companies).set({ settings: { timeZone: CHICAGO } }).where(eq(companies.id, 1));
    const token = await env.login();
    const s = await heldLine(env, { quantity: 5, stock: 10 });
    await post(env, token, CHECK_IN, {
      ticket_id: s.ticketId,
      line_items: [s.lineId],
      quantities_in: [1],
      quantity_dates: ["2026-03-03"],
    });
    // Chicago is UTC-6 on March 3rd (daylight saving starts on the 8th), UTC-5 in July.
    await post(env, token, CHECK_IN, {
      ticket_id: s.ticketId,
      line_items: [s.lineId],
      quantities_in: [1],
      quantity_dates: ["2026-07-03"],
    });
    // A time without an offset is UTC, as the screens send it (converted from the company's clock).
    await post(env, token, CHECK_IN, {
      ticket_id: s.ticketId,
      line_items: [s.lineId],
      quantities_in: [1],
      quantity_dates: ["2026-03-03T02:00"],
    });
    const dates = (await logOf(env, s.lineId)).map((l) => l.date);
    assert.deepEqual(dates, ["2026-03-03T06:00:00Z", "2026-07-03T05:00:00Z", "2026-03-03T02:00:00Z"]);
    assert.deepEqual(dates.slice(0, 2).map((d) => formatDate(d, CHICAGO)), ["03-03-2026", "07-03-2026"]);

    const bad = await post(env, token, CHECK_IN, {
      ticket_id: s.ticketId,
      line_items: [s.lineId],
      quantities_in: [1],
      quantity_dates: ["2026-02-30"],
    }, 422);
    assert.deepEqual(bad.errors, [{ path: "quantity_dates.0", message: "Must be a date" }]);
  }));

Deno.test("reclass - a date sent as a bare day is that day's start on the company's clock", () =>
  withEnv(async (env) => {
    await env.tenant.db.update(companies).set({ settings: { timeZone: CHICAGO } }).where(eq(companies.id, 1));
    const token = await env.login();
    const s = await heldLine(env, { quantity: 5, stock: 10, row: { serial_number: "LOT-A" } });
    const target = await makeInventory(env.tenant.db, {
      item_id: s.itemId,
      business_unit_id: s.unitId,
      serial_number: "LOT-B",
      quantity: 1,
    });
    await post(env, token, CHECK_IN, { ticket_id: s.ticketId, line_items: [s.lineId], quantities_in: [2] });
    await post(env, token, RECLASS, {
      ticket_id: s.ticketId,
      rows: [{
        sale_id: s.lineId,
        reclass_date: "2026-03-03",
        from_inventory_id: s.inventoryId,
        to_inventory_id: target.id,
        reclass_quantity: 1,
      }],
    });
    const reclassed = (await logOf(env, s.lineId)).find((l) => l.action === "Reclass")!;
    assert.equal(reclassed.date, "2026-03-03T06:00:00Z");
    assert.equal(formatDate(reclassed.date, CHICAGO), "03-03-2026");
  }));
