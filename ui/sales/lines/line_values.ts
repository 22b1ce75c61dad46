import { maxQuantity } from "../../../lib/enums.ts";
import {
  END_BEFORE_START,
  LineInput,
  maxMessage,
  REQUIRED,
  WHOLE_MESSAGE,
} from "../../../api/sales/lines/schemas.ts";
import { DEFAULT_TIME_ZONE, fromZonedInput, toZonedInput } from "../../../lib/format.ts";
import type { Line } from "./types.ts";
import { issuesOf } from "../../lib/form.ts";

/** What the line form holds, as typed. */
export interface Values {
  start_date: string;
  end_date: string;
  quantity: string;
  price: string;
  minimum_rate: string;
  duration: string;
  discount: string;
  markup: string;
  state_tax: string;
  county_tax: string;
  city_tax: string;
  notes: string;
  hide: boolean;
}

/** The picked row's facts the form needs: its type (quantity limits) and what is available. */
export interface RowFacts {
  type: string;
  available: number | null;
}

/** The ticket as the form needs it. */
export interface FormTicket {
  id: number;
  isQuote: boolean;
  minRate: boolean;
  /** The company's zone: the form's dates are its wall clock, sent as UTC. */
  timeZone: string;
}

export const str = (n: number | null | undefined) => (n === null || n === undefined ? "" : String(n));
/** A typed wall-clock date as the UTC minute the API takes (as typed when it is not one: the server says why). */
const utc = (s: string, timeZone: string) => (s ? fromZonedInput(s, timeZone) || s : null);
/** A typed number: null when blank, the number when it is one, else the text (the server says why). */
export const numberOf = (s: string): number | string | null => {
  const t = s.trim();
  if (t === "") return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : t;
};

/**
 * The form's first values: the line's, or a new line's (quantity 1, duration 1 or 0 in min-rate
 * mode, discount 0, starting now). A line without a start date (e.g. copied from a quote) starts now
 * too, so it can be saved; the hint under the form says what else is missing.
 */
export function initialValues(line: Line | null, minRate: boolean, timeZone = DEFAULT_TIME_ZONE): Values {
  return {
    start_date: toZonedInput(line?.start_date, timeZone) || toZonedInput(new Date().toISOString(), timeZone),
    end_date: toZonedInput(line?.end_date, timeZone),
    quantity: line ? str(line.quantity) : "1",
    price: str(line?.price),
    minimum_rate: str(line?.minimum_rate),
    duration: line ? str(line.duration) : minRate ? "0" : "1",
    discount: line ? str(line.discount) : "0",
    markup: str(line?.markup),
    state_tax: str(line?.state_tax),
    county_tax: str(line?.county_tax),
    city_tax: str(line?.city_tax),
    notes: line?.notes ?? "",
    hide: !!line?.custom?.hide,
  };
}

/** The request body of POST/PUT /api/sales/sales (without `id`). */
export function lineBody(t: FormTicket, line: Line | null, inventoryId: number | null, v: Values) {
  return {
    ticket_id: t.id,
    inventory_id: inventoryId,
    ...(t.isQuote
      ? {}
      : { start_date: utc(v.start_date, t.timeZone), end_date: utc(v.end_date, t.timeZone) }),
    quantity: numberOf(v.quantity),
    price: numberOf(v.price),
    ...(t.minRate ? { minimum_rate: numberOf(v.minimum_rate) } : {}),
    duration: numberOf(v.duration),
    discount: numberOf(v.discount),
    markup: numberOf(v.markup),
    state_tax: numberOf(v.state_tax),
    county_tax: numberOf(v.county_tax),
    city_tax: numberOf(v.city_tax),
    notes: v.notes,
    custom: { ...(line?.custom ?? {}), hide: v.hide },
  };
}
export type LineBody = ReturnType<typeof lineBody>;

/**
 * The server's checks, with its messages, by field: the schema's, then those that need the item type
 * (whole numbers unless Charge Code, the quantity limit), the dates, and what min-rate mode requires.
 */
export function lineIssues(
  t: FormTicket,
  body: LineBody,
  v: Values,
  facts: RowFacts | null,
): Record<string, string> {
  const check = LineInput.safeParse(body);
  const issues = issuesOf(check);
  if (body.inventory_id === null) issues.inventory_id ??= REQUIRED;
  if (body.quantity === null) issues.quantity ??= REQUIRED;
  else if (typeof body.quantity === "number" && facts) {
    if (facts.type !== "Charge Code" && !Number.isInteger(body.quantity)) issues.quantity ??= WHOLE_MESSAGE;
    else if (body.quantity > maxQuantity(facts.type)) issues.quantity ??= maxMessage(maxQuantity(facts.type));
  }
  if (!t.isQuote && !v.start_date) issues.start_date ??= REQUIRED;
  if (!t.isQuote && v.start_date && v.end_date && v.end_date < v.start_date) {
    issues.end_date ??= END_BEFORE_START;
  }
  if (body.price === null) issues.price ??= REQUIRED;
  if (t.minRate && body.minimum_rate === null) issues.minimum_rate ??= REQUIRED;
  return issues;
}

/** The form's label of each field (the hint under a form that cannot be saved names them). */
export function fieldLabel(key: string, minRate: boolean): string {
  const labels: Record<string, string> = {
    inventory_id: "Inventory",
    start_date: "Start Date",
    end_date: "End Date",
    quantity: "Quantity",
    price: minRate ? "Addl. Day Rate" : "Price",
    minimum_rate: "Min Rate",
    duration: minRate ? "Addl. Days" : "Duration",
    discount: "Discount (%)",
    markup: "Markup (%)",
    state_tax: "State Tax (%)",
    county_tax: "County Tax (%)",
    city_tax: "City Tax (%)",
    notes: "Notes",
    file: "Attachment",
  };
  return labels[key] ?? key;
}

/** Why Save is disabled, as one sentence naming the fields: "Save needs: Start Date, Price." */
export function blockedReason(issues: Record<string, string>, minRate: boolean): string | undefined {
  const keys = Object.keys(issues);
  if (!keys.length) return undefined;
  return `Save needs: ${keys.map((k) => fieldLabel(k, minRate)).join(", ")}.`;
}
