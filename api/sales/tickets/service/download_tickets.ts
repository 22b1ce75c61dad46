import type { Ctx } from "../../../lib/context.ts";
import { type XlsxColumn, xlsxResponse } from "../../../lib/xlsx.ts";
import { requireAbility } from "../../../../lib/policy.ts";
import { timeZoneOf } from "../../../../lib/format.ts";
import { TICKET_STATUS_LABELS } from "../../../../lib/enums.ts";
import { invoiceNumber } from "../rules.ts";
import type { TicketListQuery } from "../schemas.ts";
import { everyTicket, type TicketListRow } from "./list_tickets.ts";

/** Each stage list's file name, as its page is titled (the spec's `<Name>-YYYY-MM-DD.xlsx`). */
const FILE_NAMES: Record<string, string> = {
  OPEN: "Tickets",
  ALL: "Tickets",
  QUOTE: "Quotes",
  RFB: "Ready-For-Billing",
  RFA: "Approval",
  APP: "Invoices",
};

export const TICKET_COLUMNS: XlsxColumn[] = [
  { header: "Ticket #", key: "ticket_number", width: 14 },
  { header: "Inv #", key: "invoice_number", width: 16 },
  { header: "Ticket Date", key: "ticket_date", width: 12, date: true },
  { header: "Invoice Date", key: "invoice_date", width: 12, date: true },
  { header: "Customer", key: "customer", width: 30 },
  { header: "Sales Rep", key: "sales_rep", width: 22 },
  { header: "Status", key: "status", width: 20 },
  { header: "Disputed", key: "disputed", width: 9 },
  { header: "Signed", key: "signed", width: 8 },
  { header: "Billed", key: "billed", width: 8 },
  { header: "Paid", key: "paid", width: 8 },
  { header: "Location", key: "location", width: 24 },
  { header: "Subtotal", key: "subtotal", width: 14, format: "money" },
  { header: "Markup", key: "markup", width: 12, format: "money" },
  { header: "Discount", key: "discount", width: 12, format: "money" },
  { header: "State Tax", key: "state_tax", width: 12, format: "money" },
  { header: "County Tax", key: "county_tax", width: 12, format: "money" },
  { header: "City Tax", key: "city_tax", width: 12, format: "money" },
  { header: "Grand Total", key: "grandtotal", width: 14, format: "money" },
  { header: "Notes", key: "notes", width: 40 },
];

const yes = (v: unknown) => (v ? "Yes" : "");

/** One list row as a spreadsheet row: labels people read, an issued invoice's number with its revision. */
function sheetRow(t: TicketListRow): Record<string, unknown> {
  const x = t.totals;
  return {
    ticket_number: t.ticket_number,
    invoice_number: t.invoice_number
      ? invoiceNumber(String(t.invoice_number), t.invoice_revision as number | null)
      : "",
    ticket_date: t.ticket_date,
    invoice_date: t.invoice_date,
    customer: t.customer.name,
    sales_rep: t.sales_rep?.name ?? "",
    status: TICKET_STATUS_LABELS[String(t.status)] ?? t.status,
    disputed: yes(t.disputed),
    signed: yes(t.isSigned),
    billed: yes(t.isBilled),
    paid: yes(t.isPaid),
    location: t.location ?? "",
    subtotal: x.subtotal,
    markup: x.markup,
    discount: x.discount,
    state_tax: x.state_tax,
    county_tax: x.county_tax,
    city_tax: x.city_tax,
    grandtotal: x.grandtotal,
    notes: t.notes ?? "",
  };
}

/**
 * GET /api/sales/tickets/download: a stage list with its filters and order, every row (page -1), as
 * `<List>-YYYY-MM-DD.xlsx`, dates as date cells and money as numbers (decision 044). Any sales user, as the list.
 */
export async function downloadTickets(ctx: Ctx, q: TicketListQuery, today = new Date()): Promise<Response> {
  requireAbility(ctx.user, "sales.read");
  const rows = await everyTicket(ctx, q);
  return xlsxResponse(
    FILE_NAMES[q.ticketFlowFilter ?? "OPEN"] ?? "Tickets",
    TICKET_COLUMNS,
    (async function* () {
      for await (const t of rows) yield sheetRow(t);
    })(),
    today,
    { timeZone: timeZoneOf(ctx.user.company.settings) },
  );
}
