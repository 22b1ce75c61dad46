import { Hono } from "hono";
import type { AppEnv } from "../../../api/lib/context.ts";
import { TicketListQuery } from "../../../api/sales/tickets/schemas.ts";
import { listTickets } from "../../../api/sales/tickets/service.ts";
import { requiredTicketFields } from "../../../api/sales/tickets/required.ts";
import { can } from "../../../lib/policy.ts";
import { listPage, pickFilters } from "../../lib/list_page.tsx";
import { TicketsPage } from "./TicketsPage.tsx";
import {
  FLOW_CHOICES,
  TICKET_LISTS,
  TICKET_PAGE_SIZES,
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
/** The parties' searches, offered to the owner company's staff only. */
const OWNER_SEARCHES: readonly TicketSearchKey[] = ["search_customer", "search_sales_rep"];

/**
 * The five stage lists, each one status: the owner company's staff (anyone else back to "/"). The
 * table state (page, size, sort, searches, Hide Paid, Hide Signed, and on the Tickets list Ticket
 * Flow and Show Invoiced) is read from this list's URL only and kept there by the island: leaving
 * the list leaves it behind. The other lists' status comes from the path, never from the URL. The
 * first page is rendered here.
 */
export const ticketListPages = new Hono<AppEnv>();

for (const view of TICKET_LISTS) {
  ticketListPages.get(
    view.path,
    listPage({
      title: view.title,
      schema: TicketListQuery,
      sizes: TICKET_PAGE_SIZES,
      size: 10,
      render: async ({ user, ctx, q, table }) => {
        const owner = can(user, "sales.searchParties");
        const query = listQuery(view, q, table, owner);
        // The service's rows are the ticket's own columns plus its parties, totals and flag.
        const data = await listTickets(ctx, { ...query } as TicketListQuery) as {
          results: TicketRow[];
          total: number;
        };
        return (
          <TicketsPage
            list={view}
            data={data}
            query={query}
            can={{ searchParties: owner }}
            required={requiredTicketFields(user.company.settings)}
            company={{ name: user.company.name, settings: user.company.settings ?? {} }}
          />
        );
      },
    }),
  );
}

/**
 * The list's state from its URL: only the searches this list offers; its own status, except that the
 * Tickets list takes its Ticket Flow choice (any stage but APP, or ALL) and Show Invoiced from there.
 */
function listQuery(
  view: TicketList,
  q: TicketListQuery,
  table: Pick<TicketsQuery, "page" | "rowsPerPage" | "sortBy" | "descending">,
  owner: boolean,
): TicketsQuery {
  const chosen = FLOW_CHOICES.find((f) => f.id === q.ticketFlowFilter)?.id;
  const showInvoiced = view.flow === "APP" || (!!view.flowFilter && owner && q.showInvoiced === true);
  const query: TicketsQuery = {
    ...table,
    ticketFlowFilter: (view.flowFilter && chosen) || view.flow,
    ...(showInvoiced ? { showInvoiced: true as const } : {}),
    ...(q.hidePaid ? { hidePaid: true } : {}),
    ...(q.hideSigned ? { hideSigned: true } : {}),
  };
  const searches = owner ? SEARCH_KEYS : SEARCH_KEYS.filter((k) => !OWNER_SEARCHES.includes(k));
  return { ...query, ...pickFilters(q, searches) };
}
