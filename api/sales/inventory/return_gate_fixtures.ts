// Set-up of the return gate tests: the owner's setting, a rented Serialized unit, its check-in.
import type { TestEnv } from "../../../scripts/testing/harness.ts";
import { makeJob } from "../../../db/factories.ts";
import { heldLine, type LineSetup, post } from "../lines/checkin_fixtures.ts";
import { saveOwnerSettings, withSalesSetting } from "../../../scripts/testing/owner_settings.ts";

/** Saves the owner company's `Sales.returnGate` through the API (as a superuser would). */
export const setGate = (env: TestEnv, token: string, value: unknown, status = 200) =>
  saveOwnerSettings(env, token, withSalesSetting("returnGate", value), status);

/** A Serialized unit with this serial on a ticket line, out with the customer. */
export const rentedUnit = (env: TestEnv, serial: string): Promise<LineSetup> =>
  heldLine(env, {
    quantity: 1,
    stock: 1,
    item: { inventory_type: "Serialized" },
    row: { serial_number: serial },
  });

/** Checks the line's one unit back in; answers the check-in's body. */
export const checkInUnit = (env: TestEnv, token: string, s: LineSetup) =>
  post(env, token, "/api/sales/inventory/check-in", {
    ticket_id: s.ticketId,
    line_items: [s.lineId],
    quantities_in: [1],
  });

/** An inspector of the owner company and a job to record inspections on. */
export async function inspectorAndJob(env: TestEnv) {
  const { token } = await env.userWithToken({ permissions: ["inspector", "job-admin"], company_id: 1 });
  return { token, job: await makeJob(env.tenant.db) };
}

/** Records one inspection (POST, or an update with `id`); answers its body. */
export const inspect = (env: TestEnv, token: string, json: Record<string, unknown>) =>
  post(env, token, "/api/pt/inspections", { date: "2026-05-04", ...json });
