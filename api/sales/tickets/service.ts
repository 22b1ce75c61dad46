// The tickets service, one verb per file under service/.
export { cloneQuote, createTicket } from "./service/create_ticket.ts";
export { everyTicket, listTickets, type TicketListRow } from "./service/list_tickets.ts";
export { downloadTickets } from "./service/download_tickets.ts";
export { findTicket, presentTicket, type TicketOut } from "./service/query.ts";
export { updateTicket } from "./service/update_ticket.ts";
export { deleteTicket, INVOICE_NOT_DELETABLE } from "./service/delete_ticket.ts";
export { EXCEEDS_AVAILABLE } from "./service/hold.ts";

import type { Ctx } from "../../lib/context.ts";
import { requireAbility } from "../../../lib/policy.ts";
import { presentTicket } from "./service/query.ts";

/** GET /api/sales/tickets/{id}: any sales user. */
export function getTicket(ctx: Ctx, id: number) {
  requireAbility(ctx.user, "sales.read");
  return presentTicket(ctx.db, ctx.user, id, true);
}
