import type { Ticket } from "../../../db/schema/mod.ts";
import type { Named, TicketTotals } from "../../../api/sales/tickets/schemas.ts";

/** A row of GET /api/sales/tickets: the ticket with its parties, totals and the disputed flag. */
export type TicketRow = Ticket & {
  customer: Named;
  sales_rep: Named | null;
  totals: TicketTotals;
  disputed: boolean;
};

export type TicketFlow = "OPEN" | "QUOTE" | "RFB" | "RFA" | "APP";

/** One of the five stage lists: its page, title and the one status it shows. */
export interface TicketList {
  path: string;
  title: string;
  flow: TicketFlow;
  /** the New button's label and whether it makes a quote; none on the other lists */
  create?: { label: string; isQuote: boolean };
  /** the Invoice Number search (invoices and approval) */
  invoiceNumber: boolean;
  /** the company logo by the title */
  logo: boolean;
}

export const TICKET_LISTS: readonly TicketList[] = [
  {
    path: "/sales/tickets",
    title: "Tickets",
    flow: "OPEN",
    create: { label: "New Ticket", isQuote: false },
    invoiceNumber: false,
    logo: false,
  },
  {
    path: "/sales/quotes",
    title: "Quotes",
    flow: "QUOTE",
    create: { label: "New Quote", isQuote: true },
    invoiceNumber: false,
    logo: false,
  },
  {
    path: "/sales/ready-for-billing",
    title: "Ready For Billing",
    flow: "RFB",
    invoiceNumber: false,
    logo: false,
  },
  { path: "/sales/approval", title: "Approval", flow: "RFA", invoiceNumber: true, logo: false },
  { path: "/sales/invoices", title: "Invoices", flow: "APP", invoiceNumber: true, logo: true },
];

/** The spec's status names. */
export const STATUS_LABELS: Record<string, string> = {
  OPEN: "Open",
  RFB: "Ready To Bill",
  RFA: "Request For Approval",
  APP: "Approved",
  QUOTE: "Quote",
};

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
    ticketFlowFilter: TicketFlow;
    /** the invoices list: APP rows are shown */
    showInvoiced?: true;
    hidePaid?: boolean;
    hideSigned?: boolean;
  }
  & Partial<Record<TicketSearchKey, string>>;

export interface TicketsProps {
  list: TicketList;
  data: { results: TicketRow[]; total: number };
  query: TicketsQuery;
  /** owner-company users: Customer and Sales Rep searches */
  can: { searchParties: boolean };
}
