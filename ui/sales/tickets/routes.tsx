import { Hono } from "hono";
import { type AppEnv, ctxOf } from "../../../api/lib/context.ts";
import { TicketListQuery } from "../../../api/sales/tickets/schemas.ts";
import { listTickets } from "../../../api/sales/tickets/service.ts";
import { can } from "../../../lib/policy.ts";
import { renderShellPage } from "../../render.tsx";
import { lenientQuery } from "../../components/list_query.ts";
import { TicketsPage } from "./TicketsPage.tsx";
import {
  FLOW_CHOICES,
  TICKET_LISTS,
  type TicketList,
  type TicketRow,
  type TicketSearchKey,
  type TicketsQuery,
} from "./types.ts";

const SEARCH_KEYS: readonly TicketSearchKey[] = [
  "search_ticket_number",
  "search_invoice_number",
  "search_customer",
  "search_sales_rep",
];

/**
 * The five stage lists, each one status: the owner company's staff (anyone else back to "/"). The
 * table state (page, size, sort, searches, Hide Paid, Hide Signed, and on the Tickets list Ticket
 * Flow and Show Invoiced) is read from this list's URL only and kept there by the island: leaving
 * the list leaves it behind. The other lists' status comes from the path, never from the URL. The
 * first page is rendered here.
 */
export const ticketListPages = new Hono<AppEnv>();

for (const view of TICKET_LISTS) {
  ticketListPages.get(view.path, async (c) => {
    const user = c.get("user")!;
    const q = lenientQuery(TicketListQuery, new URL(c.req.url).searchParams);
    const query = listQuery(view, q, can(user, "sales.searchParties"));
    // The service's rows are the ticket's own columns plus its parties, totals and flag.
    const data = await listTickets(ctxOf(c), { ...query } as TicketListQuery) as {
      results: TicketRow[];
      total: number;
    };
    return renderShellPage(
      c,
      view.title,
      <TicketsPage
        list={view}
        data={data}
        query={query}
        can={{ searchParties: can(user, "sales.searchParties") }}
        company={{ name: user.company.name, settings: user.company.settings ?? {} }}
      />,
    );
  });
}

/**
 * The list's state from its URL: only the searches this list offers; its own status, except that the
 * Tickets list takes its Ticket Flow choice (any stage but APP, or ALL) and Show Invoiced from there.
 */
function listQuery(view: TicketList, q: TicketListQuery, owner: boolean): TicketsQuery {
  const chosen = FLOW_CHOICES.find((f) => f.id === q.ticketFlowFilter)?.id;
  const showInvoiced = view.flow === "APP" || (!!view.flowFilter && owner && q.showInvoiced === true);
  const query: TicketsQuery = {
    page: q.page,
    rowsPerPage: q.rowsPerPage,
    ...(q.sortBy ? { sortBy: q.sortBy, descending: q.descending ?? false } : {}),
    ticketFlowFilter: (view.flowFilter && chosen) || view.flow,
    ...(showInvoiced ? { showInvoiced: true as const } : {}),
    ...(q.hidePaid ? { hidePaid: true } : {}),
    ...(q.hideSigned ? { hideSigned: true } : {}),
  };
  for (const key of SEARCH_KEYS) {
    if ((key === "search_customer" || key === "search_sales_rep") && !owner) continue;
    if (q[key]) query[key] = q[key];
  }
  return query;
}
