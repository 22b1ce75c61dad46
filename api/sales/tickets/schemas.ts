import { z } from "zod";
import { ListQuery, optionalText, queryBool, queryEnum } from "../../lib/list_schema.ts";
import type { TicketTotals } from "./rules.ts";
import { customObject, id } from "../../lib/validate.ts";

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** "" and null mean none; numeric strings (form values) become numbers. */
const blankToNull = (v: unknown) =>
  v === "" || v === null ? null : typeof v === "string" && /^\d+$/.test(v.trim()) ? Number(v) : v;

const requiredId = (message: string) => z.preprocess((v) => blankToNull(v) ?? undefined, id(message));
const optionalId = z.preprocess(blankToNull, id().nullable().optional());
const date = z.preprocess(
  (v) => (typeof v === "string" && v.length > 10 ? v.slice(0, 10) : v === "" ? null : v),
  z.string().regex(DATE, "Expected a date (YYYY-MM-DD)").nullable().optional(),
);
const text = z.string().trim().max(2000).optional();
const flag = z.boolean().optional();

const common = {
  tax_id: optionalId,
  business_unit_id: optionalId,
  product_line_id: optionalId,
  sub_product_line_id: optionalId,
  location: text,
  notes: text,
  ticket_date: date,
  use_min_rate_logic: flag,
  final_bill: flag,
  custom: customObject().optional(),
};

export const CUSTOMER_REQUIRED = "Customer is required";
export const SALES_REP_REQUIRED = "Sales Rep is required";

/** POST /api/sales/tickets. */
export const TicketInput = z.object({
  ...common,
  customer_id: requiredId(CUSTOMER_REQUIRED),
  sales_rep_id: requiredId(SALES_REP_REQUIRED),
  status: z.enum(["OPEN", "QUOTE"], { error: "A new ticket is Open (or Quote for a quote)." }).optional(),
  isQuote: flag,
  template_id: optionalId,
});
export type TicketInput = z.infer<typeof TicketInput>;

/** PUT /api/sales/tickets: the fields present are saved; a changed status is a transition. */
export const TicketUpdateInput = z.object({
  ...common,
  id: z.preprocess(blankToNull, id("Required")),
  customer_id: requiredId(CUSTOMER_REQUIRED).optional(),
  sales_rep_id: requiredId(SALES_REP_REQUIRED).optional(),
  status: z.enum(["OPEN", "RFB", "RFA", "APP", "QUOTE", "CLONEQUOTE"]).optional(),
  invoice_date: date,
  isSigned: flag,
  isBilled: flag,
  isPaid: flag,
});
export type TicketUpdateInput = z.infer<typeof TicketUpdateInput>;

export const TICKET_SORTS = [
  "ticket_number",
  "invoice_number",
  "ticket_date",
  "invoice_date",
  "status",
  "customer",
  "sales_rep",
  "created_at",
] as const;

/**
 * The ticket-flow filter: one stage (the spec's OPEN, RFB, RFA, QUOTE; APP is the invoices list), or
 * ALL stages (the same as leaving it out).
 */
export const TICKET_FLOWS = ["OPEN", "RFB", "RFA", "QUOTE", "APP", "ALL"] as const;

export const TicketListQuery = ListQuery.extend({
  rowsPerPage: z.coerce.number().int().refine(
    (n) => [10, 25, 50, -1].includes(n),
    "Page size is 10, 25, 50 or All",
  )
    .default(10),
  sortBy: queryEnum(TICKET_SORTS),
  search_customer: optionalText,
  search_ticket_number: optionalText,
  search_invoice_number: optionalText,
  search_sales_rep: optionalText,
  showInvoiced: queryBool.optional(),
  hidePaid: queryBool.optional(),
  hideSigned: queryBool.optional(),
  ticketFlowFilter: queryEnum(TICKET_FLOWS),
  isQuote: queryBool.optional(),
});
export type TicketListQuery = z.infer<typeof TicketListQuery>;

export interface Named {
  id: number;
  name: string;
}

export type { TicketTotals };
