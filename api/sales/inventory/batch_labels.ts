import type { InventoryBatchColumn } from "./schemas.ts";

/**
 * Each inventory batch column as the template's header (and the upload grid) reads it: what the
 * upload's error messages name. The business unit is chosen in the dialog, or sent on a row.
 */
export const INVENTORY_BATCH_LABELS: Record<InventoryBatchColumn | "business_unit_id", string> = {
  serial_number: "Serial Number",
  item_number: "Item Number",
  status: "Status",
  quantity: "Quantity",
  category: "Category",
  location: "Location",
  purchase_date: "Purchase Date",
  purchase_price: "Purchase Price",
  manufacturer: "Manufacturer",
  business_unit_id: "Business Unit",
};

/** A column's header text; a column the template does not name is said as sent. */
export const batchLabel = (column: string): string =>
  (INVENTORY_BATCH_LABELS as Record<string, string>)[column] ?? column;
