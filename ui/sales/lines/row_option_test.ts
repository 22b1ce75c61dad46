import assert from "node:assert/strict";
import { reclassEnd as end, reclassOptions } from "./row_option.ts";
import { reclassTargetProblem } from "../../../api/sales/lines/reclass_schemas.ts";
import type { InventoryRowOut } from "../../../api/sales/inventory_rows/schemas.ts";

const row = (id: number, serial_number: string, unit: number, inventory_type: string): InventoryRowOut => ({
  id,
  serial_number,
  inventory_description: "",
  status: id === 3 ? "Repair" : "Available",
  item: { item_number: "SW3", item_description: "Swivel", inventory_type } as InventoryRowOut["item"],
  business_unit: { id: unit, name: unit === 1 ? "Midland" : "Odessa" },
  quantity: id,
  quantity_available: id,
});

Deno.test("reclass picker - only the unit's other serials of the same stock-holding type, with their figures", () => {
  const from = row(1, "LOT-A", 1, "Itemized");
  const found = [
    row(2, "lot-a", 1, "Itemized"),
    row(3, "LOT-B", 1, "Itemized"),
    row(4, "LOT-C", 2, "Itemized"),
    row(5, "LOT-S", 1, "Serialized"),
    row(6, "LOT-CC", 1, "Charge Code"),
  ];
  assert.deepEqual(reclassOptions(found, from), [
    { id: 3, name: "LOT-B | SW3 | Swivel", detail: "Midland · 3 available · Repair" },
  ]);
  assert.deepEqual(reclassOptions([row(7, "CC-2", 1, "Charge Code")], row(8, "CC-1", 1, "Charge Code")), []);
});

Deno.test("reclass picker - a Serialized row already holding 1 is not offered (the server refuses it)", () => {
  const from = row(1, "PV-1", 1, "Serialized");
  const empty = { ...row(2, "PV-2", 1, "Serialized"), quantity: 0, quantity_available: 0 };
  const full = { ...row(3, "PV-3", 1, "Serialized"), quantity: 1, quantity_available: 0 };
  const fullInYard = { ...row(4, "PV-4", 1, "Serialized"), quantity: 1, quantity_available: 1 };
  assert.deepEqual(reclassOptions([empty, full, fullInYard], from).map((o) => o.id), [2]);
  assert.equal(
    reclassTargetProblem(end(from), end(full)),
    "The target row cannot hold more than 1",
  );
  assert.equal(reclassTargetProblem(end(from), end(empty)), undefined);
  // Itemized rows hold any quantity: one holding 40 is still a target.
  const lot = { ...row(5, "LOT-5", 1, "Itemized"), quantity: 40 };
  assert.equal(reclassTargetProblem(end(row(6, "LOT-6", 1, "Itemized")), end(lot)), undefined);
});
