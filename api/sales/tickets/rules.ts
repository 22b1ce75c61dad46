// Ticket math, line status and status transitions. Pure (no database import): the browser's
// islands import this file to show the same totals and refusals the server enforces.
import { toCents } from "../../../lib/format.ts";

/** The fields of a line the money depends on; percents as numbers (7.5 means 7.5%). */
export interface LineMoney {
  quantity: number;
  price: number;
  duration: number;
  minimum_rate?: number | null;
  markup?: number | null;
  discount?: number | null;
  state_tax?: number | null;
  county_tax?: number | null;
  city_tax?: number | null;
}

export interface LineTotals {
  base: number;
  markup: number;
  discount: number;
  taxable: number;
  state_tax: number;
  county_tax: number;
  city_tax: number;
  /** state + county + city */
  tax: number;
  total: number;
}

export interface TicketTotals {
  subtotal: number;
  markup: number;
  discount: number;
  state_tax: number;
  county_tax: number;
  city_tax: number;
  grandtotal: number;
}

const pct = (p: number | null | undefined) => (p ?? 0) / 100;

/**
 * One line's money in cents, each amount rounded once, half-up on the exact decimal (lib/format.ts),
 * from the rounded amounts before it: base; markup (% of base); discount (% of base plus markup);
 * taxable; each tax (% of taxable); total = taxable + taxes. A printed line is then checkable from its
 * own printed figures and the ticket's totals are sums of them (decision 015, superseding 007's
 * "round once"). Min-rate logic charges the minimum rate once per unit plus the additional-day price
 * per day.
 */
export function lineTotals(
  line: LineMoney,
  ticket: { use_min_rate_logic: boolean; rounding?: Rounding },
): LineTotals {
  if (ticket.rounding === "exact") return exactLineTotals(line, ticket);
  const perDay = line.quantity * line.price * line.duration;
  const base = toCents(
    ticket.use_min_rate_logic ? line.quantity * (line.minimum_rate ?? 0) + perDay : perDay,
  );
  const markup = toCents((base / 100) * pct(line.markup));
  const discount = toCents(((base + markup) / 100) * pct(line.discount));
  const taxable = base + markup - discount;
  const state = toCents((taxable / 100) * pct(line.state_tax));
  const county = toCents((taxable / 100) * pct(line.county_tax));
  const city = toCents((taxable / 100) * pct(line.city_tax));
  const $ = (cents: number) => cents / 100;
  return {
    base: $(base),
    markup: $(markup),
    discount: $(discount),
    taxable: $(taxable),
    state_tax: $(state),
    county_tax: $(county),
    city_tax: $(city),
    tax: $(state + county + city),
    total: $(taxable + state + county + city),
  };
}

/**
 * How a ticket's money is rounded: "line" (decision 015, above) or "exact", decision 007's rule, kept for the
 * invoices issued under it (decision 040): a line's amounts exact, each of the ticket's sums rounded once.
 */
export type Rounding = "line" | "exact";

/** Decision 007's line: exact amounts (displayed rounded), as invoices issued before decision 015 were. */
function exactLineTotals(line: LineMoney, ticket: { use_min_rate_logic: boolean }): LineTotals {
  const perDay = line.quantity * line.price * line.duration;
  const base = ticket.use_min_rate_logic ? line.quantity * (line.minimum_rate ?? 0) + perDay : perDay;
  const markup = base * pct(line.markup);
  const discount = (base + markup) * pct(line.discount);
  const taxable = base + markup - discount;
  const state = taxable * pct(line.state_tax);
  const county = taxable * pct(line.county_tax);
  const city = taxable * pct(line.city_tax);
  return {
    base,
    markup,
    discount,
    taxable,
    state_tax: state,
    county_tax: county,
    city_tax: city,
    tax: state + county + city,
    total: taxable + state + county + city,
  };
}

/** Decision 007's rounding, as that release wrote it: half-up to cents after a cut to 15 significant digits. */
function roundOnce(x: number): number {
  if (!Number.isFinite(x)) return x;
  const cents = Math.round(Number.parseFloat((Math.abs(x) * 100).toPrecision(15)));
  const out = (Math.sign(x) * cents) / 100;
  return out === 0 ? 0 : out;
}

/**
 * A ticket's totals: the sums of its lines' rounded amounts (added in whole cents); under the "exact" rule the
 * lines' exact amounts summed, each sum rounded once.
 */
export function ticketTotals(lines: LineTotals[], rounding: Rounding = "line"): TicketTotals {
  if (rounding === "exact") {
    const exact = (k: keyof LineTotals) => roundOnce(lines.reduce((s, l) => s + l[k], 0));
    return {
      subtotal: exact("base"),
      markup: exact("markup"),
      discount: exact("discount"),
      state_tax: exact("state_tax"),
      county_tax: exact("county_tax"),
      city_tax: exact("city_tax"),
      grandtotal: exact("total"),
    };
  }
  const sum = (k: keyof LineTotals) => lines.reduce((s, l) => s + toCents(l[k]), 0) / 100;
  return {
    subtotal: sum("base"),
    markup: sum("markup"),
    discount: sum("discount"),
    state_tax: sum("state_tax"),
    county_tax: sum("county_tax"),
    city_tax: sum("city_tax"),
    grandtotal: sum("total"),
  };
}

