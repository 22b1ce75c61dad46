// The rows the API fuzzer's requests can hit, so mutated bodies reach the services, not just the schemas.
import {
  makeCategory,
  makeCompany,
  makeInspection,
  makeInventory,
  makeItem,
  makeJob,
  makeLine,
  makePart,
  makeTicket,
} from "../../db/factories.ts";
import { eq } from "drizzle-orm";
import { inventory, taxes } from "../../db/schema/mod.ts";
import type { TestEnv } from "./harness.ts";

/** A small tenant: every kind of row the write routes name, ids low enough for random ids to hit. */
export async function seedFuzzData(env: TestEnv) {
  const db = env.tenant.db;
  const [tax] = await db.insert(taxes).values({ company_id: 1, name: "Fuzz", state_rate: 6.25, rate: 6.25 })
    .returning();
  const customer = await makeCompany(db, { company_type: "customer_company" });
  const operator = await makeCompany(db, { company_type: "operator_company" });
  const job = await makeJob(db, { customer_company_id: customer.id, operator_company_id: operator.id });
  const part = await makePart(db);
  const inspection = await makeInspection(db, { job_id: job.id, part_id: part.id });
  const unit = await makeCategory(db, { model: "Business Unit", custom: { locations: ["Yard A"] } });
  const unit2 = await makeCategory(db, { model: "Business Unit" });
  const itemCategory = await makeCategory(db, { model: "Item Category", name: "Iron" });
  const productLine = await makeCategory(db, { model: "Product Line" });
  const itemized = await makeItem(db, { inventory_type: "Itemized" });
  const serialized = await makeItem(db, { inventory_type: "Serialized" });
  const charge = await makeItem(db, { inventory_type: "Charge Code" });
  const row = await makeInventory(db, { item_id: itemized.id, business_unit_id: unit.id, quantity: 500 });
  const serial = await makeInventory(db, { item_id: serialized.id, business_unit_id: unit.id, quantity: 1 });
  const chargeRow = await makeInventory(db, { item_id: charge.id, business_unit_id: unit.id, quantity: 0 });
  const row2 = await makeInventory(db, { item_id: itemized.id, business_unit_id: unit.id, quantity: 50 });
  const ticket = await makeTicket(db, { customer_id: customer.id, business_unit_id: unit.id });
  const quote = await makeTicket(db, { customer_id: customer.id, status: "QUOTE", isQuote: true });
  const invoice = await makeTicket(db, {
    customer_id: customer.id,
    status: "APP",
    isInvoice: true,
    invoice_number: "INV-00001",
  });
  // The line holds its stock, as a line saved through the API would, so check-in and reclass can work.
  const line = await makeLine(db, {
    ticket_id: ticket.id,
    inventory_id: row.id,
    quantity: 2,
    quantity_held: 2,
  });
  await db.update(inventory).set({ quantity_out: 2 }).where(eq(inventory.id, row.id));
  await makeLine(db, { ticket_id: invoice.id, inventory_id: chargeRow.id, isSold: true });
  return {
    tax,
    customer,
    operator,
    job,
    part,
    inspection,
    unit,
    unit2,
    itemCategory,
    productLine,
    itemized,
    serial,
    row,
    row2,
    chargeRow,
    ticket,
    quote,
    invoice,
    line,
  };
}

export type FuzzData = Awaited<ReturnType<typeof seedFuzzData>>;
