// Issued invoices as they were sent (decision 040): what the invoice screen, the lists, Sales Data and the
// downloads show for an approved invoice instead of today's names and rules.
import { and, asc, eq, isNull } from "drizzle-orm";
import { inJson } from "../../../db/in_json.ts";
import { issued_documents, issued_lines, type IssuedLine } from "../../../db/schema/mod.ts";
import type { Db } from "../tickets/service/query.ts";
import type { DocumentParties } from "./model.ts";
import type { DocumentSettings } from "../printing/document_settings.ts";
import type { Rounding } from "../tickets/rules.ts";

/** What `issued_documents.document` holds besides the lines (issued_lines) and the PDF. */
export interface StoredDocument {
  ticket: {
    ticket_number: string;
    invoice_number: string | null;
    ticket_date: string;
    invoice_date: string | null;
    location: string;
    notes: string;
    use_min_rate_logic: boolean;
    rounding: Rounding;
  };
  company: { name: string; logo_sha256: string | null };
  settings: DocumentSettings;
  parties: DocumentParties;
}

/** A line as stored: its figures and names, and where it stood on the document. */
export interface StoredLine extends IssuedLine {
  position: number;
  hidden: boolean;
  file_id: number | null;
}

const SUMMARY = {
  id: issued_documents.id,
  ticket_id: issued_documents.ticket_id,
  number: issued_documents.number,
  revision: issued_documents.revision,
  document_date: issued_documents.document_date,
  issued_at: issued_documents.issued_at,
  issued_by: issued_documents.issued_by,
  origin: issued_documents.origin,
  cancelled_at: issued_documents.cancelled_at,
  cancelled_by: issued_documents.cancelled_by,
  rounding: issued_documents.rounding,
  subtotal: issued_documents.subtotal,
  markup: issued_documents.markup,
  discount: issued_documents.discount,
  state_tax: issued_documents.state_tax,
  county_tax: issued_documents.county_tax,
  city_tax: issued_documents.city_tax,
  grandtotal: issued_documents.grandtotal,
};
export type IssuedSummary = {
  [K in keyof typeof SUMMARY]: (typeof issued_documents.$inferSelect)[K];
};
export type CurrentIssue = IssuedSummary & { document: StoredDocument };

/** The current (not cancelled) issued revision of each of these tickets that has one. */
export async function currentIssues(db: Db, ticketIds: number[]): Promise<Map<number, CurrentIssue>> {
  if (!ticketIds.length) return new Map();
  const rows = await db.select({ ...SUMMARY, document: issued_documents.document }).from(issued_documents)
    .where(
      and(inJson(issued_documents.ticket_id, ticketIds), isNull(issued_documents.cancelled_at)),
    );
  return new Map(rows.map((r) => [r.ticket_id, r as unknown as CurrentIssue]));
}

/** Each of these lines as issued on its ticket's current revision (lines of drafts have none). */
export async function issuedLinesOf(db: Db, saleIds: number[]): Promise<Map<number, StoredLine>> {
  if (!saleIds.length) return new Map();
  const rows = await db.select({ sale_id: issued_lines.sale_id, line: issued_lines.line }).from(issued_lines)
    .innerJoin(issued_documents, eq(issued_documents.id, issued_lines.document_id))
    .where(and(inJson(issued_lines.sale_id, saleIds), isNull(issued_documents.cancelled_at)));
  return new Map(rows.map((r) => [r.sale_id, r.line as StoredLine]));
}

/** The lines of one issued revision in their printed order. */
export async function linesOfIssue(
  db: Db,
  documentId: number,
): Promise<(StoredLine & { sale_id: number })[]> {
  const rows = await db.select({ sale_id: issued_lines.sale_id, line: issued_lines.line }).from(issued_lines)
    .where(eq(issued_lines.document_id, documentId));
  return rows.map((r) => ({ ...(r.line as StoredLine), sale_id: r.sale_id }))
    .sort((a, b) => a.position - b.position);
}

/** Every revision of a ticket's invoice, the first first (without their PDFs). */
export function revisionsOf(db: Db, ticketId: number): Promise<IssuedSummary[]> {
  return db.select(SUMMARY).from(issued_documents).where(eq(issued_documents.ticket_id, ticketId))
    .orderBy(asc(issued_documents.revision));
}

/** One revision with its stored document and PDF (the PDF null until first printed, for upgraded ones). */
export function issueOf(db: Db, ticketId: number, revision: number) {
  return db.select({ ...SUMMARY, document: issued_documents.document, pdf: issued_documents.pdf })
    .from(issued_documents)
    .where(and(eq(issued_documents.ticket_id, ticketId), eq(issued_documents.revision, revision))).get();
}

type Named = { id: number; name: string } | null;
/** The parties a ticket or a Sales Data row names (the unit and product lines where it shows them). */
export interface IssuedNames {
  customer: Named;
  sales_rep: Named;
  business_unit?: Named;
  product_line?: Named;
  sub_product_line?: Named;
}

/** A ticket or a line's row with its parties' names as the invoice was issued (the ids stay today's). */
export function withIssuedNames<T extends IssuedNames>(row: T, issue: CurrentIssue): T {
  const p = issue.document.parties;
  const rename = <N extends Named | undefined>(live: N, issued: { name: string } | null) =>
    live?.id && issued ? { ...live, name: issued.name } : live;
  return {
    ...row,
    customer: rename(row.customer, p.customer),
    sales_rep: rename(row.sales_rep, p.sales_rep),
    ...("business_unit" in row ? { business_unit: rename(row.business_unit, p.business_unit) } : {}),
    ...("product_line" in row ? { product_line: rename(row.product_line, p.product_line) } : {}),
    ...("sub_product_line" in row
      ? { sub_product_line: rename(row.sub_product_line, p.sub_product_line) }
      : {}),
  };
}

/** A line (in Sales Data's or the ticket screen's shape) with its figures and names as issued. */
export function asIssued<
  L extends {
    sales_inventory: {
      serial_number: string;
      inventory_description: string;
      item: { item_number: string; item_description: string; inventory_type: string };
    };
  },
>(line: L, issued: StoredLine | undefined): L {
  if (!issued) return line;
  return {
    ...line,
    quantity: issued.quantity,
    price: issued.price,
    duration: issued.duration,
    minimum_rate: issued.minimum_rate,
    markup: issued.markup,
    discount: issued.discount,
    state_tax: issued.state_tax,
    county_tax: issued.county_tax,
    city_tax: issued.city_tax,
    start_date: issued.start_date,
    end_date: issued.end_date,
    calculated_tax: issued.calculated_tax,
    calculated_total: issued.calculated_total,
    sales_inventory: {
      ...line.sales_inventory,
      serial_number: issued.serial_number,
      inventory_description: issued.inventory_description,
      item: {
        ...line.sales_inventory.item,
        item_number: issued.item_number,
        item_description: issued.item_description,
        inventory_type: issued.inventory_type,
      },
    },
  };
}
