import { makeCompany, makeTicket } from "../../../db/factories.ts";
import type { TestEnv } from "../../../scripts/testing/harness.ts";
import { makeItemOf, makeRow } from "../inventory/test_fixtures.ts";

/** A customer, an itemized stock row with room for many lines, an invoice and an open ticket of the customer. */
export async function invoiceAndOpenTicket(env: TestEnv) {
  const db = env.tenant.db;
  const customer = await makeCompany(db, { company_type: "customer_company", name: "Acme Drilling" });
  const item = await makeItemOf(env, "Itemized", { item_number: "SW3", item_description: "Swivel" });
  const row = await makeRow(env, { item_id: item.id, serial_number: "SW-A", quantity: 10_000 });
  const invoice = await makeTicket(db, {
    customer_id: customer.id,
    status: "APP",
    isInvoice: true,
    invoice_number: "INV-00001",
    invoice_date: "2024-04-10",
  });
  const open = await makeTicket(db, { customer_id: customer.id });
  return { customer, row, invoice, open };
}
