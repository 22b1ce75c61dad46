/** A stock row as far as "can it go out on this ticket" needs it (the picker's row has these). */
export interface RowFit {
  serial_number: string;
  status: string;
  business_unit: { id: number; name: string };
  item: { item_number: string; item_description: string };
}

/** The ticket side: its business unit (none: any unit) and whether it is a quote (nothing goes out). */
export interface TicketFit {
  business_unit_id: number | null;
  business_unit_name?: string | null;
  isQuote: boolean;
}

/**
 * Why the row cannot be put on a line of this ticket, in a few words for the picker ("In Repair",
 * "Odessa stock"), or undefined when it can: only Available rows go out on a ticket (a quote may
 * name any row, it takes nothing out), and only rows of the ticket's business unit when it has one.
 */
export function fitProblem(row: RowFit, ticket: TicketFit): string | undefined {
  if (ticket.business_unit_id && row.business_unit.id !== ticket.business_unit_id) {
    return `${row.business_unit.name} stock`;
  }
  if (!ticket.isQuote && row.status !== "Available") return `In ${row.status}`;
  return undefined;
}

/** Item number | serial | description, as the pickers label a row. */
const labelOf = (r: RowFit) =>
  [r.item.item_number, r.serial_number, r.item.item_description].filter(Boolean).join(" | ");

/** The same refusal as a sentence naming the row (the server's 422 on inventory_id). */
export function fitRefusal(row: RowFit, ticket: TicketFit, line?: string): string | undefined {
  const problem = fitProblem(row, ticket);
  if (!problem) return undefined;
  const name = line ? `${line}, ${labelOf(row)}` : labelOf(row);
  if (ticket.business_unit_id && row.business_unit.id !== ticket.business_unit_id) {
    const own = ticket.business_unit_name ? ` (${ticket.business_unit_name})` : "";
    return `${name} is ${row.business_unit.name} stock: a line takes stock of the ticket's business unit${own}.`;
  }
  return `${name} is in ${row.status}: only Available stock can go out on a ticket.`;
}

export const OTHER_UNIT_TARGET = "Choose a ticket of the same business unit";

/**
 * Whether lines of `source` may move to `target` (transfer): a ticket without a business unit takes
 * any lines; one with a unit, only lines of its own unit's stock, i.e. of a ticket of that unit.
 */
export const sameUnit = (
  source: { business_unit_id: number | null },
  target: { business_unit_id: number | null },
) => !target.business_unit_id || target.business_unit_id === source.business_unit_id;
