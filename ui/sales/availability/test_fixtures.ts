import { makeTicket } from "../../../db/factories.ts";
import { today } from "../../../lib/format.ts";
import { makeItemOf, makeRow, makeUnit, send } from "../../../api/sales/inventory/test_fixtures.ts";
import type { TestEnv } from "../../../scripts/testing/harness.ts";
import { shiftMonth } from "./month.ts";

/**
 * For the availability screen's tests: serialized item PV-3IN with one unit, PV-1 in Midland, booked on ticket
 * T-00088 from the 10th to the 12th of next month (UTC). Answers the item, the ticket and that month (YYYY-MM).
 */
export async function bookedUnitNextMonth(env: TestEnv, token: string) {
  const item = await makeItemOf(env, "Serialized", { item_number: "PV-3IN" });
  const unit = await makeUnit(env, [], "Midland");
  const row = await makeRow(env, {
    item_id: item.id,
    business_unit_id: unit.id,
    serial_number: "PV-1",
    quantity: 1,
  });
  const ticket = await makeTicket(env.tenant.db, { ticket_number: "T-00088", use_min_rate_logic: false });
  const month = shiftMonth(today(new Date(), "UTC").slice(0, 7), 1);
  await send(env, token, "POST", "/api/sales/sales", {
    ticket_id: ticket.id,
    inventory_id: row.id,
    quantity: 1,
    start_date: `${month}-10T08:00`,
    end_date: `${month}-12T08:00`,
  });
  return { item, ticket, month };
}
