import type { LineOut } from "../../../api/sales/lines/query.ts";

/** One line of GET /api/sales/sales/ticket?ticket_id=, in order. */
export type Line = LineOut;
