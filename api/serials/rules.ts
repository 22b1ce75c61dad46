// How a timeline event reads, in the page's table and the download alike. Pure: the page imports it.
import { formatDate, formatDateTime, formatNumber, formatPressure, formatUt } from "../../lib/format.ts";
import { TICKET_STATUS_LABELS } from "../../lib/enums.ts";
import type { AuditEvent, InspectionEvent, SerialEvent, TicketEvent } from "./schemas.ts";

/** One timeline row as text: what kind of event, what happened, who did it. */
export interface EventText {
  kind: string;
  what: string;
  who: string;
}

const joined = (parts: (string | false | null | undefined)[]) => parts.filter(Boolean).join(" · ");

/** The inspection's results as the inspection tables show them, blanks left out. */
export function inspectionResults(i: InspectionEvent["inspection"]): string {
  const ut = i.ut.filter((v) => v !== null).map((v) => formatUt(v));
  return joined([
    i.visual_pass !== null && `Visual ${i.visual_pass ? "Pass" : "Fail"}`,
    ut.length > 0 && `UT ${ut.join(" / ")}`,
    i.pressure !== null && `Pressure ${formatPressure(i.pressure)}`,
    i.band_color && `Band ${i.band_color}`,
    i.mpi_result && `MPI ${i.mpi_result}`,
  ]);
}

function inspectionText(e: InspectionEvent): EventText {
  const i = e.inspection;
  return {
    kind: "Inspection",
    what: joined([
      `Job ${i.job.job_number}`,
      `dated ${formatDate(i.date)}`,
      i.part,
      i.batch && `batch ${i.batch}`,
      inspectionResults(i),
    ]),
    who: i.inspector,
  };
}

/** A quote, an invoice or a ticket: what the serial went out on. */
export function ticketKind(t: TicketEvent["ticket"]): string {
  return t.isQuote ? "Quote" : t.invoice_number ? "Invoice" : "Ticket";
}

function ticketText(e: TicketEvent, timeZone: string): EventText {
  const { ticket: t, line: l } = e;
  const dates = [l.start_date, l.end_date].filter(Boolean).map((d) => formatDateTime(d, timeZone));
  return {
    kind: ticketKind(t),
    what: joined([
      t.invoice_number ? `${t.ticket_number} (invoice ${t.invoice_number})` : t.ticket_number,
      t.customer,
      dates.join(" to "),
      TICKET_STATUS_LABELS[t.status] ?? t.status,
      `${l.item_number} × ${formatNumber(l.quantity)}${l.isSold ? " sold" : ""}`,
    ]),
    who: l.added_by,
  };
}

function auditText(e: AuditEvent): EventText {
  const a = e.audit;
  const change = a.quantity_change ? ` (${a.quantity_change > 0 ? "+" : ""}${a.quantity_change})` : "";
  return {
    kind: a.action,
    what: joined([
      a.item_number,
      a.business_unit,
      `quantity ${formatNumber(a.quantity)}${change}`,
      a.status,
      a.locations,
      a.ticket_number,
      a.customer_name,
    ]),
    who: a.updated_by,
  };
}

/** The text of an event; instants on the company's clock (`timeZone`). */
export function eventText(e: SerialEvent, timeZone: string): EventText {
  switch (e.kind) {
    case "inspection":
      return inspectionText(e);
    case "ticket":
      return ticketText(e, timeZone);
    case "audit":
      return auditText(e);
  }
}
