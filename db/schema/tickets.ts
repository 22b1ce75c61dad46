import { sql } from "drizzle-orm";
import { index, integer, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { companies } from "./companies.ts";
import { users } from "./users.ts";
import { files } from "./files.ts";
import { categories, sub_categories, taxes } from "./sales_reference.ts";
import { inventory, templates } from "./inventory.ts";
import { TICKET_STATUSES } from "../../lib/enums.ts";

const now = sql`(strftime('%Y-%m-%dT%H:%M:%SZ','now'))`;

/** Quotes, tickets and invoices: one row moving through the statuses. */
export const tickets = sqliteTable("tickets", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  company_id: integer("company_id").notNull().references(() => companies.id),
  created_by_id: integer("created_by_id").references(() => users.id, { onDelete: "set null" }),
  /** the ticket's (or, for a quote, the quote's) formatted number, never reused */
  ticket_number: text("ticket_number").notNull(),
  invoice_number: text("invoice_number"),
  invoice_date: text("invoice_date"),
  ticket_date: text("ticket_date").notNull(),
  customer_id: integer("customer_id").notNull().references(() => companies.id),
  sales_rep_id: integer("sales_rep_id").references(() => users.id, { onDelete: "set null" }),
  tax_id: integer("tax_id").references(() => taxes.id, { onDelete: "set null" }),
  business_unit_id: integer("business_unit_id").references(() => categories.id, { onDelete: "set null" }),
  product_line_id: integer("product_line_id").references(() => categories.id, { onDelete: "set null" }),
  sub_product_line_id: integer("sub_product_line_id").references(() => sub_categories.id, {
    onDelete: "set null",
  }),
  location: text("location").notNull().default(""),
  notes: text("notes").notNull().default(""),
  status: text("status", { enum: TICKET_STATUSES }).notNull().default("OPEN"),
  isInvoice: integer("is_invoice", { mode: "boolean" }).notNull().default(false),
  isQuote: integer("is_quote", { mode: "boolean" }).notNull().default(false),
  isSigned: integer("is_signed", { mode: "boolean" }).notNull().default(false),
  isBilled: integer("is_billed", { mode: "boolean" }).notNull().default(false),
  isPaid: integer("is_paid", { mode: "boolean" }).notNull().default(false),
  use_min_rate_logic: integer("use_min_rate_logic", { mode: "boolean" }).notNull().default(true),
  final_bill: integer("final_bill", { mode: "boolean" }).notNull().default(false),
  custom: text("custom", { mode: "json" }).$type<Record<string, unknown>>().notNull().default(sql`'{}'`),
  template_id: integer("template_id").references(() => templates.id, { onDelete: "set null" }),
  clone: integer("clone", { mode: "boolean" }).notNull().default(false),
  isTransfer: integer("is_transfer", { mode: "boolean" }).notNull().default(false),
  isBillBack: integer("is_bill_back", { mode: "boolean" }).notNull().default(false),
  /** the ticket a clone, transfer or bill back came from */
  source_ticket_id: integer("source_ticket_id"),
  /**
   * How the ticket's money is rounded: "line", each amount of a line to cents (decision 015); "exact", the
   * sums rounded once (decision 007), kept for invoices issued under it (migration 0032, decision 040).
   */
  rounding: text("rounding", { enum: ["line", "exact"] }).notNull().default("line"),
  created_at: text("created_at").notNull().default(now),
  updated_at: text("updated_at").notNull().default(now),
  /** Bumped when an edited column changes (migration 0033, decision 038): the record's ETag. */
  version: integer("version").notNull().default(1),
}, (t) => [
  uniqueIndex("tickets_number_unique").on(t.ticket_number),
  uniqueIndex("tickets_invoice_number_unique").on(t.invoice_number),
  index("tickets_customer_idx").on(t.customer_id),
  index("tickets_sales_rep_idx").on(t.sales_rep_id),
  // Sales Data's sorts on the ticket's unit and product lines walk each one's tickets (then id) through these.
  index("tickets_business_unit_idx").on(t.business_unit_id),
  index("tickets_product_line_idx").on(t.product_line_id),
  index("tickets_sub_product_line_idx").on(t.sub_product_line_id),
  // Sales Data's invoices filter on its sorts by ticket number, invoice number or date: the walk reads the
  // invoices alone, in that order, never passing over the other tickets (a third to a half, and first).
  index("tickets_invoice_ticket_number_idx").on(t.isInvoice, t.ticket_number),
  index("tickets_invoice_invoice_number_idx").on(t.isInvoice, t.invoice_number),
  index("tickets_invoice_invoice_date_idx").on(t.isInvoice, t.invoice_date),
  // The stage lists: a page's ids come from one of these in the list's order (company, stage, sort
  // column, then the rowid), so OFFSET skips index entries and no sort runs over the stage's rows.
  index("tickets_company_status_idx").on(t.company_id, t.status),
  index("tickets_company_status_number_idx").on(t.company_id, t.status, t.ticket_number),
  index("tickets_company_status_invoice_idx").on(t.company_id, t.status, t.invoice_number),
  index("tickets_company_status_date_idx").on(t.company_id, t.status, t.ticket_date),
  index("tickets_company_status_invoice_date_idx").on(t.company_id, t.status, t.invoice_date),
  index("tickets_company_status_created_idx").on(t.company_id, t.status, t.created_at),
  // Sorting by customer or sales rep walks companies or users by name, then these.
  index("tickets_company_status_customer_idx").on(t.company_id, t.status, t.customer_id),
  index("tickets_company_status_rep_idx").on(t.company_id, t.status, t.sales_rep_id),
  // Several stages (Ticket Flow All, Show Invoiced) by sales rep or customer: each one's tickets (and those
  // without a rep) in id order, with the stage in the index: without it the working lists (every stage but
  // invoices) by sales rep read the whole table for each rep (57 ms on 50,000 tickets).
  index("tickets_company_rep_id_status_idx").on(t.company_id, t.sales_rep_id, t.id, t.status),
  index("tickets_company_customer_id_status_idx").on(t.company_id, t.customer_id, t.id, t.status),
  // Several stages at once (Ticket Flow All, Show Invoiced), newest first: the company's rows in id order.
  index("tickets_company_id_status_idx").on(t.company_id, t.id, t.status),
  // The same lists sorted on a column of the ticket: the company's rows in that column's order, then id,
  // with the stage to filter on read from the index too (page 1 of 50,000 tickets by number: a sort of
  // every row, 7-9 ms, becomes a walk of the page's entries, 0.1 ms).
  index("tickets_company_number_id_status_idx").on(t.company_id, t.ticket_number, t.id, t.status),
  index("tickets_company_invoice_id_status_idx").on(t.company_id, t.invoice_number, t.id, t.status),
  index("tickets_company_date_id_status_idx").on(t.company_id, t.ticket_date, t.id, t.status),
  index("tickets_company_invoice_date_id_status_idx").on(t.company_id, t.invoice_date, t.id, t.status),
  index("tickets_company_created_id_status_idx").on(t.company_id, t.created_at, t.id, t.status),
  // Sales Data's sorts on the ticket's invoice number and date walk tickets in this order.
  index("tickets_invoice_number_idx").on(t.invoice_number),
  index("tickets_invoice_date_idx").on(t.invoice_date),
]);

