import assert from "node:assert/strict";
import { type TestEnv, withEnv } from "../../../scripts/testing/harness.ts";
import { makeCategory, makeTicket } from "../../../db/factories.ts";
import { call, parties } from "./test_fixtures.ts";
import { saveOwnerSettings, withSalesSetting } from "../../../scripts/testing/owner_settings.ts";

const PATH = "/api/sales/tickets";

/** Sets `Sales.ticketRequired` on the owner company through the company form's call, as an admin would. */
const setRequired = (env: TestEnv, token: string, value: unknown, status = 200) =>
  saveOwnerSettings(env, token, withSalesSetting("ticketRequired", value), status);

Deno.test("ticket required fields - the setting must name ticket fields (422 at settings.Sales.ticketRequired)", () =>
  withEnv(async (env) => {
    const admin = await env.login();
    for (const bad of ["location", ["location", "customer_id"], [1]]) {
      const res = await setRequired(env, admin, bad, 422);
      assert.deepEqual(res.errors.map((e: { path: string }) => e.path), ["settings.Sales.ticketRequired"]);
    }
    await setRequired(env, admin, ["location", "business_unit_id"]);
  }));

Deno.test("ticket required fields - a create or update that leaves one empty is refused with a field error", () =>
  withEnv(async (env) => {
    const admin = await env.login();
    const { customer, rep, token } = await parties(env);
    const body = { customer_id: customer.id, sales_rep_id: rep.id };
    // Without the setting only Customer and Sales Rep are required.
    const plain = await call(env, token, "POST", PATH, body);

    await setRequired(env, admin, ["location", "business_unit_id", "notes"]);
    const refused = await call(env, token, "POST", PATH, { ...body, location: "  ", notes: "" }, 422);
    assert.equal(refused.detail, "Business Unit, Location, Notes are required");
    assert.deepEqual(refused.errors, [
      { path: "business_unit_id", message: "Business Unit is required" },
      { path: "location", message: "Location is required" },
      { path: "notes", message: "Notes are required" },
    ]);
    const quote = await call(env, token, "POST", PATH, {
      ...body,
      isQuote: true,
      location: "Pad 7",
      notes: "x",
    }, 422);
    assert.deepEqual(quote.errors, [{ path: "business_unit_id", message: "Business Unit is required" }]);

    const unit = await makeCategory(env.tenant.db, { model: "Business Unit", name: "Odessa Yard" });
    const made = await call(env, token, "POST", PATH, {
      ...body,
      business_unit_id: unit.id,
      location: "Pad 7",
      notes: "Gate code 4411",
    });
    assert.equal(made.location, "Pad 7");

    // An update that clears one is refused; one that leaves it out (a ticket made before the setting,
    // its status or flags saved) goes through.
    const cleared = await call(env, token, "PUT", PATH, { id: made.id, location: "" }, 422);
    assert.deepEqual(cleared.errors, [{ path: "location", message: "Location is required" }]);
    const older = await makeTicket(env.tenant.db, { customer_id: customer.id, sales_rep_id: rep.id });
    await call(env, token, "PUT", PATH, { id: older.id, isSigned: true });
    await call(env, token, "PUT", PATH, { id: plain.id, business_unit_id: null }, 422);
  }));
