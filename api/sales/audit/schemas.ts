import { z } from "zod";
import { ListQuery, optionalText, queryEnum } from "../../lib/list_schema.ts";
import { isIsoDate } from "../../../lib/format.ts";
import { id } from "../../lib/validate.ts";

export const AUDIT_SORTS = [
  "action_time",
  "action",
  "updated_by",
  "serial_number",
  "item_number",
  "status",
  "quantity",
  "business_unit",
] as const;
export const DATE_MESSAGE = "Must be a date (YYYY-MM-DD)";

const WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T[^ ]*(Z|[+-]\d{2}:?\d{2})$/;
/**
 * A date filter: YYYY-MM-DD, or an ISO instant: with its offset it is kept (its day is the one on the
 * company's clock, `dayOf`), without one its date is taken; blank is no filter.
 */
const dayParam = z.preprocess(
  (v) => {
    if (typeof v !== "string") return v;
    const t = v.trim();
    if (t === "") return undefined;
    return /^\d{4}-\d{2}-\d{2}T/.test(t) && !WITH_OFFSET.test(t) ? t.slice(0, 10) : t;
  },
  z.string().refine(
    (t) => isIsoDate(t.slice(0, 10)) && (t.length === 10 || !Number.isNaN(Date.parse(t))),
    DATE_MESSAGE,
  ).optional(),
);

/** GET /api/sales/audit/inventory-rows (and its download): the audit page's URL. */
export const AuditListQuery = ListQuery.extend({
  rowsPerPage: ListQuery.shape.rowsPerPage.unwrap().default(10),
  sortBy: queryEnum(AUDIT_SORTS),
  serial_number: optionalText,
  item_number: optionalText,
  ticket_number: optionalText,
  invoice_number: optionalText,
  customer_name: optionalText,
  sales_rep_name: optionalText,
  /** on the audit row's start date when it has one (ticket lines), else the day of its action time */
  start_date_begin: dayParam,
  start_date_end: dayParam,
  /** one inventory row's history */
  inventory_id: z.preprocess(
    (v) => (v === "" ? undefined : v),
    id("Unknown inventory", { coerce: true }).optional(),
  ),
});
export type AuditListQuery = z.infer<typeof AuditListQuery>;

/** An audit row as the API answers it. */
export interface AuditOut {
  id: number;
  action_time: string;
  action: string;
  updated_by: { id: number | null; name: string };
  inventory_id: number | null;
  serial_number: string;
  item: { item_number: string; item_description: string };
  status: string;
  quantity: number;
  quantity_change: number;
  category: string;
  business_unit: string;
  locations: string;
  calculated_inventory_status: string;
  ticket_number: string;
  invoice_number: string;
  customer_name: string;
  sales_rep_name: string;
  start_date: string | null;
}