/**
 * A line of a ticket (the spec's "sale"): inventory rented or sold over a period. `quantity_held` is
 * what this line currently counts in its inventory row's `quantity_out` (quantity less what came back
 * or was sold), so every change moves quantity_out by the difference.
 */
export const sales = sqliteTable("sales", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  ticket_id: integer("ticket_id").notNull().references(() => tickets.id, { onDelete: "cascade" }),
  company_id: integer("company_id").notNull().references(() => companies.id),
  created_by_id: integer("created_by_id").references(() => users.id, { onDelete: "set null" }),
  inventory_id: integer("inventory_id").notNull().references(() => inventory.id, { onDelete: "restrict" }),
  order: integer("order").notNull().default(0),
  /** instants, YYYY-MM-DDTHH:mm:ssZ */
  start_date: text("start_date"),
  end_date: text("end_date"),
  duration: real("duration").notNull().default(1),
  quantity: real("quantity").notNull().default(1),
  price: real("price").notNull().default(0),
  minimum_rate: real("minimum_rate"),
  use_min_rate_logic: integer("use_min_rate_logic", { mode: "boolean" }).notNull().default(false),
  /** percents */
  discount: real("discount"),
  markup: real("markup"),
  state_tax: real("state_tax"),
  county_tax: real("county_tax"),
  city_tax: real("city_tax"),
  isSold: integer("is_sold", { mode: "boolean" }).notNull().default(false),
  hours: real("hours"),
  notes: text("notes").notNull().default(""),
  doc: text("doc"),
  file_id: integer("file_id").references(() => files.id, { onDelete: "set null" }),
  quantity_held: integer("quantity_held").notNull().default(0),
  /**
   * What a line starting later still has to take (decision 028): a booking reserves its dates but holds
   * nothing in quantity_out until it starts. It reserves quantity_held + quantity_pending.
   */
  quantity_pending: integer("quantity_pending").notNull().default(0),
  custom: text("custom", { mode: "json" }).$type<{ hide?: boolean } & Record<string, unknown>>().notNull()
    .default(sql`'{}'`),
  created_at: text("created_at").notNull().default(now),
  updated_at: text("updated_at").notNull().default(now),
  /** Bumped when an edited column changes (migration 0033, decision 038): the record's ETag. */
  version: integer("version").notNull().default(1),
}, (t) => [
  index("sales_ticket_order_idx").on(t.ticket_id, t.order),
  // A stock row's lines, with their ticket's flags (migration 0021: columns kept by triggers, not in this
  // schema) and start: a serial search's count and its narrow pages read the index alone (migration 0024).
  index("sales_inventory_idx").on(t.inventory_id, sql`"ticket_invoice"`, sql`"ticket_quote"`, t.start_date),
  // Sales Data's default filters in start order (migration 0021), the stock row at the end: a serial search
  // walking the page's order checks each line's stock row in the index alone (migration 0024).
  index("sales_ticket_flags_start_idx").on(
    sql`"ticket_invoice"`,
    sql`"ticket_quote"`,
    t.start_date,
    t.id,
    t.inventory_id,
  ),
  index("sales_start_idx").on(t.start_date),
  // Sales Data's sorts on the line's own columns walk these in order (the id breaks ties), checking the
  // ticket's flags in the index alone (migration 0031): read from each line, a page 10,000 lines in took
  // 15-45 ms.
  ...([
    ["end", t.end_date],
    ["quantity", t.quantity],
    ["minimum_rate", t.minimum_rate],
    ["price", t.price],
    ["discount", t.discount],
    ["duration", t.duration],
  ] as const).map(([name, col]) =>
    index(`sales_${name}_idx`).on(col, t.id, sql`"ticket_invoice"`, sql`"ticket_quote"`)
  ),
  // Rental availability (decision 028): a row's live reservations by start, and the bookings still to
  // start. Partial, so lines returned long ago are not in them; queries repeat these conditions.
  index("sales_reservation_idx").on(t.inventory_id, t.start_date, t.end_date)
    .where(sql`quantity_held + quantity_pending > 0`),
  index("sales_pending_start_idx").on(t.start_date).where(sql`quantity_pending > 0`),
]);

