import { formatDate, formatDateTime, money, serviceDates } from "../../../../lib/format.ts";
import { useTimeZone } from "../../../lib/time_zone.tsx";
import { CompanyLogo } from "../../../shell/CompanyLogo.tsx";
import { DisputedFlag, invoiceNumber } from "../columns.tsx";
import { STATUS_LABELS } from "../types.ts";
import type { Line } from "../../lines/types.ts";
import type { DetailProps, TicketDetail as Ticket } from "./types.ts";

/** The header's facts: numbers, status, parties and dates. */
export function Header({ t, lines, company }: { t: Ticket; lines: Line[]; company: DetailProps["company"] }) {
  const timeZone = useTimeZone();
  const facts: [string, string | undefined][] = [
    [t.isQuote || t.status === "QUOTE" ? "Quote #" : "Ticket #", t.ticket_number],
    ["Invoice #", t.invoice_number ? invoiceNumber(t.invoice_number, t.issued?.revision) : undefined],
    ["Status", STATUS_LABELS[t.status] ?? t.status],
    ["Customer", t.customer?.name],
    ["Sales Rep", t.sales_rep?.name],
    ["Ticket Date", formatDate(t.ticket_date)],
    ["Invoice Date", t.invoice_date ? formatDate(t.invoice_date) : undefined],
    [
      "Service Dates",
      !(t.isQuote || t.status === "QUOTE")
        ? serviceDates(lines, (v) => formatDateTime(v, timeZone, "page")) || undefined
        : undefined,
    ],
    ["Business Unit", t.business_unit?.name],
    ["Location", t.location || undefined],
  ];
  return (
    <div className="ticket-head">
      <div className="ticket-logo">
        <CompanyLogo settings={company.settings} name={company.name} fit={90} />
      </div>
      <dl className="ticket-facts">
        {facts.filter(([, v]) => v).map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
        {t.disputed && (
          <div>
            <dt>Disputed</dt>
            <dd>
              <DisputedFlag /> latest rejection unresolved
            </dd>
          </div>
        )}
      </dl>
    </div>
  );
}

const revisionPdf = (ticketId: number, revision: number) =>
  `/api/sales/ticketpdf?ticket_id=${ticketId}&type=invoice&revision=${revision}`;

/**
 * Every revision of the invoice, each as issued (a PDF link that works without JavaScript): the current one,
 * and those cancelled by re-opening, with who and when. A re-opened ticket says it is the next revision's draft.
 */
export function Revisions({ t }: { t: Ticket }) {
  const timeZone = useTimeZone();
  if (!t.revisions.length) return null;
  const draft = !t.issued;
  return (
    <section className="ticket-revisions" aria-labelledby="revisions-title">
      <h2 id="revisions-title">Invoice revisions</h2>
      {draft && (
        <p className="field-note" role="note">
          Re-opened: this is the draft of{" "}
          {invoiceNumber(t.invoice_number ?? "", t.revisions.length)}. What was issued stays below, unchanged.
        </p>
      )}
      <ul>
        {t.revisions.map((r) => (
          <li key={r.revision}>
            <a href={revisionPdf(t.id, r.revision)} target="_blank" rel="noopener">
              {invoiceNumber(r.number, r.revision)}
            </a>{" "}
            <span>
              {formatDate(r.document_date)}, {money(r.grandtotal)}, {r.cancelled_at
                ? `cancelled ${formatDateTime(r.cancelled_at, timeZone, "page")}${
                  r.cancelled_by ? ` by ${r.cancelled_by}` : ""
                }`
                : `current, issued ${formatDateTime(r.issued_at, timeZone, "page")}${
                  r.issued_by ? ` by ${r.issued_by}` : ""
                }`}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The ticket's totals: subtotal, markup, discount, the three taxes and the grand total. */
export function Totals({ t }: { t: Ticket }) {
  const x = t.totals;
  const rows: [string, number][] = [
    ["Subtotal", x.subtotal],
    ["Markup", x.markup],
    ["Discount", x.discount ? -x.discount : 0],
    ["State Tax", x.state_tax],
    ["County Tax", x.county_tax],
    ["City Tax", x.city_tax],
  ];
  return (
    <dl className="ticket-totals" aria-label="Totals">
      {rows.map(([k, v]) => (
        <div key={k}>
          <dt>{k}</dt>
          <dd>{money(v)}</dd>
        </div>
      ))}
      <div className="grand">
        <dt>Grand Total</dt>
        <dd>{money(x.grandtotal)}</dd>
      </div>
    </dl>
  );
}
