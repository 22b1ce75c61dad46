import { sql } from "drizzle-orm";
import { blob, index, integer, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { tickets } from "./tickets.ts";

const now = sql`(strftime('%Y-%m-%dT%H:%M:%SZ','now'))`;

/**
 * An invoice as it was issued (decision 040): one row per revision. Approving a ticket issues revision 0;
 * re-opening the invoice cancels the current revision (it stays, exactly as issued); approving it again
 * issues the next revision under the same number. What the customer received is `pdf` (rendered once, at
 * issue; for invoices frozen by the upgrade, at their first reprint) and `document` (everything the PDF
 * shows: parties, names, addresses, lines with their printed figures, totals, terms, the rounding rule).
 */
export const issued_documents = sqliteTable("issued_documents", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  ticket_id: integer("ticket_id").notNull().references(() => tickets.id, { onDelete: "restrict" }),
  number: text("number").notNull(),
  revision: integer("revision").notNull(),
  document_date: text("document_date").notNull(),
  issued_at: text("issued_at").notNull().default(now),
  issued_by: text("issued_by").notNull().default(""),
  /** "issued": approved in this release; "upgrade": an invoice issued before, frozen by migration 0032 */
  origin: text("origin", { enum: ["issued", "upgrade"] }).notNull().default("issued"),
  cancelled_at: text("cancelled_at"),
  cancelled_by: text("cancelled_by"),
  /** "line": each amount of a line to cents (decision 015); "exact": sums rounded once (decision 007) */
  rounding: text("rounding", { enum: ["line", "exact"] }).notNull(),
  subtotal: real("subtotal").notNull(),
  markup: real("markup").notNull(),
  discount: real("discount").notNull(),
  state_tax: real("state_tax").notNull(),
  county_tax: real("county_tax").notNull(),
  city_tax: real("city_tax").notNull(),
  grandtotal: real("grandtotal").notNull(),
  document: text("document", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
  pdf: blob("pdf", { mode: "buffer" }),
}, (t) => [
  uniqueIndex("issued_documents_ticket_revision_unique").on(t.ticket_id, t.revision),
  // A ticket's current revision (not cancelled): at most one.
  uniqueIndex("issued_documents_current_unique").on(t.ticket_id).where(sql`cancelled_at is null`),
]);

/** A line of an issued revision: what Sales Data, the invoice screen and its downloads show for it. */
export const issued_lines = sqliteTable("issued_lines", {
  document_id: integer("document_id").notNull().references(() => issued_documents.id, {
    onDelete: "cascade",
  }),
  sale_id: integer("sale_id").notNull(),
  line: text("line", { mode: "json" }).$type<IssuedLine>().notNull(),
}, (t) => [
  uniqueIndex("issued_lines_sale_document_unique").on(t.sale_id, t.document_id),
  index("issued_lines_document_idx").on(t.document_id),
]);

/** Logos of issued documents whose PDF is still to be rendered (frozen by the upgrade), once per content. */
export const issued_assets = sqliteTable("issued_assets", {
  sha256: text("sha256").primaryKey(),
  data: blob("data", { mode: "buffer" }).notNull(),
});

/** The names and figures of a line as issued. */
export interface IssuedLine {
  item_number: string;
  item_description: string;
  inventory_type: string;
  serial_number: string;
  inventory_description: string;
  quantity: number;
  price: number;
  duration: number;
  minimum_rate: number | null;
  markup: number | null;
  discount: number | null;
  state_tax: number | null;
  county_tax: number | null;
  city_tax: number | null;
  start_date: string | null;
  end_date: string | null;
  calculated_tax: number;
  calculated_total: number;
}

export type IssuedDocument = typeof issued_documents.$inferSelect;
