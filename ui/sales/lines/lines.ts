import { DEFAULT_TIME_ZONE, formatDateTime, fromZonedInput } from "../../../lib/format.ts";
import type { Line } from "./types.ts";

/** What a line's inventory log adds up to (the spec's line status figures). */
export function logFigures(line: Pick<Line, "inventory_log">) {
  let checkedIn = 0, removed = 0, sold = 0, reclassed = 0;
  for (const e of line.inventory_log) {
    if (e.remove_quantity) removed += e.quantity_in;
    else checkedIn += e.quantity_in;
    sold += e.quantity_sold;
    reclassed += e.quantity_reclassed;
  }
  return { checkedIn, removed, sold, reclassed };
}

/** The text a line is searched by: every field the table can show (times on the company's clock). */
function searchText(l: Line, timeZone: string): string {
  const i = l.sales_inventory;
  return [
    i.serial_number,
    i.inventory_description,
    i.item.item_number,
    i.item.item_description,
    i.item.inventory_type,
    l.notes,
    l.doc,
    l.order,
    l.quantity,
    l.price,
    l.minimum_rate,
    l.duration,
    l.discount,
    l.markup,
    l.calculated_total.toFixed(2),
    l.calculated_tax.toFixed(2),
    l.calculated_inventory_status,
    formatDateTime(l.start_date, timeZone),
    formatDateTime(l.end_date, timeZone),
  ].filter((v) => v !== null && v !== undefined).join("\u0001").toLowerCase();
}

/** The lines whose fields contain `text` (case-insensitive); every line for a blank search. */
export function searchLines(lines: Line[], text: string, timeZone = DEFAULT_TIME_ZONE): Line[] {
  const t = text.trim().toLowerCase();
  return t ? lines.filter((l) => searchText(l, timeZone).includes(t)) : lines;
}

/** `ids` with the one at `from` moved to `to`. */
export function moved<T>(ids: T[], from: number, to: number): T[] {
  if (from === to || from < 0 || to < 0 || from >= ids.length || to >= ids.length) return ids;
  const out = [...ids];
  const [x] = out.splice(from, 1);
  out.splice(to, 0, x);
  return out;
}

/** One line's check-in entry as typed. */
export interface CheckInEntry {
  selected: boolean;
  date: string;
  quantityIn: string;
  remove: boolean;
  quantitySold: string;
}

export const emptyEntry = (date: string): CheckInEntry => ({
  selected: false,
  date,
  quantityIn: "",
  remove: false,
  quantitySold: "",
});

/** A typed quantity: null when blank, else the number (NaN when not one). */
const quantity = (s: string) => (s.trim() === "" ? null : Number(s.trim()));

/** The spec's message for a check-in or sold quantity, or undefined when it is fine (blank is fine). */
export function quantityMessage(s: string): string | undefined {
  const n = quantity(s);
  if (n === null) return undefined;
  if (!Number.isFinite(n)) return "Must be a number";
  if (n <= 0) return "Must be a positive number";
  if (!Number.isInteger(n)) return "Must be a whole number";
  return undefined;
}

export type CheckInPlan =
  | { ok: true; body: Record<string, unknown> }
  | { ok: false; alert?: string; errors?: Record<number, string> };

/**
 * The check-in request for the selected lines, or why nothing is sent: a field message by line id,
 * or the spec's alert when already in + sold + newly in + newly sold exceeds a line's quantity.
 */
export function planCheckIn(
  ticketId: number,
  lines: Line[],
  entries: Record<number, CheckInEntry>,
  /** The company's zone: the typed dates are its wall clock, sent as UTC. */
  timeZone = DEFAULT_TIME_ZONE,
): CheckInPlan {
  const chosen = lines.filter((l) => entries[l.id]?.selected);
  if (chosen.length === 0) return { ok: false, alert: "Select at least one line to check in." };
  const errors: Record<number, string> = {};
  for (const l of chosen) {
    const e = entries[l.id];
    const msg = quantityMessage(e.quantityIn) ?? quantityMessage(e.quantitySold);
    if (msg) errors[l.id] = msg;
    else if (quantity(e.quantityIn) === null && quantity(e.quantitySold) === null) {
      errors[l.id] = "Enter a quantity in or sold";
    } else if (l.isSold && quantity(e.quantityIn) !== null) {
      errors[l.id] = "A sold line is not checked in again";
    }
  }
  if (Object.keys(errors).length) return { ok: false, errors };
  for (const l of chosen) {
    const e = entries[l.id];
    const f = logFigures(l);
    const total = f.checkedIn + f.removed + f.sold + (quantity(e.quantityIn) ?? 0) +
      (quantity(e.quantitySold) ?? 0);
    if (total > l.quantity) {
      return {
        ok: false,
        alert: `All Checked-In and Sold can't exceed Quantity: ${l.sales_inventory.item.item_description}`,
      };
    }
  }
  return {
    ok: true,
    body: {
      ticket_id: ticketId,
      line_items: chosen.map((l) => l.id),
      quantities_in: chosen.map((l) => quantity(entries[l.id].quantityIn)),
      quantities_sold: chosen.map((l) => quantity(entries[l.id].quantitySold)),
      quantity_dates: chosen.map((l) => {
        const date = entries[l.id].date;
        return date ? fromZonedInput(date, timeZone) || date : null;
      }),
      remove_quantities: chosen.map((l) => entries[l.id].remove),
    },
  };
}
