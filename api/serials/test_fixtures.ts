import { Buffer } from "node:buffer";
// The serial history tests' data: one serial with a history in both apps, made through the factories
// and the API (check-in, reclass and transfer write their audit rows as they do in use).
import type { TestEnv } from "../../scripts/testing/harness.ts";
import { makeCategory, makeCompany, makeInspection, makeInventory, makeJob } from "../../db/factories.ts";
import { heldLine, post } from "../sales/lines/checkin_fixtures.ts";
import { files } from "../../db/schema/mod.ts";

export const SERIAL = "PV-100";

export interface History {
  token: string;
  /** the customer of the first inspection's job, and of nothing else */
  customerId: number;
  ticketId: number;
  inventoryId: number;
  inspections: number[];
}

/**
 * PV-100, oldest first: inspected on Jan 2 (customer A's job, entered as "pv-100"), out on ticket T from
 * Jan 3, checked in (1), reclassed (1 to another serial), moved to the yard, and inspected again (customer
 * B's job, with a pressure-test PDF). A second inventory row of PV-100 sits in another business unit.
 */
export async function serialWithHistory(env: TestEnv): Promise<History> {
  const db = env.tenant.db;
  const token = await env.login();
  const customerA = await makeCompany(db, { name: "Apache Corp", company_type: "customer_company" });
  const first = await makeInspection(db, {
    job_id: (await makeJob(db, { job_number: "J-OLD", customer_company_id: customerA.id })).id,
    serial_number: "pv-100",
    date: "2026-01-02",
    inspection_time: "2026-01-02T10:00:00.000Z",
    ut_1: 0.5,
    mpi_result: "Pass",
  });
  const unit = await makeCategory(db, { name: "Odessa", custom: { locations: ["Yard"] } });
  const s = await heldLine(env, {
    quantity: 3,
    stock: 10,
    row: { serial_number: SERIAL, business_unit_id: unit.id },
    line: { start_date: "2026-01-03T08:00:00Z" },
    ticket: { ticket_number: "T-900" },
  });
  await makeInventory(db, { serial_number: SERIAL, quantity: 1 });
  const other = await makeInventory(db, {
    item_id: s.itemId,
    business_unit_id: unit.id,
    serial_number: "PV-200",
    quantity: 1,
  });
  await post(env, token, "/api/sales/inventory/check-in", {
    ticket_id: s.ticketId,
    line_items: [s.lineId],
    quantities_in: [2],
  });
  await post(env, token, "/api/sales/sales/reclass", {
    ticket_id: s.ticketId,
    rows: [{
      sale_id: s.lineId,
      reclass_date: "2026-01-04T09:00",
      from_inventory_id: s.inventoryId,
      to_inventory_id: other.id,
      reclass_quantity: 1,
    }],
  });
  await post(env, token, "/api/sales/inventory/location-transfer", {
    inventory_id: s.inventoryId,
    fromLocation: "Base",
    toLocation: "Yard",
    quantity: 1,
  });
  const pdf = new TextEncoder().encode("%PDF-1.4\n%%EOF\n");
  const [file] = await db.insert(files).values({
    sha256: "serial-history-test",
    name: "pt.pdf",
    content_type: "application/pdf",
    size: pdf.length,
    data: Buffer.from(pdf),
  }).returning();
  const second = await makeInspection(db, {
    job_id: (await makeJob(db, { job_number: "J-NEW" })).id,
    serial_number: SERIAL,
    pressure: 10000,
    pressure_test_file_id: file.id,
  });
  return {
    token,
    customerId: customerA.id,
    ticketId: s.ticketId,
    inventoryId: s.inventoryId,
    inspections: [first.id, second.id],
  };
}
