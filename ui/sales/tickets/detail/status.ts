// The Change Status list and the redirects after saving a ticket or invoice form on the detail
// screen. Pure: the browser islands and the unit test import it.
import {
  type StatusChoice,
  type StoredStatus,
  transitionProblem,
} from "../../../../api/sales/tickets/rules.ts";
import { STATUS_LABELS as STORED_LABELS } from "../types.ts";
import type { DetailCan } from "./types.ts";

export type { StatusChoice };

/** The stored statuses' names, and the clone action's. */
export const STATUS_LABELS: Record<StatusChoice, string> = {
  ...(STORED_LABELS as Record<StoredStatus, string>),
  CLONEQUOTE: "Clone To Ticket",
};

const ORDER: StatusChoice[] = ["OPEN", "RFB", "RFA", "APP", "QUOTE", "CLONEQUOTE"];

/** The spec's role-limited list before the ticket's state narrows it. */
function roleChoices(ticket: { isQuote: boolean; status: string }, can: Pick<DetailCan, "approve">) {
  if (ticket.isQuote || ticket.status === "QUOTE") return ["QUOTE", "CLONEQUOTE"];
  return can.approve ? ["OPEN", "RFB", "RFA", "APP"] : ["OPEN", "RFB", "RFA"];
}

/**
 * The Change Status choices for this ticket and user: the spec's role-limited values (Open, Ready To
 * Bill, Request For Approval; Approved for approval-authority; Quote and Clone To Ticket on quotes),
 * narrowed to the transitions the server accepts from the current status (`transitionProblem`), plus
 * the current status itself (saving without a transition is open to anyone, e.g. marking an invoice
 * paid). Request For Approval stays offered on an RFB ticket whose lines are not all
 * handled: the server then answers with the spec's "blocked" sentence.
 */
export function statusChoices(
  ticket: { isQuote: boolean; status: string },
  can: Pick<DetailCan, "approve">,
): { id: StatusChoice; label: string }[] {
  const from = ticket.status as StoredStatus;
  const offered = roleChoices(ticket, can);
  return ORDER
    .filter((to) =>
      to === from ||
      (offered.includes(to) &&
        transitionProblem(from, to, { approver: can.approve, complete: true }) === null)
    )
    .map((id) => ({ id, label: STATUS_LABELS[id] }));
}

/** Which form a chosen status opens: the ticket form for RFB, RFA and CLONEQUOTE, else the invoice form. */
export function dialogFor(status: string): "ticket" | "invoice" {
  return status === "RFB" || status === "RFA" || status === "CLONEQUOTE" ? "ticket" : "invoice";
}

/**
 * Where the screen goes after a ticket or invoice form saved `status`: OPEN, RFA and RFB to the
 * tickets list, APP to invoices, QUOTE to quotes; CLONEQUOTE to the new OPEN ticket the server
 * answered (`saved.id`).
 */
export function redirectAfterSave(status: string, saved?: { id: number }): string {
  switch (status) {
    case "APP":
      return "/sales/invoices";
    case "QUOTE":
      return "/sales/quotes";
    case "CLONEQUOTE":
      if (!saved) throw new Error("A cloned quote redirects to the new ticket: its id is needed");
      return `/sales/tickets/${saved.id}`;
    default:
      return "/sales/tickets";
  }
}
