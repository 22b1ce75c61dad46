/** The spec's item batch columns, then `inventory_type` (optional, "Itemized" when absent). */
export const ITEM_BATCH_COLUMNS = [
  "item_number",
  "item_description",
  "rate",
  "item_category",
  "units",
  "type",
  "isTaxable",
  "isExpendable",
  "isService",
  "inventory_type",
] as const;
export type ItemBatchColumn = (typeof ITEM_BATCH_COLUMNS)[number];

/** Each batch column as the template's header (and the upload grid) reads it: what error messages name. */
export const ITEM_BATCH_LABELS: Record<ItemBatchColumn, string> = {
  item_number: "Item Number",
  item_description: "Item",
  rate: "Rate",
  item_category: "Category",
  units: "Units",
  type: "Item Type",
  isTaxable: "Taxable",
  isExpendable: "Expendable",
  isService: "Service",
  inventory_type: "Inventory Type",
};
