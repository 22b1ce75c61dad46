import assert from "node:assert/strict";
import { withEnv } from "../../../scripts/testing/harness.ts";
import { heldLine, lineOf, post, rowOf } from "./checkin_fixtures.ts";

Deno.test("line edit after a check-in - the hold moves by the change and cannot drop below what came back", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const s = await heldLine(env, { quantity: 3, stock: 10 });
    await post(env, token, "/api/sales/inventory/check-in", {
      ticket_id: s.ticketId,
      line_items: [s.lineId],
      quantities_in: ["1"],
      quantity_dates: ["2026-03-01T10:00"],
    });
    assert.equal((await lineOf(env, s.lineId))!.quantity_held, 2);
    const low = await env.json("/api/sales/sales", {
      method: "PUT",
      token,
      json: { id: s.lineId, quantity: 0 },
      status: 422,
    });
    assert.equal(low.errors[0].path, "quantity");
    assert.match(low.errors[0].message, /less than the 1 already checked in/);
    assert.equal((await rowOf(env, s.inventoryId))!.quantity_out, 2, "nothing moved");

    await env.json("/api/sales/sales", { method: "PUT", token, json: { id: s.lineId, quantity: 5 } });
    assert.equal((await lineOf(env, s.lineId))!.quantity_held, 4);
    assert.equal((await rowOf(env, s.inventoryId))!.quantity_out, 4);

    await env.json("/api/sales/sales", { method: "PUT", token, json: { id: s.lineId, quantity: 1 } });
    assert.equal((await lineOf(env, s.lineId))!.quantity_held, 0);
    assert.equal((await rowOf(env, s.inventoryId))!.quantity_out, 0);
  }));
