import type { SalesDataRow } from "../../../api/sales/lines/list.ts";

export type SalesRow = SalesDataRow;

/** The Sales Data text filters, by their URL (and API) names. */
export type SalesTextKey =
  | "serial_number"
  | "search_inventory_description"
  | "item_number"
  | "search_item_description"
  | "ticket_number"
  | "invoice_number"
  | "search_customer_name"
  | "search_sales_rep_name";
export type SalesDateKey = "invoice_date_begin" | "invoice_date_end" | "start_date_begin" | "start_date_end";
export type SalesFilterKey = SalesTextKey | SalesDateKey;

/** The spec's filters, in order, with their labels. */
export const SALES_FILTERS: readonly { key: SalesFilterKey; label: string; date?: true }[] = [
  { key: "serial_number", label: "Serial Number" },
  { key: "search_inventory_description", label: "Inv. Desc." },
  { key: "item_number", label: "Item Number" },
  { key: "search_item_description", label: "Item" },
  { key: "ticket_number", label: "Ticket Number" },
  { key: "invoice_number", label: "Invoice Number" },
  { key: "invoice_date_begin", label: "Invoiced From", date: true },
  { key: "invoice_date_end", label: "Invoiced To", date: true },
  { key: "start_date_begin", label: "From", date: true },
  { key: "start_date_end", label: "To", date: true },
  { key: "search_customer_name", label: "Customer" },
  { key: "search_sales_rep_name", label: "Sales Rep" },
];

/**
 * The URL parameters a link (inventory or items 'View Sales') may carry: they prefill their filter,
 * then the island takes them out of the address bar. The filter stays applied.
 */
export const PREFILL_KEYS = ["serial_number", "item_number", "ticket_number", "invoice_number"] as const;

/**
 * The table's state, sent to the API as is. `isInvoice` is the 'Invoiced Only' box (on by default;
 * `false` in the URL means off) and quotes are always left out (`hideQuotes`), the spec's defaults.
 */
export type SalesQuery =
  & {
    page: number;
    rowsPerPage: number;
    sortBy?: string;
    descending?: boolean;
    isInvoice: boolean;
    hideQuotes: true;
  }
  & Partial<Record<SalesFilterKey, string>>;

export interface SalesProps {
  data: { results: SalesRow[]; total: number };
  query: SalesQuery;
  /** sales-admin: rows expand to Delete */
  can: { delete: boolean };
}
