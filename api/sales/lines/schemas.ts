import { z } from "zod";
import { ListQuery, optionalText, queryBool } from "../../lib/list_schema.ts";
import { isIsoDate } from "../../../lib/format.ts";
import {
  atLeast,
  atMost,
  customObject,
  duration,
  id as boundedId,
  MAX_MARKUP,
  NUMBER_MESSAGE,
  percent as boundedPercent,
  quantity,
  unitPrice,
  WHOLE_MESSAGE,
  wholeNumber,
} from "../../lib/validate.ts";

export const REQUIRED = "Required";
export { NUMBER_MESSAGE, WHOLE_MESSAGE };
export const MIN_MESSAGE = atLeast(0);
export const DATETIME_MESSAGE = "Must be a date and time (YYYY-MM-DDTHH:mm)";
export const END_BEFORE_START = "End Date cannot be before Start Date";
export const UNKNOWN_INVENTORY = "Unknown inventory";
export const INVENTORY_ID_MESSAGE = "Must be an inventory id";
export const INVOICED_MESSAGE = "Invoiced lines cannot change.";
export const EXCEEDS_MESSAGE = "ERROR: Line item quantity exceeds available inventory:";
/** Edit on line rows is sales-admin's (spec, roles): changing a saved line, or its attachment. */
export const EDIT_LINE_MESSAGE = "Only a sales admin can edit a line item.";
export const maxMessage = atMost;

const NUMERIC = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
/** Form values: strings trimmed, blank strings null, numeric strings numbers. */
const numberish = (v: unknown) => {
  if (typeof v !== "string") return v;
  const t = v.trim();
  if (t === "") return null;
  return NUMERIC.test(t) ? Number(t) : t;
};
/**
 * A unit price that may be sent as null or "" (then null: a required one answers 'Required' in the
 * service), with at most 4 decimals (422 '<label> may have at most 4 decimal places', decisions 015
 * and 042).
 * A line's price may be negative (a credit line), within the money bounds.
 */
const rate = (label: string) => z.preprocess(numberish, unitPrice({ label }).nullable()).optional();
const percent = (max = 100) => z.preprocess(numberish, boundedPercent({ max }).nullable()).optional();
const id = (message: string) => z.preprocess(numberish, boundedId(message).nullable()).optional();
/** Line order: far above any ticket's line count. */
const MAX_ORDER = 1_000_000;

/**
 * "YYYY-MM-DDTHH:mm" in UTC as the line form sends it (seconds, milliseconds and a trailing Z are
 * accepted too); stored as YYYY-MM-DDTHH:mm:ssZ. Blank is null.
 */
export function toInstant(v: string): string | undefined {
  const m = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?Z?$/.exec(v.trim());
  if (!m || !isIsoDate(m[1]) || +m[2] > 23 || +m[3] > 59 || +(m[4] ?? 0) > 59) return undefined;
  return `${m[1]}T${m[2]}:${m[3]}:${m[4] ?? "00"}Z`;
}
const instant = z.preprocess(
  (v) => (typeof v === "string" && v.trim() === "" ? null : v),
  z.string({ error: DATETIME_MESSAGE }).transform((v, ctx) => {
    const out = toInstant(v);
    if (!out) {
      ctx.addIssue({ code: "custom", message: DATETIME_MESSAGE });
      return z.NEVER;
    }
    return out;
  }).nullable(),
).optional();

/**
 * POST and PUT /api/sales/sales: the line form. A field left out takes its default (create) or keeps
 * its value (update); a required field sent as null or "" answers 'Required'. Quantity limits that
 * depend on the item type (whole numbers, max 1 for Serialized) are checked once the inventory is known.
 */
export const LineInput = z.object({
  id: id("Must be a line id"),
  ticket_id: id(REQUIRED),
  inventory_id: id(REQUIRED),
  start_date: instant,
  end_date: instant,
  duration: z.preprocess(numberish, duration().nullable()).optional(),
  // Charge codes bill fractions (12.5 miles); whole numbers for stock are checked once the item is known.
  quantity: z.preprocess(numberish, quantity({ whole: false }).nullable()).optional(),
  price: rate("Price"),
  minimum_rate: rate("Min Rate"),
  discount: percent(),
  markup: percent(MAX_MARKUP),
  state_tax: percent(),
  county_tax: percent(),
  city_tax: percent(),
  notes: z.string().max(4000, "At most 4000 characters").nullable().optional(),
  doc: z.string().max(255, "At most 255 characters").nullable().optional(),
  order: z.preprocess(numberish, wholeNumber(MAX_ORDER)).optional(),
  custom: customObject().nullable().optional(),
});
export type LineInput = z.infer<typeof LineInput>;

