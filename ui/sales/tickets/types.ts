import type { Ticket } from "../../../db/schema/mod.ts";
import type { Named, TicketTotals } from "../../../api/sales/tickets/schemas.ts";
import type { RequirableTicketField } from "../../../api/sales/tickets/required.ts";

/** A row of GET /api/sales/tickets: the ticket with its parties, totals and the disputed flag. */
export type TicketRow = Ticket & {
  customer: Named;
  sales_rep: Named | null;
  totals: TicketTotals;
  disputed: boolean;
  /** an issued invoice's current revision (0 the first), null for drafts (decision 040) */
  invoice_revision?: number | null;
};

export type TicketFlow = "OPEN" | "QUOTE" | "RFB" | "RFA" | "APP";

/** One of the five stage lists: its page, title and the one status it shows. */
export interface TicketList {
  path: string;
  title: string;
  flow: TicketFlow;
  /** the New button's label and whether it makes a quote; none on the other lists */
  create?: { label: string; isQuote: boolean };
  /**
   * the Tickets list: a Ticket Flow filter (any stage or all, its own stage by default) and, for
   * owner-company staff, Show Invoiced (adds approved invoices)
   */
  flowFilter?: boolean;
  /** the company logo by the title */
  logo: boolean;
}

export const TICKET_LISTS: readonly TicketList[] = [
  {
    path: "/sales/tickets",
    title: "Tickets",
    flow: "OPEN",
    create: { label: "New Ticket", isQuote: false },
    flowFilter: true,
    logo: false,
  },
  {
    path: "/sales/quotes",
    title: "Quotes",
    flow: "QUOTE",
    create: { label: "New Quote", isQuote: true },
    logo: false,
  },
  {
    path: "/sales/ready-for-billing",
    title: "Ready For Billing",
    flow: "RFB",
    logo: false,
  },
  { path: "/sales/approval", title: "Approval", flow: "RFA", logo: false },
  { path: "/sales/invoices", title: "Invoices", flow: "APP", logo: true },
];

/** The Ticket Flow filter's choices on the Tickets list (the spec's OPEN, RFB, RFA, QUOTE, or all). */
export const FLOW_CHOICES: readonly { id: TicketFlow | "ALL"; label: string }[] = [
  { id: "ALL", label: "All" },
  { id: "OPEN", label: "Open" },
  { id: "RFB", label: "Ready To Bill" },
  { id: "RFA", label: "Request For Approval" },
  { id: "QUOTE", label: "Quote" },
];

/** The spec's status names. */
export { TICKET_STATUS_LABELS as STATUS_LABELS } from "../../../lib/enums.ts";

export const TICKET_PAGE_SIZES = [10, 25, 50, -1] as const;

export type TicketSearchKey =
  | "search_ticket_number"
  | "search_invoice_number"
  | "search_customer"
  | "search_sales_rep";

/**
 * The table's state, sent to the API as is and kept in the list's own URL only: leaving the list
 * (another path) leaves its state behind, so coming back starts clean.
 */
export type TicketsQuery =
  & {
    page: number;
    rowsPerPage: number;
    sortBy?: string;
    descending?: boolean;
    /** the list's stage; on the Tickets list the Ticket Flow filter's choice (ALL: every stage) */
    ticketFlowFilter: TicketFlow | "ALL";
    /** the invoices list, or Show Invoiced on the Tickets list: APP rows are shown */
    showInvoiced?: true;
    hidePaid?: boolean;
    hideSigned?: boolean;
  }
  & Partial<Record<TicketSearchKey, string>>;

export interface TicketsProps {
  list: TicketList;
  data: { results: TicketRow[]; total: number };
  query: TicketsQuery;
  /** owner-company users: Customer and Sales Rep searches and Show Invoiced */
  can: { searchParties: boolean };
  /** the ticket fields the company's settings make required (`Sales.ticketRequired`, decision 055) */
  required: RequirableTicketField[];
}
