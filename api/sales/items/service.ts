// The items service, one verb per file under service/.
export { downloadItems, ITEM_COLUMNS, ItemListQuery, listItems } from "./service/list_items.ts";
export { getItem, presentItem } from "./service/query.ts";
export { deleteItem, saveItem } from "./service/save_item.ts";
export { previewItemBatch, saveItemBatch } from "./service/save_batch.ts";
