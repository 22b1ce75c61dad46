// The sales (ticket line) service, one verb per file under service/.
export { saveLine } from "./service/save.ts";
export { deleteLine } from "./service/delete.ts";
export { reorderLines } from "./service/reorder.ts";
export { downloadSales, listSales, SALES_COLUMNS, type SalesDataRow, ticketLines } from "./service/list.ts";
export { getLine, type LineOut, loadLines } from "./service/query.ts";
export { AvailabilityError, moveHold } from "./service/hold.ts";
export { SalesListQuery } from "./schemas.ts";
