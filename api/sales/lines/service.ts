// The sales (ticket line) service, one verb per file under service/.
export { saveLine } from "./save.ts";
export { deleteLine } from "./delete.ts";
export { reorderLines } from "./reorder.ts";
export {
  downloadSales,
  lineById,
  listSales,
  SALES_COLUMNS,
  type SalesDataRow,
  salesInOrder,
  ticketLines,
  ticketLinesResponse,
} from "./list.ts";
export { getLine, type LineOut, loadLines } from "./query.ts";
export { AvailabilityError, moveHold } from "./hold.ts";
export { SalesListQuery } from "./schemas.ts";
