import type { AuditOut } from "../../../api/sales/audit/schemas.ts";

export type AuditRow = AuditOut;

/** The audit page's text filters, by their URL (and API) names. */
export type AuditTextKey =
  | "serial_number"
  | "item_number"
  | "ticket_number"
  | "invoice_number"
  | "customer_name"
  | "sales_rep_name";
export type AuditDateKey = "start_date_begin" | "start_date_end";
export type AuditFilterKey = AuditTextKey | AuditDateKey;

export const AUDIT_FILTERS: readonly AuditFilterKey[] = [
  "serial_number",
  "item_number",
  "ticket_number",
  "invoice_number",
  "customer_name",
  "sales_rep_name",
  "start_date_begin",
  "start_date_end",
];

/** The table's URL state: the API's list query, as the island sends it back. */
export type AuditQuery =
  & {
    page: number;
    rowsPerPage: number;
    sortBy: string;
    descending: boolean;
  }
  & Partial<Record<AuditFilterKey, string>>;

export interface AuditProps {
  data: { results: AuditRow[]; total: number };
  query: AuditQuery;
}

/** A quantity and how it changed: '12 (+5)', '0 (-3)', or just '12'. */
export function quantityText(quantity: number, change: number): string {
  if (!change) return String(quantity);
  return `${quantity} (${change > 0 ? "+" : ""}${change})`;
}

/** The page sizes the list offers (the table's choice, and what the page accepts from its URL). */
export const AUDIT_PAGE_SIZES = [10, 50, 100, 200] as const;
