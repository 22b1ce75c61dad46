// Billed documents: an approved invoice (APP) is what the customer was billed, so nothing on it
// changes (header fields, lines, their order) except through the re-open path (APP to OPEN, approval
// authority). Its invoice state (Signed, Billed, Paid) is the one thing that moves while it is billed.
import type { Ticket } from "../../../db/schema/mod.ts";
import { AppError } from "../../../lib/errors.ts";
import { BILLED_MESSAGE, isBilledDocument } from "./rules.ts";

export { BILLED_MESSAGE, isBilledDocument };

/** The invoice-state flags an approved invoice may still change. */
export const INVOICE_STATE_FIELDS = ["isSigned", "isBilled", "isPaid"] as const;

/**
 * 409 when the ticket is a billed document: every write to its lines (save, delete, reorder,
 * attachment) calls this, with its own sentence where it has one.
 */
export function requireUnbilled(
  ticket: Pick<Ticket, "status" | "isInvoice">,
  sentence = BILLED_MESSAGE,
): void {
  if (isBilledDocument(ticket)) throw new AppError("conflict", sentence);
}

const same = (a: unknown, b: unknown) =>
  a === b || (a !== null && typeof a === "object" && JSON.stringify(a) === JSON.stringify(b));

/**
 * The fields of `values` that would change a billed document: every field whose value differs from
 * the stored one, except the invoice-state flags. Sending a field unchanged (a form posting back what
 * it showed) is not a change.
 */
export function billedFieldChanges(ticket: Ticket, values: Partial<Ticket>): string[] {
  return Object.entries(values)
    .filter(([k, v]) =>
      v !== undefined && !(INVOICE_STATE_FIELDS as readonly string[]).includes(k) &&
      !same(v, ticket[k as keyof Ticket])
    )
    .map(([k]) => k);
}

/**
 * A header save on a billed document: refused (409, naming the fields) when it changes anything but
 * the invoice state, unless the same save re-opens it.
 */
export function requireBilledUnchanged(ticket: Ticket, values: Partial<Ticket>, reopening: boolean): void {
  if (!isBilledDocument(ticket) || reopening) return;
  const changed = billedFieldChanges(ticket, values);
  if (changed.length) {
    throw new AppError("conflict", `${BILLED_MESSAGE} Refused change: ${changed.join(", ")}.`);
  }
}
