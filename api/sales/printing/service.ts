import { z } from "zod";
import { files } from "../../../db/schema/mod.ts";
import type { Ctx } from "../../lib/context.ts";
import { AppError } from "../../../lib/errors.ts";
import { optionalText, queryBool, queryEnum } from "../../lib/list_query.ts";
import { pdfResponse } from "../../lib/pdf.ts";
import { getTicket } from "../tickets/service.ts";
import { appendAttachments } from "./report.ts";
import { type DocumentTitle, renderTicketDocument } from "./ticket_document.ts";
import { documentData, documentModel, sellerOf } from "../issued/model.ts";
import { issuedPdf, keepPdf } from "../issued/issue.ts";
import { issueOf, linesOfIssue, type StoredDocument } from "../issued/read.ts";
import { inJson } from "../../../db/in_json.ts";

/** GET /api/sales/ticketpdf: ticket_number and invoice_number are accepted and ignored (the row is the truth). */
export const TicketPdfQuery = z.object({
  ticket_id: z.coerce.number().int().positive(),
  printInvoice: queryBool.optional(),
  type: queryEnum(["quote", "ticket", "invoice"] as const),
  include_attachments: queryBool.optional(),
  ticket_number: optionalText,
  invoice_number: optionalText,
  /** an issued revision of the invoice (0 the first), as it was issued */
  revision: z.coerce.number().int().min(0).max(10_000).optional(),
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

/** The line attachments to append: the printed lines' files, as the document lists them. */
async function attachmentsOf(ctx: Ctx, lines: { hidden: boolean; file_id: number | null }[]) {
  // The lines are this ticket's (scoped by the caller), so their files are the caller's to read.
  const ids = lines.filter((l) => !l.hidden).map((l) => l.file_id).filter((id): id is number => id !== null);
  const rows = ids.length
    ? await ctx.db.select({ id: files.id, name: files.name, data: files.data }).from(files)
      .where(inJson(files.id, [...new Set(ids)]))
    : [];
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const f = byId.get(id);
    return f ? [{ name: f.name, data: new Uint8Array(f.data as Uint8Array) }] : [];
  });
}

/**
 * The ticket's PDF (getTicket requires "sales.read" and answers 404 for a ticket not found). An issued
 * invoice is answered as it was issued, byte for byte (decision 040): the current revision, or the one asked
 * for (`revision`, also after re-opening); its ticket or quote print shows the issued names and figures.
 * Drafts follow today's data.
 */
export async function ticketPdf(ctx: Ctx, q: TicketPdfQuery): Promise<Response> {
  const ticket = await getTicket(ctx, q.ticket_id);
  if (q.revision !== undefined && !ticket.revisions.some((r) => r.revision === q.revision)) {
    throw new AppError("not_found", `This invoice has no revision ${q.revision}.`);
  }
  const title = q.revision !== undefined ? "Invoice" : documentTitle(ticket, q);
  const revision = q.revision ?? ticket.issued?.revision;
  let bytes: Uint8Array;
  /** the printed lines whose files an include_attachments print appends (read only then) */
  let lines: () => Promise<{ hidden: boolean; file_id: number | null }[]>;
  if (revision !== undefined && title === "Invoice") {
    const keep = (pdf: Uint8Array) => ctx.tdb.write((tx) => keepPdf(tx, ticket.id, revision, pdf));
    const issued = (await issuedPdf(ctx.db, ticket.id, revision, keep))!;
    bytes = issued.pdf;
    lines = () => linesOfIssue(ctx.db, issued.documentId);
  } else if (ticket.issued) {
    // The ticket of an issued invoice: the same names and figures, titled as asked.
    const issue = (await issueOf(ctx.db, ticket.id, ticket.issued.revision))!;
    const d = issue.document as unknown as StoredDocument;
    const [stored, seller] = await Promise.all([
      linesOfIssue(ctx.db, issue.id),
      sellerOf(ctx.db, ticket.company_id),
    ]);
    const company = { ...seller.company, name: d.company.name };
    bytes = await renderTicketDocument(documentData(d.ticket, title, company, d.settings, d.parties, stored));
    lines = () => Promise.resolve(stored);
  } else {
    const model = await documentModel(ctx.db, ticket, title);
    // A re-opened invoice printed as an invoice is the next revision's draft, and says so.
    if (title === "Invoice" && ticket.revisions.length) {
      model.data.revision = { number: ticket.revisions.length, date: "", draft: true };
    }
    bytes = await renderTicketDocument(model.data);
    lines = () => Promise.resolve(model.lines);
  }
  if (q.include_attachments) bytes = await appendAttachments(bytes, await attachmentsOf(ctx, await lines()));
  const number = title === "Invoice" ? ticket.invoice_number! : ticket.ticket_number;
  const mark = title === "Invoice" && revision ? `-Rev${revision}` : "";
  return pdfResponse(bytes, `${title}-${number}${mark}.pdf`);
}
