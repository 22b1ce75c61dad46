// What a ticket document shows, read from live data: the parties, names, settings and the lines with their
// printed figures (decision 015). Printing a draft renders it at once; issuing an invoice keeps it, with its
// PDF, as the invoice was sent (decision 040).
import { eq } from "drizzle-orm";
import { companies, type IssuedLine } from "../../../db/schema/mod.ts";
import type { Db } from "../tickets/service/query.ts";
import type { TicketOut } from "../tickets/service.ts";
import { loadLines } from "../lines/query.ts";
import { pdfLogoBytes, pdfLogoHeight } from "../../lib/pdf_logo.ts";
import { type DocumentSettings, documentSettings } from "../printing/document_settings.ts";
import { printedLines } from "../printing/printed_lines.ts";
import type { DocumentTitle, TicketDocumentData } from "../printing/ticket_document.ts";
import { lineTotals } from "../tickets/rules.ts";

/** The names of the ticket's parties as the document was made: what lists show for an issued invoice. */
export interface DocumentParties {
  customer: { id: number; name: string; address: string[] };
  sales_rep: { id: number; name: string } | null;
  business_unit: { id: number; name: string } | null;
  product_line: { id: number; name: string } | null;
  sub_product_line: { id: number; name: string } | null;
}

/** A line of the document with what identifies it: its id, order, whether it prints, its attachment. */
export interface ModelLine extends IssuedLine {
  sale_id: number;
  hidden: boolean;
  file_id: number | null;
  /** The line's notes, printed under its item (lines issued before they were kept have none). */
  notes?: string;
}

export interface DocumentModel {
  data: TicketDocumentData;
  parties: DocumentParties;
  lines: ModelLine[];
}

const addressOf = (custom: Record<string, unknown> | null | undefined) =>
  [custom?.address_line_1, custom?.address_line_2, custom?.address_line_3]
    .filter((l): l is string => typeof l === "string" && l.trim() !== "");

const named = (x: { id: number; name: string } | null | undefined) => x ? { id: x.id, name: x.name } : null;

/** The seller as its documents print it today: its name and logo, and its settings. */
export async function sellerOf(db: Db, companyId: number) {
  const owner = await db.select({ name: companies.name, settings: companies.settings }).from(companies)
    .where(eq(companies.id, companyId)).get();
  const settings = owner?.settings ?? {};
  // The logo every PDF of both apps draws (decision 044): logoSVG, companyLogo or Sales.companyLogo.
  const logo = pdfLogoBytes(settings);
  return { company: { name: owner?.name ?? "", logo, logoHeight: pdfLogoHeight(settings) }, settings };
}

/** The document of a ticket (as `presentTicket` gives it) from today's data. */
export async function documentModel(db: Db, ticket: TicketOut, title: DocumentTitle): Promise<DocumentModel> {
  const [lines, seller, customer] = await Promise.all([
    loadLines(db, { ticketId: ticket.id }),
    sellerOf(db, ticket.company_id),
    db.select({ id: companies.id, name: companies.name, custom: companies.custom }).from(companies)
      .where(eq(companies.id, ticket.customer_id)).get(),
  ]);
  const model: ModelLine[] = lines.map((l) => {
    const money = lineTotals(l, ticket);
    return {
      sale_id: l.id,
      // A line hidden from printing is still billed: it is summed into one "Other charges" row (decision 015).
      hidden: l.custom?.hide === true,
      file_id: l.file_id,
      notes: l.notes,
      item_number: l.sales_inventory.item.item_number,
      item_description: l.sales_inventory.item.item_description,
      inventory_type: l.sales_inventory.item.inventory_type,
      serial_number: l.sales_inventory.serial_number,
      inventory_description: l.sales_inventory.inventory_description,
      quantity: l.quantity,
      price: l.price,
      duration: l.duration,
      minimum_rate: l.minimum_rate,
      markup: l.markup,
      discount: l.discount,
      state_tax: l.state_tax,
      county_tax: l.county_tax,
      city_tax: l.city_tax,
      start_date: l.start_date,
      end_date: l.end_date,
      calculated_tax: money.tax,
      calculated_total: money.total,
    };
  });
  const parties: DocumentParties = {
    customer: { id: ticket.customer_id, name: customer?.name ?? "", address: addressOf(customer?.custom) },
    sales_rep: named(ticket.sales_rep),
    business_unit: named(ticket.business_unit),
    product_line: named(ticket.product_line),
    sub_product_line: named(ticket.sub_product_line),
  };
  const data = documentData(ticket, title, seller.company, documentSettings(seller.settings), parties, model);
  return { data, parties, lines: model };
}

/** The PDF's data from a ticket's fields, its parties and its lines (live or as issued). */
export function documentData(
  ticket: Pick<
    TicketOut,
    | "ticket_number"
    | "invoice_number"
    | "ticket_date"
    | "invoice_date"
    | "location"
    | "notes"
    | "use_min_rate_logic"
    | "rounding"
  >,
  title: DocumentTitle,
  company: TicketDocumentData["company"],
  settings: DocumentSettings,
  parties: DocumentParties,
  lines: ModelLine[],
): TicketDocumentData {
  const rows = printedLines(
    lines.map((l) => ({ ...l, description: l.item_description })),
    ticket,
  );
  return {
    title,
    company,
    settings,
    ticket_number: ticket.ticket_number,
    invoice_number: ticket.invoice_number,
    ticket_date: ticket.ticket_date,
    invoice_date: ticket.invoice_date,
    customer: { name: parties.customer.name, address: parties.customer.address },
    sales_rep: parties.sales_rep?.name ?? "",
    business_unit: parties.business_unit?.name ?? "",
    location: ticket.location,
    use_min_rate_logic: ticket.use_min_rate_logic,
    ...rows,
    notes: ticket.notes,
  };
}
