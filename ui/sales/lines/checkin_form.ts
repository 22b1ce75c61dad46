import { type CheckInEntry, emptyEntry } from "./lines.ts";
import type { Line } from "./types.ts";

/**
 * Check-in as an HTML form (decision 056): the check-in cells are fields of one `<form>` (by their `form`
 * attribute), so a ticket in check-in mode (`?mode=checkin`) checks lines in before its scripts have come.
 * The form posts to `{ticket page}/check-in`, which answers 303 back to the ticket in check-in mode with the
 * outcome (ui/sales/tickets/detail/checkin_route.ts). Pure: the server and the island share the field names.
 */
export const CHECK_IN_FORM_ID = "check-in-form";
export const CHECK_IN_MODE = "checkin";

/** The form's field names: a line's fields carry its id. */
export const field = {
  select: "line",
  date: (id: number) => `date.${id}`,
  quantityIn: (id: number) => `in.${id}`,
  remove: (id: number) => `remove.${id}`,
  quantitySold: (id: number) => `sold.${id}`,
  serial: "serial",
  action: "action",
} as const;

/**
 * The two submit buttons' values. `select` (the scanned serial's line) is the form's first submit button,
 * so it is the form's default: Enter in any field (a USB scanner ends every scan with one) selects a line and
 * never sends a half-typed check-in; only Submit Check-In sends one.
 */
export type CheckInAction = "select" | "submit";

/** The check-in mode as the page starts it: each line's entry, each line's refusal, and what happened. */
export interface CheckInStart {
  entries: Record<number, CheckInEntry>;
  errors: Record<number, string>;
  /** a success ("3 lines checked in") or what a scan did */
  notice?: string;
  /** why nothing was checked in, when it is not one line's */
  alert?: string;
}

/** A posted form's values as `parseBody({ all: true })` gives them. */
export type FormValues = Record<string, string | File | (string | File)[]>;

const text = (v: FormValues[string] | undefined): string => {
  const one = Array.isArray(v) ? v[0] : v;
  return typeof one === "string" ? one : "";
};

/** The entries typed into the form, for the ticket's lines (a line without fields keeps `date`, unselected). */
export function entriesFromForm(form: FormValues, lines: Line[], date: string): Record<number, CheckInEntry> {
  const raw = form[field.select];
  const selected = new Set((Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).map((v) => String(v)));
  const out: Record<number, CheckInEntry> = {};
  for (const l of lines) {
    out[l.id] = {
      selected: selected.has(String(l.id)),
      date: text(form[field.date(l.id)]) || date,
      quantityIn: text(form[field.quantityIn(l.id)]).slice(0, 40),
      remove: text(form[field.remove(l.id)]) !== "",
      quantitySold: text(form[field.quantitySold(l.id)]).slice(0, 40),
    };
  }
  return out;
}

/** The action a posted form asks for: only the Submit Check-In button's value sends a check-in. */
export const actionOf = (form: FormValues): CheckInAction =>
  text(form[field.action]) === "submit" ? "submit" : "select";

/** The serial typed or scanned into the form's serial field. */
export const serialOf = (form: FormValues) => text(form[field.serial]).trim().slice(0, 200);

/** A fresh start: every line unselected, dated `date`, with what was kept from the last post laid over. */
export function startEntries(
  lines: Line[],
  date: string,
  kept: Record<number, CheckInEntry> = {},
): Record<number, CheckInEntry> {
  return Object.fromEntries(lines.map((l) => [l.id, kept[l.id] ?? emptyEntry(date)]));
}

/** Whether an entry holds anything typed (only those travel back in the redirect's cookie). */
export const touched = (e: CheckInEntry) =>
  e.selected || e.remove || !!e.quantityIn.trim() || !!e.quantitySold.trim();