/** GET /api/sales/sales/ticket */
export const TicketLinesQuery = z.object({
  ticket_id: boundedId(REQUIRED, { coerce: true }),
  paginate: z.string().max(20).optional(),
});

/** POST /api/sales/sales/reorder */
export const ReorderInput = z.object({
  ticket_id: z.preprocess(numberish, boundedId(REQUIRED)),
  items: z.array(z.object({
    id: z.preprocess(numberish, boundedId(REQUIRED)),
    order: z.preprocess(numberish, wholeNumber(MAX_ORDER)),
  })).max(2000, "At most 2000 lines"),
});
export type ReorderInput = z.infer<typeof ReorderInput>;

export const SALES_PAGE_SIZES = [10, 50, 100, 200, -1] as const;
export const SALES_SORTS = [
  "start_date",
  "end_date",
  "ticket_number",
  "invoice_number",
  "invoice_date",
  "customer",
  "serial_number",
  "item_number",
  "item_description",
  "business_unit",
  "product_line",
  "sub_product_line",
  "sales_rep",
  "quantity",
  "minimum_rate",
  "price",
  "discount",
  "duration",
] as const;

const day = z.preprocess(
  (v) => (v === "" ? undefined : v),
  z.string().refine(isIsoDate, "Must be a date (YYYY-MM-DD)").optional(),
);

/**
 * GET /api/sales/sales: the Sales Data filters. `isInvoice=true` keeps invoiced tickets only and
 * `hideQuotes=true` leaves quotes out (the page sends both by default; absent means no filter).
 * rowsPerPage -1 (all) is for downloads, 1 for the last-ticket lookup (`id` = an inventory row).
 */
export const SalesListQuery = ListQuery.extend({
  // 1 is not a page size the table offers: it is the ticket screen's last-ticket lookup.
  rowsPerPage: z.coerce.number().int().refine(
    (n) => n === 1 || (SALES_PAGE_SIZES as readonly number[]).includes(n),
    "Must be one of 10, 50, 100, 200",
  ).default(10),
  sortBy: z.preprocess((v) => (v === "" ? undefined : v), z.enum(SALES_SORTS).optional()),
  search_customer_name: optionalText,
  search_sales_rep_name: optionalText,
  search_item_description: optionalText,
  search_inventory_description: optionalText,
  serial_number: optionalText,
  item_number: optionalText,
  ticket_number: optionalText,
  invoice_number: optionalText,
  start_date_begin: day,
  start_date_end: day,
  invoice_date_begin: day,
  invoice_date_end: day,
  isInvoice: queryBool.optional(),
  hideQuotes: queryBool.optional(),
  /** An inventory row's id: that row's lines only (the ticket screen's last-ticket lookup). */
  id: z.preprocess(
    (v) => (v === "" ? undefined : v),
    boundedId(INVENTORY_ID_MESSAGE, { coerce: true }).optional(),
  ),
});
export type SalesListQuery = z.infer<typeof SalesListQuery>;

/** The five figures of the availability refusal, as the dialog lists them. */
export interface AvailabilityFigures {
  inventory_quantity: number;
  quantity_out_tickets: number;
  quantity_out_location: number;
  available: number;
  line_quantity: number;
}

/** The figures' names, in the dialog's order (the line form's dialog and the named sentence). */
export const AVAILABILITY_LABELS: [keyof AvailabilityFigures, string][] = [
  ["inventory_quantity", "Inventory Quantity"],
  ["quantity_out_tickets", "Quantity Out (Tickets)"],
  ["quantity_out_location", "Quantity Out (Location)"],
  ["available", "Available Quantity"],
  ["line_quantity", "Line Quantity"],
];

/**
 * The refusal as one sentence for where no dialog lists the figures (a ticket made from a template,
 * a cloned quote): the spec's message, the line, and the five figures.
 */
export function shortageSentence(line: string, f: AvailabilityFigures): string {
  return `${EXCEEDS_MESSAGE} ${line}: ${
    AVAILABILITY_LABELS.map(([k, label]) => `${label} ${f[k]}`).join(", ")
  }.`;
}
