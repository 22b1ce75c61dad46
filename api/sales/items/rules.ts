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
