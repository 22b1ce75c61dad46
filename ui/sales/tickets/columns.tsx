import type { DataColumn } from "../../components/DataTable.tsx";
import { Icon } from "../../components/icons.tsx";
import { formatListDate, money } from "../../../lib/format.ts";
import { STATUS_LABELS, type TicketList, type TicketRow } from "./types.ts";

import { invoiceNumber } from "../../../api/sales/tickets/rules.ts";
export { invoiceNumber };

export const DISPUTED = "Disputed: latest rejection unresolved";

/** The red flag of a disputed ticket; its text is the image's accessible name and tooltip. */
export function DisputedFlag() {
  return (
    <span
      role="img"
      aria-label={DISPUTED}
      title={DISPUTED}
      style={{ display: "inline-flex", color: "var(--danger)", verticalAlign: "middle" }}
    >
      <Icon name="flag" size={18} />
    </span>
  );
}

/** An invoice's state: Signed and Billed when set, then Paid or Unpaid. */
export const invoiceState = (t: Pick<TicketRow, "isSigned" | "isBilled" | "isPaid">) =>
  [t.isSigned && "Signed", t.isBilled && "Billed", t.isPaid ? "Paid" : "Unpaid"].filter(Boolean).join(", ");

const clip = (text: string) => <span className="cell-clip" title={text}>{text}</span>;

/** The list's columns: Quote # on quotes; Inv #, Invoice Date and Invoice State on invoices. */
export function ticketColumns(list: TicketList): DataColumn<TicketRow>[] {
  return [
    {
      id: "ticket_number",
      header: list.flow === "QUOTE" ? "Quote #" : "Ticket #",
      essential: true,
      // A real link to the ticket's screen under this list, so it opens without JavaScript too.
      cell: (t) => (
        <a className="nowrap" href={`${list.path}/${t.id}`}>
          {t.ticket_number}
        </a>
      ),
    },
    ...(list.flow === "APP"
      ? [{
        id: "invoice_number",
        header: "Inv #",
        essential: true,
        cell: (t: TicketRow) => (
          <span className="nowrap">
            {t.invoice_number ? invoiceNumber(t.invoice_number, t.invoice_revision) : ""}
          </span>
        ),
      }]
      : []),
    // The invoices list is dated by the invoice; the others by the ticket.
    list.flow === "APP"
      ? {
        id: "invoice_date",
        header: "Invoice Date",
        cell: (t) => <span className="nowrap">{t.invoice_date ? formatListDate(t.invoice_date) : ""}</span>,
      }
      : {
        id: "ticket_date",
        header: "Date",
        cell: (t) => <span className="nowrap">{formatListDate(t.ticket_date)}</span>,
      },
    { id: "customer", header: "Customer", essential: true, cell: (t) => clip(t.customer.name) },
    { id: "sales_rep", header: "Sales Rep", cell: (t) => t.sales_rep?.name ?? "" },
    {
      id: "status",
      header: "Status",
      cell: (t) => (
        <span className="nowrap">
          {STATUS_LABELS[t.status] ?? t.status}
          {t.disputed && (
            <>
              {" "}
              <DisputedFlag />
            </>
          )}
        </span>
      ),
    },
    ...(list.flow === "APP"
      ? [{
        id: "invoice_state",
        header: "Invoice State",
        sortable: false,
        cell: (t: TicketRow) => <span className="nowrap">{invoiceState(t)}</span>,
      }]
      : []),
    {
      id: "total",
      header: "Total",
      sortable: false,
      cell: (t) => <span className="nowrap">{money(t.totals.grandtotal)}</span>,
    },
  ];
}