/** Hours from start to end rounded to 2 decimals; null when either end is missing or unreadable. */
export function hoursBetween(start?: string | null, end?: string | null): number | null {
  if (!start || !end) return null;
  const ms = Date.parse(end) - Date.parse(start);
  if (Number.isNaN(ms)) return null;
  return Math.round(Number.parseFloat((ms / 36_000).toPrecision(15))) / 100;
}

export interface LogQuantities {
  quantity_in: number;
  quantity_sold: number;
  remove_quantity: boolean;
}

/**
 * Quantity still out with the customer: the line quantity less what came back, what was removed
 * (came off the line damaged or lost and left stock: no longer out, billed with the line) and what
 * was sold. Removed units are not "checked in" (the spec's rule: reclass cannot take them), but they
 * are accounted for, so a line with lost units can close (decision 008).
 */
export function notCheckedInOrSold(line: { quantity: number }, logs: LogQuantities[]): number {
  const accounted = logs.reduce((s, l) => s + l.quantity_in + l.quantity_sold, 0);
  return line.quantity - accounted;
}

/**
 * A line is handled when its item is expendable, it is sold, or nothing of it is still out. A charge
 * code (mileage, delivery, hours) is never out: it holds no stock and cannot be checked in, so it is
 * handled from the start (else a ticket with one could never go for approval).
 */
export function lineHandled(
  line: { quantity: number; isSold: boolean },
  item: ItemKind,
  logs: LogQuantities[],
): boolean {
  return item.isExpendable || item.inventory_type === CHARGE_CODE || line.isSold ||
    notCheckedInOrSold(line, logs) <= 0;
}

/** What decides whether a line's item must come back. */
export interface ItemKind {
  isExpendable: boolean;
  inventory_type?: string;
}
const CHARGE_CODE = "Charge Code";

/** Every line handled (a ticket without lines is complete). */
export function ticketComplete(
  lines: {
    line: { quantity: number; isSold: boolean };
    item: ItemKind;
    logs: LogQuantities[];
  }[],
): boolean {
  return lines.every((l) => lineHandled(l.line, l.item, l.logs));
}

export type StoredStatus = "OPEN" | "RFB" | "RFA" | "APP" | "QUOTE";
export type StatusChoice = StoredStatus | "CLONEQUOTE";

/** Only a ticket awaiting billing or approval (RFB, RFA) can be disputed. */
export const mayBeDisputed = (status: string) => status === "RFB" || status === "RFA";
/** Disputed: the latest rejection (`undefined` when none) is unresolved while the ticket is in RFB or RFA. */
export const isDisputed = (status: string, latestResolved: boolean | undefined) =>
  mayBeDisputed(status) && latestResolved === false;

/** A billed document: an approved invoice. It changes only by re-opening it (see billed.ts). */
export const isBilledDocument = (t: { status: string; isInvoice: boolean }) =>
  t.status === "APP" || t.isInvoice;
export const BILLED_MESSAGE = "An approved invoice can't change: re-open it to Open first.";

export const BLOCKED_UNTIL_HANDLED = "Request Approval is blocked until every line is checked in or sold.";
export const APPROVERS_ONLY = "Only a user with approval authority can approve or re-open an invoice.";
export const cannotChange = (from: string, to: string) => `Cannot change status from ${from} to ${to}.`;

/** Moves anyone working tickets may make; the rest are listed in transitionProblem. */
const FREE: Record<string, readonly string[]> = {
  OPEN: ["RFB"],
  RFB: ["RFA", "OPEN"],
  RFA: ["RFB", "APP"],
  APP: ["OPEN"],
  QUOTE: ["CLONEQUOTE"],
};

/**
 * Why a status change is refused, or null when it is allowed: `forbidden` (403) when the role is
 * missing, `conflict` (409) when the ticket's state does not allow it.
 */
export function transitionProblem(
  from: StoredStatus,
  to: StatusChoice,
  who: { approver: boolean; complete: boolean },
): { code: "forbidden" | "conflict"; message: string } | null {
  if (from === to) return null;
  if (!FREE[from]?.includes(to)) return { code: "conflict", message: cannotChange(from, to) };
  if ((to === "APP" || from === "APP") && !who.approver) {
    return { code: "forbidden", message: APPROVERS_ONLY };
  }
  if (from === "RFB" && to === "RFA" && !who.complete) {
    return { code: "conflict", message: BLOCKED_UNTIL_HANDLED };
  }
  return null;
}

/** The status list a user is offered when editing (the spec's role-limited choices). */
export function statusChoices(ticket: { isQuote: boolean }, approver: boolean): StatusChoice[] {
  if (ticket.isQuote) return ["QUOTE", "CLONEQUOTE"];
  return approver ? ["OPEN", "RFB", "RFA", "APP"] : ["OPEN", "RFB", "RFA"];
}

/** An invoice number with its revision mark (decision 040): "INV-00002 Rev. 1"; the first issue has none. */
export const invoiceNumber = (number: string, revision: number | null | undefined) =>
  revision ? `${number} Rev. ${revision}` : number;
