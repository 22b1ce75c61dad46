import { sql } from "drizzle-orm";
import { number_counters } from "../../../db/schema/mod.ts";
import type { Tx } from "../../../db/client.ts";

export type NumberSeries = "ticket" | "quote" | "invoice";

const DEFAULT_PREFIX: Record<NumberSeries, string> = { ticket: "T-", quote: "Q-", invoice: "INV-" };
const SETTING: Record<NumberSeries, [string, string]> = {
  ticket: ["TicketPrefix", "ticketPrefix"],
  quote: ["QuotePrefix", "quotePrefix"],
  invoice: ["InvoicePrefix", "invoicePrefix"],
};
export const DEFAULT_ZERO_PAD = 5;

type Settings = Record<string, unknown> | null | undefined;

/** The series' prefix: settings `Sales.<X>Prefix`, else top-level `<x>Prefix`, else the default. */
export function numberPrefix(series: NumberSeries, settings: Settings): string {
  const sales = (settings?.Sales ?? {}) as Record<string, unknown>;
  const [nested, flat] = SETTING[series];
  const v = sales[nested] ?? settings?.[flat];
  return typeof v === "string" ? v : DEFAULT_PREFIX[series];
}

/** Digits numbers are padded to: settings `Sales.zeroPad` (or `zeroPad`), default 5. */
export function zeroPad(settings: Settings): number {
  const sales = (settings?.Sales ?? {}) as Record<string, unknown>;
  const n = Number(sales.zeroPad ?? settings?.zeroPad);
  return Number.isInteger(n) && n >= 0 && n <= 20 ? n : DEFAULT_ZERO_PAD;
}

export const formatNumber = (series: NumberSeries, n: number, settings: Settings) =>
  numberPrefix(series, settings) + String(n).padStart(zeroPad(settings), "0");

/**
 * Takes the series' next number inside the caller's write transaction: the counter only ever goes
 * up, so a number is never handed out twice, even when the ticket that took it is later deleted.
 */
export async function nextNumber(tx: Tx, series: NumberSeries, settings: Settings): Promise<string> {
  const [row] = await tx.insert(number_counters).values({ name: series, value: 1 })
    .onConflictDoUpdate({ target: number_counters.name, set: { value: sql`${number_counters.value} + 1` } })
    .returning({ value: number_counters.value });
  return formatNumber(series, row.value, settings);
}
