import assert from "node:assert/strict";
import { withEnv } from "../scripts/testing/harness.ts";
import { makeInventory, makeItem, makeJob, makeTicket } from "../db/factories.ts";

// Decision 042: no figure is stored with more decimals than its field holds (prices and money 4, percents 3,
// fractional quantities and durations 2, measurements 4); 1e-30 is refused as a consequence, on every route
// and in the batch uploads.

Deno.test("decimals - a line refuses 1e-30 and long fractions in price, quantity, duration and percents", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const db = env.tenant.db;
    const ticket = await makeTicket(db);
    const code = await makeInventory(db, {
      item_id: (await makeItem(db, { inventory_type: "Charge Code" })).id,
    });
    const line = (over: Record<string, unknown>) =>
      env.request("/api/sales/sales", {
        token,
        method: "POST",
        json: {
          ticket_id: ticket.id,
          inventory_id: code.id,
          quantity: 1,
          price: 10,
          duration: 1,
          start_date: "2026-03-01T08:00",
          ...over,
        },
      });
    const cases: [Record<string, unknown>, string, string][] = [
      [{ price: 1e-30 }, "price", "Price may have at most 4 decimal places"],
      [{ price: "-0.00001" }, "price", "Price may have at most 4 decimal places"],
      [{ quantity: 1e-30 }, "quantity", "Must have at most 4 decimal places"],
      [{ quantity: 12.34567 }, "quantity", "Must have at most 4 decimal places"],
      [{ duration: 1 / 3 }, "duration", "Must have at most 2 decimal places"],
      [{ discount: 1e-30 }, "discount", "Must have at most 3 decimal places"],
      [{ markup: "12.3456" }, "markup", "Must have at most 3 decimal places"],
      [{ state_tax: 8.8755 }, "state_tax", "Must have at most 3 decimal places"],
    ];
    for (const [over, path, message] of cases) {
      const res = await line(over);
      assert.equal(res.status, 422, JSON.stringify(over));
      assert.deepEqual((await res.json()).errors, [{ path, message }], JSON.stringify(over));
    }
    const ok = await line({
      price: 12.3456,
      quantity: 12.5,
      duration: 2.25,
      discount: 8.875,
      markup: 0.1 + 0.2,
    });
    assert.equal(ok.status, 200, await ok.clone().text());
    const saved = await ok.json();
    assert.deepEqual([saved.price, saved.quantity, saved.duration, saved.discount], [
      12.3456,
      12.5,
      2.25,
      8.875,
    ]);
  }));

Deno.test("decimals - taxes, inventory and inspections refuse more places than they hold", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const tax = await env.json("/api/sales/taxes", {
      token,
      method: "POST",
      json: { name: "Tiny", state_rate: 1e-30 },
      status: 422,
    });
    assert.deepEqual(tax.errors, [{ path: "state_rate", message: "Must have at most 3 decimal places" }]);
    await env.json("/api/sales/taxes", {
      token,
      method: "POST",
      json: { name: "Harris", state_rate: 6.25, city_rate: 2.125 },
    });
    const item = await makeItem(env.tenant.db);
    const inv = await env.json("/api/sales/inventory", {
      token,
      method: "POST",
      json: { item_id: item.id, business_unit_id: 1, serial_number: "P-1", purchase_price: "1,250.00001" },
      status: 422,
    });
    assert.deepEqual(inv.errors, [{
      path: "purchase_price",
      message: "Purchase Price may have at most 4 decimal places",
    }]);
    const rate = await env.json("/api/sales/inventory", {
      token,
      method: "POST",
      json: { item_id: item.id, business_unit_id: 1, serial_number: "P-2", minimum_rate: 1e-30 },
      status: 422,
    });
    assert.deepEqual(rate.errors, [{
      path: "minimum_rate",
      message: "Minimum Rate may have at most 4 decimal places",
    }]);
    const job = await makeJob(env.tenant.db);
    const inspection = await env.json("/api/pt/inspections", {
      token,
      method: "POST",
      json: { job_id: job.id, date: "2026-03-01", serial_number: "S-1", ut_1: 0.31255, pressure: 1e-30 },
      status: 422,
    });
    assert.deepEqual(
      inspection.errors.map((e: { path: string; message: string }) => [e.path, e.message]).sort(),
      [
        ["pressure", "Must have at most 4 decimal places"],
        ["ut_1", "Must have at most 4 decimal places"],
      ],
    );
  }));

Deno.test("decimals - the items and inventory batches follow the same rule per row", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const items = await env.json("/api/sales/items/batch", {
      token,
      method: "POST",
      json: [{ item_number: "B-1", rate: "12.3456" }, { item_number: "B-2", rate: 1e-30 }, {
        item_number: "B-3",
        rate: "$1,250.00001",
      }],
      status: 422,
    });
    assert.deepEqual(items.errors, [
      { path: "rows.2.rate", message: "Row 2, Rate: Rate may have at most 4 decimal places" },
      { path: "rows.3.rate", message: "Row 3, Rate: Rate may have at most 4 decimal places" },
    ]);
    const item = await makeItem(env.tenant.db, { item_number: "INV-1" });
    const stock = await env.json("/api/sales/inventory/batch", {
      token,
      method: "POST",
      json: [{
        item_number: item.item_number,
        serial_number: "Q-1",
        business_unit_id: 1,
        purchase_price: 1e-30,
      }],
      status: 422,
    });
    assert.match(JSON.stringify(stock.errors), /Purchase Price may have at most 4 decimal places/);
  }));