/** A line's check-in, sale and reclass history (the spec's inventory log). */
export const inventory_log = sqliteTable("inventory_log", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  sale_id: integer("sale_id").notNull().references(() => sales.id, { onDelete: "cascade" }),
  inventory_id: integer("inventory_id").references(() => inventory.id, { onDelete: "set null" }),
  date: text("date").notNull(),
  quantity_in: integer("quantity_in").notNull().default(0),
  quantity_sold: integer("quantity_sold").notNull().default(0),
  quantity_reclassed: integer("quantity_reclassed").notNull().default(0),
  starting_quantity: integer("starting_quantity").notNull().default(0),
  ending_quantity: integer("ending_quantity").notNull().default(0),
  remove_quantity: integer("remove_quantity", { mode: "boolean" }).notNull().default(false),
  billed: integer("billed", { mode: "boolean" }).notNull().default(false),
  action: text("action").notNull(),
  user_id: integer("user_id").references(() => users.id, { onDelete: "set null" }),
  user_name: text("user_name").notNull().default(""),
  updated_at: text("updated_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`),
}, (t) => [index("inventory_log_sale_idx").on(t.sale_id)]);

export const rejections = sqliteTable("rejections", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  ticket_id: integer("ticket_id").notNull().references(() => tickets.id, { onDelete: "cascade" }),
  company_id: integer("company_id").notNull().references(() => companies.id),
  created_by_id: integer("created_by_id").references(() => users.id, { onDelete: "set null" }),
  comment: text("comment").notNull().default(""),
  resolved: integer("resolved", { mode: "boolean" }).notNull().default(false),
  created_at: text("created_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`),
}, (t) => [index("rejections_ticket_idx").on(t.ticket_id, t.created_at)]);

/** Next number per series (ticket, quote, invoice): taken inside the write transaction, never reused. */
export const number_counters = sqliteTable("number_counters", {
  name: text("name").primaryKey(),
  value: integer("value").notNull().default(0),
});

export type Ticket = typeof tickets.$inferSelect;
export type NewTicket = typeof tickets.$inferInsert;
export type Sale = typeof sales.$inferSelect;
export type NewSale = typeof sales.$inferInsert;
export type InventoryLogEntry = typeof inventory_log.$inferSelect;
export type Rejection = typeof rejections.$inferSelect;
