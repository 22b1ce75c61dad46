import type { SerialEvent } from "../../api/serials/schemas.ts";
import { TICKET_LISTS } from "../sales/tickets/types.ts";

export interface EventLink {
  label: string;
  href: string;
}

/** The ticket's screen under the list of its stage (the Tickets list for anything else). */
export function ticketHref(t: { id: number; status: string }): string {
  const list = TICKET_LISTS.find((l) => l.flow === t.status) ?? TICKET_LISTS[0];
  return `${list.path}/${t.id}`;
}

/**
 * Where a timeline row leads: an inspection to its job, its report (test certificate) and its
 * pressure-test PDF when it has one; a ticket line to its ticket (Sales only: only they see those rows).
 */
export function eventLinks(e: SerialEvent): EventLink[] {
  switch (e.kind) {
    case "inspection": {
      const i = e.inspection;
      return [
        { label: "Job", href: `/pt/inspection?job_id=${i.job.id}` },
        { label: "Report", href: i.report },
        ...(i.pressure_test_pdf ? [{ label: "PT PDF", href: i.pressure_test_pdf }] : []),
      ];
    }
    case "ticket":
      return [{ label: e.ticket.ticket_number, href: ticketHref(e.ticket) }];
    case "audit":
      return [];
  }
}
