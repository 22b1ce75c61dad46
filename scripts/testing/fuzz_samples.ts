// A valid-looking body per write route, keyed "METHOD path" as in the route table, for the API fuzzer to
// break one field at a time.
import type { FuzzData } from "./fuzz_seed.ts";

const today = () => new Date().toISOString().slice(0, 10);

/** One valid-looking body per write route. */
export function fuzzSamples(d: FuzzData): Record<string, unknown> {
  const job = {
    date: today(),
    job_number: "J-FUZZ",
    district: "Permian",
    inspector: "Inspector",
    uv_serial_number: "UV-1",
    uv_recalibration_date: today(),
    blacklight_reading: "1200",
    ut_serial_number: "UT-1",
    ut_recalibration_date: today(),
    comments: "None",
    customer_company_id: d.customer.id,
    operator_company_id: d.operator.id,
  };
  const inspection = {
    job_id: d.job.id,
    date: today(),
    serial_number: "SN-F",
    part_id: d.part.id,
    ut_1: 0.5,
  };
  const item = {
    item_number: "F-1",
    inventory_type: "Itemized",
    rate: 10,
    item_description: "Fuzz",
    category_id: d.itemCategory.id,
    add_to_inventory: {
      inventory_serial_number: "F-1-S",
      inventory_quantity: 2,
      inventory_business_unit_id: d.unit.id,
    },
  };
  const tax = { name: "Fuzz tax", state: "TX", state_rate: 6.25, county_rate: 1, city_rate: 0.5 };
  const category = { model: "Item Category", name: "Fuzz", notes: "" };
  const inventory = {
    item_id: d.itemized.id,
    business_unit_id: d.unit.id,
    serial_number: "F-S",
    quantity: 3,
    purchase_price: 100,
    minimum_rate: 5,
    additional_day: 2,
    location: "Yard A",
    purchase_date: today(),
  };
  const line = {
    ticket_id: d.ticket.id,
    inventory_id: d.row.id,
    quantity: 1,
    price: 10,
    duration: 1,
    minimum_rate: 5,
    discount: 10,
    markup: 5,
    state_tax: 6.25,
    start_date: `${today()}T08:00`,
    end_date: `${today()}T10:00`,
    order: 3,
    custom: { hide: true },
  };
  const ticket = {
    customer_id: d.customer.id,
    sales_rep_id: 1,
    business_unit_id: d.unit.id,
    tax_id: d.tax.id,
    product_line_id: d.productLine.id,
    use_min_rate_logic: false,
    ticket_date: today(),
  };
  return {
    "POST /api/companies": {
      name: "Fuzz Co",
      company_type: "customer_company",
      custom: {},
      tax_id: d.tax.id,
    },
    "PATCH /api/companies": { id: d.customer.id, name: "Fuzz Co 2", company_type: "customer_company" },
    "POST /api/admin/users": {
      name: "Fuzz User",
      email: "fuzz@example.test",
      phone: "555",
      account_type: "General",
      company_id: 1,
      permissions: ["sales-admin"],
      password: "fuzz-pass-2",
      categories: [d.productLine.id],
      categories_bu: [d.unit.id],
      jobs: [d.job.id],
      isSalesRep: true,
    },
    "DELETE /api/admin/users": { id: 2 },
    "POST /api/admin/users/logout-everywhere": {},
    "POST /api/pt/jobs": job,
    "PATCH /api/pt/jobs": { ...job, id: d.job.id, job_number: "J-FUZZ-2" },
    "POST /api/pt/parts": { name: "Plug", description: "2in", manufacturer: "SPM" },
    "PATCH /api/pt/parts": { id: d.part.id, name: "Plug" },
    "POST /api/pt/inspections/batch": {
      job_id: d.job.id,
      date: today(),
      serial_numbers: ["B-1", "B-2"],
      batch: "B",
      part_id: d.part.id,
    },
    "POST /api/pt/inspections": inspection,
    "PATCH /api/pt/inspections": { ...inspection, id: d.inspection.id },
    "POST /api/sales/items/batch": [{
      item_number: "FB-1",
      rate: "12.5",
      item_category: "Iron",
      isTaxable: "yes",
    }],
    "POST /api/sales/items": item,
    "PUT /api/sales/items": { ...item, id: d.itemized.id, item_number: undefined },
    "POST /api/sales/taxes": tax,
    "PUT /api/sales/taxes": { ...tax, id: d.tax.id },
    "POST /api/sales/categories": category,
    "PUT /api/sales/categories": { id: d.unit.id, name: "Unit", custom: { locations: ["Yard A", "Yard B"] } },
    "POST /api/sales/sub_categories": { category_id: d.productLine.id, name: "Sub", notes: "" },
    "PUT /api/sales/sub_categories": { id: 1, category_id: d.productLine.id, name: "S" },
    "POST /api/sales/inventory/batch": [{
      serial_number: "FB-S",
      item_number: d.itemized.item_number,
      status: "Available",
      quantity: "2",
      location: "Yard A",
      purchase_price: "$1,200.00",
      business_unit_id: d.unit.id,
    }],
    "PATCH /api/sales/inventory/quantity": [{ id: d.row.id, quantity: 600 }],
    "POST /api/sales/inventory/business-unit-transfer": {
      inventory_id: d.row.id,
      to_business_unit_id: d.unit2.id,
      quantity: 1,
    },
    "POST /api/sales/inventory/location-transfer": {
      inventory_id: d.row.id,
      fromLocation: "Base",
      toLocation: "Yard A",
      quantity: 1,
    },
    "POST /api/sales/inventory": inventory,
    "PUT /api/sales/inventory": { ...inventory, id: d.row.id, serial_number: "F-S2" },
    "POST /api/sales/templates": {
      name: "Fuzz",
      business_unit_id: d.unit.id,
      inventory_ids: [d.chargeRow.id],
    },
    "PUT /api/sales/templates": { id: 1, name: "Fuzz", business_unit_id: d.unit.id, inventory_ids: [] },
    "POST /api/sales/sales/reorder": { ticket_id: d.ticket.id, items: [{ id: d.line.id, order: 1 }] },
    "POST /api/sales/sales": line,
    "PUT /api/sales/sales": { ...line, id: d.line.id, discount: 5, markup: 10 },
    "POST /api/sales/inventory/check-in": {
      ticket_id: d.ticket.id,
      line_items: [d.line.id],
      quantities_in: [1],
      quantities_sold: [0],
      quantity_dates: [today()],
      remove_quantities: [false],
    },
    "POST /api/sales/sales/reclass": {
      ticket_id: d.ticket.id,
      rows: [{
        sale_id: d.line.id,
        reclass_date: today(),
        from_inventory_id: d.row.id,
        to_inventory_id: d.row2.id,
        reclass_quantity: 1,
      }],
    },
    "POST /api/sales/tickets/transfer": { ticket_id: d.ticket.id, line_ids: [d.line.id] },
    "POST /api/sales/tickets/bill-back": { ticket_id: d.invoice.id, line_ids: [d.line.id + 1] },
    "POST /api/sales/tickets": ticket,
    "PUT /api/sales/tickets": { ...ticket, id: d.ticket.id, status: "RFB", notes: "n" },
    "POST /api/sales/rejections": { ticket_id: d.ticket.id, comment: "No", resolved: true },
  };
}
