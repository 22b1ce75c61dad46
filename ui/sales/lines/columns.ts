/**
 * The line-item columns of the ticket detail screen. Company settings choose them per page:
 * `settings.Sales.TicketPage`, `Sales.QuotePage` and `Sales.InvoicePage`, each either a list of
 * column keys (used with and without minimum-rate logic) or `{columns, minRateColumns}`. Unknown
 * keys are dropped, the id column is never shown and Order is added in front when missing; a page
 * the settings leave out (or leave empty) takes the defaults below.
 */

export const LINE_COLUMN_KEYS = [
  "order",
  "serial_number",
  "item_number",
  "item_description",
  "inventory_description",
  "start_date",
  "end_date",
  "hours",
  "quantity",
  "minimum_rate",
  "duration",
  "price",
  "discount",
  "markup",
  "tax",
  "total",
  "status",
  "notes",
  "doc",
  "hide",
] as const;
export type LineColumnKey = typeof LINE_COLUMN_KEYS[number];

export type LinePage = "ticket" | "quote" | "invoice";
export type PageColumns = Record<LinePage, { normal: string[]; minRate: string[] }>;

const BILLED = ["order", "serial_number", "item_number", "item_description", "start_date", "end_date"];
export const DEFAULT_COLUMNS: PageColumns = {
  ticket: {
    normal: [...BILLED, "duration", "quantity", "price", "discount", "tax", "total", "status"],
    minRate: [
      ...BILLED,
      "quantity",
      "minimum_rate",
      "duration",
      "price",
      "discount",
      "tax",
      "total",
      "status",
    ],
  },
  quote: {
    normal: [
      "order",
      "item_number",
      "item_description",
      "duration",
      "quantity",
      "price",
      "discount",
      "tax",
      "total",
    ],
    minRate: [
      "order",
      "item_number",
      "item_description",
      "quantity",
      "minimum_rate",
      "duration",
      "price",
      "discount",
      "tax",
      "total",
    ],
  },
  invoice: {
    normal: [...BILLED, "duration", "quantity", "price", "discount", "tax", "total"],
    minRate: [...BILLED, "quantity", "minimum_rate", "duration", "price", "discount", "tax", "total"],
  },
};

const SETTING: Record<LinePage, string> = {
  ticket: "TicketPage",
  quote: "QuotePage",
  invoice: "InvoicePage",
};
const KNOWN = new Set<string>(LINE_COLUMN_KEYS);

/** A settings list made usable: known keys once each, no id, Order first when missing. */
export function cleanColumns(keys: unknown): string[] | null {
  if (!Array.isArray(keys)) return null;
  const out: string[] = [];
  for (const k of keys) {
    if (typeof k === "string" && KNOWN.has(k) && !out.includes(k)) out.push(k);
  }
  if (out.length === 0) return null;
  return out.includes("order") ? out : ["order", ...out];
}

/** Each page's two column sets from company settings (defaults where the settings say nothing usable). */
export function pageColumns(settings: Record<string, unknown> | null | undefined): PageColumns {
  const sales = (settings?.Sales ?? {}) as Record<string, unknown>;
  const out = {} as PageColumns;
  for (const page of ["ticket", "quote", "invoice"] as const) {
    const raw = sales[SETTING[page]];
    const set = Array.isArray(raw)
      ? { columns: raw, minRateColumns: raw }
      : (raw ?? {}) as Record<string, unknown>;
    out[page] = {
      normal: cleanColumns(set.columns) ?? DEFAULT_COLUMNS[page].normal,
      minRate: cleanColumns(set.minRateColumns) ?? cleanColumns(set.columns) ?? DEFAULT_COLUMNS[page].minRate,
    };
  }
  return out;
}

/** Which page's columns a ticket uses: invoices, quotes, else tickets. */
export function pageOf(t: { status: string; isInvoice: boolean; isQuote: boolean }): LinePage {
  if (t.isInvoice || t.status === "APP") return "invoice";
  if (t.isQuote || t.status === "QUOTE") return "quote";
  return "ticket";
}
