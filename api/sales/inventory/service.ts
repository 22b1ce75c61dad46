// The inventory service, one verb per file under service/.
export { downloadInventory, everyInventoryRow, INVENTORY_COLUMNS, listInventory } from "./service/list.ts";
export {
  downloadInventoryLocations,
  everyLocationRow,
  listInventoryLocations,
  LOCATION_COLUMNS,
} from "./service/list_locations.ts";
export { getInventory, presentInventory, unitLocations } from "./service/query.ts";
export { DUPLICATE_MESSAGE, saveInventory } from "./service/save.ts";
export { deleteInventory } from "./service/delete.ts";
export { updateQuantities } from "./service/quantity.ts";
export { transferBusinessUnit, type UnitTransferResult } from "./service/transfer_unit.ts";
export { type LocationTransferResult, transferLocation } from "./service/transfer_location.ts";
export { type InventoryBatchResult, previewInventoryBatch, saveInventoryBatch } from "./service/batch.ts";
export { InventoryListQuery, LocationListQuery } from "./schemas.ts";
export { inventoryLabels } from "./service/labels.ts";
