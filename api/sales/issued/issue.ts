// Issuing an invoice keeps it as sent (decision 040): approving a ticket stores its document (names, figures,
// terms, rounding rule) and the PDF itself; re-opening cancels that revision, never changes it; approving again
// issues the next revision under the same number.
import { createHash } from "node:crypto";
import { Buffer } from "node:buffer";
import { and, eq, isNull, sql } from "drizzle-orm";
import { issued_assets, issued_documents, issued_lines, tickets } from "../../../db/schema/mod.ts";
import type { Tx } from "../../../db/client.ts";
import { nowStamp } from "../../lib/db_helpers.ts";
import { presentTicket, type Viewer } from "../tickets/service/query.ts";
import { renderTicketDocument } from "../printing/ticket_document.ts";
import { documentData, type DocumentModel, documentModel } from "./model.ts";
import type { StoredDocument, StoredLine } from "./read.ts";
import { issueOf, linesOfIssue } from "./read.ts";
import type { Db } from "../tickets/service/query.ts";

/** The next revision of a ticket's invoice: 0 for its first issue. */
async function nextRevision(tx: Tx, ticketId: number): Promise<number> {
  const row = await tx.select({ n: sql<number | null>`max(${issued_documents.revision})` }).from(
    issued_documents,
  )
    .where(eq(issued_documents.ticket_id, ticketId)).get();
  return row?.n === null || row?.n === undefined ? 0 : Number(row.n) + 1;
}

/**
 * Stores a revision of the ticket's invoice from its data now: with its PDF (`render`, at approval) or
 * without (the upgrade's freeze: rendered at its first reprint, the logo kept meanwhile).
 */
async function store(
  tx: Tx,
  viewer: Viewer,
  ticketId: number,
  opts: { by: string; origin: "issued" | "upgrade"; today: string; render: boolean },
): Promise<void> {
  const t = await presentTicket(tx, viewer, ticketId);
  const model: DocumentModel = await documentModel(tx, t, "Invoice");
  const revision = await nextRevision(tx, t.id);
  model.data.revision = { number: revision, date: opts.today };
  const pdf = opts.render ? Buffer.from(await renderTicketDocument(model.data)) : null;
  const logo = model.data.company.logo;
  let logoSha: string | null = null;
  if (!pdf && logo) {
    logoSha = createHash("sha256").update(logo).digest("hex");
    await tx.insert(issued_assets).values({ sha256: logoSha, data: Buffer.from(logo) }).onConflictDoNothing();
  }
  const document: StoredDocument = {
    ticket: {
      ticket_number: t.ticket_number,
      invoice_number: t.invoice_number,
      ticket_date: t.ticket_date,
      invoice_date: t.invoice_date,
      location: t.location,
      notes: t.notes,
      use_min_rate_logic: t.use_min_rate_logic,
      rounding: t.rounding,
    },
    company: { name: model.data.company.name, logo_sha256: logoSha },
    settings: model.data.settings,
    parties: model.parties,
  };
  const totals = model.data.totals;
  const [doc] = await tx.insert(issued_documents).values({
    ticket_id: t.id,
    number: t.invoice_number!,
    revision,
    document_date: t.invoice_date ?? opts.today,
    issued_at: nowStamp(),
    issued_by: opts.by,
    origin: opts.origin,
    rounding: t.rounding,
    subtotal: totals.subtotal,
    markup: totals.markup,
    discount: totals.discount,
    state_tax: totals.state_tax,
    county_tax: totals.county_tax,
    city_tax: totals.city_tax,
    grandtotal: totals.grandtotal,
    document: document as unknown as Record<string, unknown>,
    pdf,
  }).returning({ id: issued_documents.id });
  if (model.lines.length) {
    await tx.insert(issued_lines).values(model.lines.map(({ sale_id, ...l }, position) => ({
      document_id: doc.id,
      sale_id,
      line: { ...l, position } satisfies StoredLine,
    })));
  }
}

/** Approval made the ticket an invoice: its document and PDF are kept as issued. */
export function issueInvoice(tx: Tx, viewer: Viewer, ticketId: number, by: string, today: string) {
  return store(tx, viewer, ticketId, { by, origin: "issued", today, render: true });
}

/** An invoice issued before this release, frozen with the figures and rule it was issued under. */
export function freezeIssued(tx: Tx, viewer: Viewer, ticketId: number, today: string) {
  return store(tx, viewer, ticketId, { by: "", origin: "upgrade", today, render: false });
}

/**
 * Re-opening an invoice cancels its current revision (kept as it was issued) and makes the ticket a draft
 * again, which follows today's rounding rule.
 */
export async function cancelIssue(tx: Tx, ticketId: number, by: string): Promise<void> {
  await tx.update(issued_documents).set({ cancelled_at: nowStamp(), cancelled_by: by })
    .where(and(eq(issued_documents.ticket_id, ticketId), isNull(issued_documents.cancelled_at)));
  await tx.update(tickets).set({ rounding: "line" }).where(eq(tickets.id, ticketId));
}

/**
 * The PDF of a revision (and the stored document's id): as stored; one frozen by the upgrade is rendered once from its stored document,
 * kept by `keep`, and the same bytes answered from then on. Null when the revision does not exist.
 */
export async function issuedPdf(
  db: Db,
  ticketId: number,
  revision: number,
  keep: (pdf: Uint8Array) => Promise<void>,
): Promise<{ pdf: Uint8Array; documentId: number } | null> {
  const issue = await issueOf(db, ticketId, revision);
  if (!issue) return null;
  if (issue.pdf) return { pdf: new Uint8Array(issue.pdf as Uint8Array), documentId: issue.id };
  const d = issue.document as unknown as StoredDocument;
  const logo = d.company.logo_sha256
    ? (await db.select({ data: issued_assets.data }).from(issued_assets)
      .where(eq(issued_assets.sha256, d.company.logo_sha256)).get())?.data
    : undefined;
  const lines = await linesOfIssue(db, issue.id);
  const data = documentData(
    d.ticket,
    "Invoice",
    { name: d.company.name, logo: logo ? new Uint8Array(logo as Uint8Array) : undefined },
    d.settings,
    d.parties,
    lines,
  );
  data.revision = { number: issue.revision, date: issue.issued_at.slice(0, 10) };
  await keep(await renderTicketDocument(data));
  // What was kept, not what this call rendered: two first reprints at once answer the same bytes.
  const kept = await issueOf(db, ticketId, revision);
  return kept?.pdf ? { pdf: new Uint8Array(kept.pdf as Uint8Array), documentId: kept.id } : null;
}

/** Keeps the PDF rendered at a frozen revision's first reprint (only if none was kept meanwhile). */
export async function keepPdf(tx: Tx, ticketId: number, revision: number, pdf: Uint8Array) {
  await tx.update(issued_documents).set({ pdf: Buffer.from(pdf) })
    .where(and(
      eq(issued_documents.ticket_id, ticketId),
      eq(issued_documents.revision, revision),
      isNull(issued_documents.pdf),
    ));
}
