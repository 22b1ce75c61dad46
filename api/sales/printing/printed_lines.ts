// What a ticket document prints, and why its figures add up (decision 015): every line's amounts come
// from rules.ts (each rounded to cents), lines hidden from printing are folded into one "Other charges"
// row, and the totals are the sums of the very rows printed.
import {
  type LineMoney,
  type LineTotals,
  lineTotals,
  type Rounding,
  type TicketTotals,
  ticketTotals,
} from "../tickets/rules.ts";
import { roundMoney } from "../../../lib/format.ts";

/** A line as the document needs it: its money fields, what it is, and whether it is hidden. */
export interface DocumentLine extends LineMoney {
  start_date: string | null;
  end_date: string | null;
  hidden: boolean;
  item_number: string;
  description: string;
  inventory_type: string;
  serial_number: string;
  notes?: string;
}

/** One printed row: an itemized line. `amount` is before tax (base plus markup less discount). */
export interface PrintLine {
  item_number: string;
  description: string;
  /** Only for a serialized unit: a charge code or a bulk row has no serial worth printing. */
  serial: string | null;
  /** The line's notes: printed under its item. */
  notes: string;
  start_date: string | null;
  end_date: string | null;
  days: number;
  quantity: number;
  minimum_rate: number | null;
  price: number;
  discount: number | null;
  markup: number | null;
  amount: number;
  tax: number;
  total: number;
}

/** The lines hidden from printing, summed: billed, never dropped. */
export interface OtherCharges {
  count: number;
  amount: number;
  tax: number;
  total: number;
}

export interface PrintedTotals extends TicketTotals {
  /** subtotal + markup - discount: the sum of the printed amounts. */
  net: number;
  /** state + county + city: the sum of the printed taxes. */
  tax: number;
}

export interface PrintedLines {
  lines: PrintLine[];
  other: OtherCharges | null;
  totals: PrintedTotals;
}

const cents = (n: number) => Math.round(n * 100);
const sumCents = (xs: number[]) => xs.reduce((s, x) => s + cents(x), 0) / 100;

export function printedLines(
  all: DocumentLine[],
  ticket: { use_min_rate_logic: boolean; rounding?: Rounding },
): PrintedLines {
  const money: LineTotals[] = all.map((l) => lineTotals(l, ticket));
  // Under decision 007's rule (invoices issued before decision 015) each sum is of exact amounts, rounded once.
  const sumOf = ticket.rounding === "exact"
    ? (xs: number[]) => roundMoney(xs.reduce((s, x) => s + x, 0))
    : sumCents;
  const lines: PrintLine[] = [];
  const hidden: LineTotals[] = [];
  all.forEach((l, i) => {
    const m = money[i];
    if (l.hidden) return void hidden.push(m);
    lines.push({
      item_number: l.item_number,
      description: l.description,
      serial: l.inventory_type === "Serialized" && l.serial_number ? l.serial_number : null,
      notes: (l.notes ?? "").trim(),
      start_date: l.start_date,
      end_date: l.end_date,
      days: l.duration,
      quantity: l.quantity,
      minimum_rate: ticket.use_min_rate_logic ? l.minimum_rate ?? 0 : null,
      price: l.price,
      discount: l.discount ?? null,
      markup: l.markup ?? null,
      amount: m.taxable,
      tax: m.tax,
      total: m.total,
    });
  });
  const other = hidden.length
    ? {
      count: hidden.length,
      amount: sumOf(hidden.map((m) => m.taxable)),
      tax: sumOf(hidden.map((m) => m.tax)),
      total: sumOf(hidden.map((m) => m.total)),
    }
    : null;
  const t = ticketTotals(money, ticket.rounding);
  return {
    lines,
    other,
    totals: {
      ...t,
      net: sumOf(money.map((m) => m.taxable)),
      tax: sumOf(money.map((m) => m.tax)),
    },
  };
}
