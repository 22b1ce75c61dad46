import assert from "node:assert/strict";
import { withEnv } from "../../../scripts/testing/harness.ts";
import { makeTicket } from "../../../db/factories.ts";
import { makeItemOf, makeRow, send, tokenWith } from "../inventory/test_fixtures.ts";

// The bounds of issue 9 (api/lib/validate.ts), spelled out so the test reads as the rule.
const MAX_MONEY = 1_000_000_000, MAX_QUANTITY = 100_000_000, MAX_DURATION = 100_000, MAX_MARKUP = 1000;

const PATH = "/api/sales/sales";

/** A ticket without min-rate logic and a charge-code row (it holds no stock, so any quantity saves). */
async function setUp(env: Parameters<Parameters<typeof withEnv>[0]>[0]) {
  const token = await tokenWith(env, []);
  const ticket = await makeTicket(env.tenant.db, { use_min_rate_logic: false });
  const row = await makeRow(env, { item_id: (await makeItemOf(env, "Charge Code")).id, quantity: 0 });
  return { token, ticket, line: { ticket_id: ticket.id, inventory_id: row.id } };
}

Deno.test("line bounds - price, duration, discount and markup out of range answer 422 with a sentence", () =>
  withEnv(async (env) => {
    const { token, line } = await setUp(env);
    const refused = async (field: string, value: unknown, message: string) => {
      const res = await send(env, token, "POST", PATH, { ...line, [field]: value }, 422);
      assert.deepEqual(res.errors, [{ path: field, message }], `${field}=${value}`);
      assert.equal(res.detail, `${field}: ${message}`);
    };
    await refused("price", 1e308, "Must be at most 1000000000");
    await refused("price", "-1e308", "Must be at least -1000000000");
    await refused("minimum_rate", 1e10, "Must be at most 1000000000");
    await refused("duration", -1, "Must be at least 0");
    await refused("duration", 1e308, `Must be at most ${MAX_DURATION}`);
    await refused("discount", 101, "Must be between 0 and 100");
    await refused("discount", -5, "Must be between 0 and 100");
    await refused("state_tax", 100.5, "Must be between 0 and 100");
    await refused("markup", MAX_MARKUP + 1, `Must be between 0 and ${MAX_MARKUP}`);
    await refused("quantity", 1e308, `Must be at most ${MAX_QUANTITY}`);
    await refused("order", 1e308, "Must be at most 1000000");
    // A credit line is allowed: a negative price within the bounds.
    const credit = await send(env, token, "POST", PATH, { ...line, price: -250, quantity: 1, duration: 1 });
    assert.equal(credit.calculated_total, -250);
  }));

Deno.test("line bounds - ticket totals stay numbers with lines at every bound", () =>
  withEnv(async (env) => {
    const { token, ticket, line } = await setUp(env);
    // What the hostile test did: two 1e308 lines made the totals null (Infinity in JSON).
    await send(env, token, "POST", PATH, { ...line, price: 1e308 }, 422);
    await send(env, token, "POST", PATH, { ...line, price: 1e308 }, 422);
    const max = { quantity: MAX_QUANTITY, duration: MAX_DURATION, markup: MAX_MARKUP, discount: 0 };
    const taxes = { state_tax: 100, county_tax: 100, city_tax: 100 };
    for (const price of [MAX_MONEY, MAX_MONEY, -MAX_MONEY]) {
      const saved = await send(env, token, "POST", PATH, { ...line, ...max, ...taxes, price });
      assert.ok(Number.isFinite(saved.calculated_total), `line total ${saved.calculated_total}`);
    }
    const got = await env.json(`/api/sales/tickets/${ticket.id}`, { token });
    for (const [k, v] of Object.entries(got.totals)) {
      assert.ok(typeof v === "number" && Number.isFinite(v), `totals.${k} = ${v}`);
    }
    assert.ok(got.totals.grandtotal > 0);
    const list = await env.json(`/api/sales/tickets?rowsPerPage=-1`, { token });
    const listed = list.results.find((t: { id: number }) => t.id === ticket.id);
    for (const [k, v] of Object.entries(listed.totals)) {
      assert.ok(typeof v === "number" && Number.isFinite(v), `list totals.${k} = ${v}`);
    }
  }));
