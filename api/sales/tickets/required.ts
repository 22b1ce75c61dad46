// The ticket form's required fields beyond Customer and Sales Rep (the spec: "other required flags come
// from company settings"): company setting `Sales.ticketRequired`, a list of the field names below
// (docs/company-settings.md, decision 055). Pure: the ticket services, the settings check and the forms
// read the same answer.
import { AppError, type FieldError } from "../../../lib/errors.ts";

/** The ticket fields a company may make required, and the label the form shows for each. */
export const REQUIRABLE_TICKET_FIELDS = {
  tax_id: "Tax",
  business_unit_id: "Business Unit",
  product_line_id: "Product Line",
  sub_product_line_id: "Sub Product Line",
  location: "Location",
  notes: "Notes",
} as const;
export type RequirableTicketField = keyof typeof REQUIRABLE_TICKET_FIELDS;

const NAMES = Object.keys(REQUIRABLE_TICKET_FIELDS) as RequirableTicketField[];
const isName = (v: unknown): v is RequirableTicketField =>
  typeof v === "string" && v in REQUIRABLE_TICKET_FIELDS;

type Settings = Record<string, unknown> | null | undefined;

function listOf(settings: Settings): unknown {
  const sales = settings?.Sales;
  return sales && typeof sales === "object" && !Array.isArray(sales)
    ? (sales as Record<string, unknown>).ticketRequired
    : undefined;
}

/** The company's required ticket fields, in the form's order; none when the setting is absent. */
export function requiredTicketFields(settings: Settings): RequirableTicketField[] {
  const list = listOf(settings);
  return Array.isArray(list) ? NAMES.filter((n) => list.includes(n)) : [];
}

/** "<Label> is required" (Notes: "are"), the message at the field and in the server's 422. */
export const requiredMessage = (field: RequirableTicketField): string =>
  `${REQUIRABLE_TICKET_FIELDS[field]} ${field === "notes" ? "are" : "is"} required`;

/** A saved `Sales.ticketRequired` that is not a list of the fields above, as [field, sentence]; else null. */
export function ticketRequiredProblem(settings: Settings): [field: string, message: string] | null {
  const list = listOf(settings);
  if (list === undefined || list === null) return null;
  if (Array.isArray(list) && list.every(isName)) return null;
  return ["settings.Sales.ticketRequired", `Must be a list of: ${NAMES.join(", ")}`];
}

const blank = (v: unknown) => v === null || v === undefined || (typeof v === "string" && v.trim() === "");

/**
 * The required fields `values` leaves empty. A new ticket (`partial` false) must carry each; an update
 * (`partial`) is refused only for a field it sends empty, so a save of other fields (a status, Paid) on a
 * ticket made before the setting still goes through.
 */
export function missingTicketFields(
  required: readonly RequirableTicketField[],
  values: Partial<Record<RequirableTicketField, unknown>>,
  partial = false,
): FieldError[] {
  return required
    .filter((f) => (partial ? f in values && values[f] !== undefined && blank(values[f]) : blank(values[f])))
    .map((f) => ({ path: f, message: requiredMessage(f) }));
}

/** 422 naming each required field the save leaves empty (see missingTicketFields). */
export function requireTicketFields(
  settings: Settings,
  values: Partial<Record<RequirableTicketField, unknown>>,
  partial = false,
): void {
  const missing = missingTicketFields(requiredTicketFields(settings), values, partial);
  if (!missing.length) return;
  const detail = missing.length === 1
    ? missing[0].message
    : `${
      missing.map((e) => REQUIRABLE_TICKET_FIELDS[e.path as RequirableTicketField]).join(", ")
    } are required`;
  throw new AppError("invalid", detail, missing);
}
