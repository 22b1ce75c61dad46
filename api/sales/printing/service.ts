import { eq, inArray } from "drizzle-orm";
import { z } from "zod";
import { companies, files } from "../../../db/schema/mod.ts";
import type { Ctx } from "../../lib/context.ts";
import { AppError } from "../../../lib/errors.ts";
import { optionalText, queryBool, queryEnum } from "../../lib/list_query.ts";
import { pdfResponse } from "../../lib/pdf.ts";
import { getTicket } from "../tickets/service.ts";
import { loadLines } from "../lines/service.ts";
import { appendAttachments, logoBytes } from "./report.ts";
import { documentSettings } from "./document_settings.ts";
import { printedLines } from "./printed_lines.ts";
import { type DocumentTitle, renderTicketDocument } from "./ticket_document.ts";

/** GET /api/sales/ticketpdf: ticket_number and invoice_number are accepted and ignored (the row is the truth). */
export const TicketPdfQuery = z.object({
  ticket_id: z.coerce.number().int().positive(),
  printInvoice: queryBool.optional(),
  type: queryEnum(["quote", "ticket", "invoice"] as const),
  include_attachments: queryBool.optional(),
  ticket_number: optionalText,
  invoice_number: optionalText,
});
export type TicketPdfQuery = z.infer<typeof TicketPdfQuery>;

export const NO_INVOICE_YET = "This ticket has no invoice yet.";

/**
 * Which document the ticket prints as: an invoice when asked for one (printInvoice or type=invoice;
 * 409 without an invoice number) or when it is an approved invoice; a quote for a quote (or when asked);
 * otherwise a ticket.
 */
export function documentTitle(
  t: { status: string; isQuote: boolean; invoice_number: string | null },
  q: Pick<TicketPdfQuery, "printInvoice" | "type">,
): DocumentTitle {
  if (q.printInvoice || q.type === "invoice") {
    if (!t.invoice_number) throw new AppError("conflict", NO_INVOICE_YET);
    return "Invoice";
  }
  if (q.type === "quote") return "Quote";
  if (q.type === "ticket") return "Ticket";
  if (t.isQuote || t.status === "QUOTE") return "Quote";
  if (t.status === "APP" && t.invoice_number) return "Invoice";
  return "Ticket";
}

const addressOf = (custom: Record<string, unknown> | null | undefined) =>
  [custom?.address_line_1, custom?.address_line_2, custom?.address_line_3]
    .filter((l): l is string => typeof l === "string" && l.trim() !== "");

/** The ticket's PDF (getTicket requires "sales.read" and answers 404 for a ticket not found). */
export async function ticketPdf(ctx: Ctx, q: TicketPdfQuery): Promise<Response> {
  const ticket = await getTicket(ctx, q.ticket_id);
  const title = documentTitle(ticket, q);
  const [lines, owner, customer] = await Promise.all([
    loadLines(ctx.db, { ticketId: ticket.id }),
    ctx.db.select({ name: companies.name, settings: companies.settings }).from(companies)
      .where(eq(companies.id, ticket.company_id)).get(),
    ctx.db.select({ name: companies.name, custom: companies.custom }).from(companies)
      .where(eq(companies.id, ticket.customer_id)).get(),
  ]);
  // A line hidden from printing is still billed: it is summed into one "Other charges" row (decision 015).
  const hidden = (l: (typeof lines)[number]) => l.custom?.hide === true;
  const printed = lines.filter((l) => !hidden(l));
  const settings = owner?.settings ?? {};
  const logo = logoBytes(settings.companyLogo ?? (settings.Sales as Record<string, unknown>)?.companyLogo);
  const rows = printedLines(
    lines.map((l) => ({
      ...l,
      hidden: hidden(l),
      item_number: l.sales_inventory.item.item_number,
      description: l.sales_inventory.item.item_description,
      inventory_type: l.sales_inventory.item.inventory_type,
      serial_number: l.sales_inventory.serial_number,
    })),
    ticket,
  );

  let bytes = await renderTicketDocument({
    title,
    company: { name: owner?.name ?? "", logo },
    settings: documentSettings(settings),
    ticket_number: ticket.ticket_number,
    invoice_number: ticket.invoice_number,
    ticket_date: ticket.ticket_date,
    invoice_date: ticket.invoice_date,
    customer: { name: customer?.name ?? "", address: addressOf(customer?.custom) },
    sales_rep: ticket.sales_rep?.name ?? "",
    business_unit: ticket.business_unit?.name ?? "",
    location: ticket.location,
    use_min_rate_logic: ticket.use_min_rate_logic,
    ...rows,
    notes: ticket.notes,
  });

  if (q.include_attachments) {
    // The lines are this ticket's (scoped above), so their files are the caller's to read.
    const ids = printed.map((l) => l.file_id).filter((id): id is number => id !== null);
    const rows = ids.length
      ? await ctx.db.select({ id: files.id, name: files.name, data: files.data }).from(files)
        .where(inArray(files.id, [...new Set(ids)]))
      : [];
    const byId = new Map(rows.map((r) => [r.id, r]));
    const attachments = ids.flatMap((id) => {
      const f = byId.get(id);
      return f ? [{ name: f.name, data: new Uint8Array(f.data as Uint8Array) }] : [];
    });
    bytes = await appendAttachments(bytes, attachments);
  }
  const number = title === "Invoice" ? ticket.invoice_number! : ticket.ticket_number;
  return pdfResponse(bytes, `${title}-${number}.pdf`);
}
