import { eq } from "drizzle-orm";
import { sales } from "../../../db/schema/mod.ts";
import type { Tx } from "../../../db/client.ts";
import type { Ctx } from "../../lib/context.ts";
import { AppError, invalid } from "../../../lib/errors.ts";
import { nowStamp } from "../../lib/db_helpers.ts";
import { pdfUpload, storeFile } from "../../files/service.ts";
import { requireAbility } from "../../../lib/policy.ts";
import { PDF_MESSAGE } from "../../pt/inspections/schemas.ts";
import { EDIT_LINE_MESSAGE, INVOICED_MESSAGE, REQUIRED } from "./schemas.ts";
import { requireUnbilled } from "../tickets/billed.ts";
import { getLine, type LineOut, ticketFor } from "./query.ts";

/** The multipart field holding the PDF. */
export const ATTACHMENT_FIELD = "file";
/** The PT batch's message (browser-safe schemas, so the line form shows the same text). */
export const ATTACHMENT_PDF_MESSAGE = PDF_MESSAGE;
export const ATTACHED_MESSAGE = "Attachment saved";
export const DETACHED_MESSAGE = "Attachment removed";
/** What `doc` (the file's name) holds at most, as the line form's `doc`. */
const DOC_MAX = 255;

export type AttachmentResult = LineOut & { message: string };

/**
 * Sets (`file` gives the stored file, run inside the write) or clears a line's document in one write
 * transaction: the line must exist and its ticket not be invoiced. The file row is written in the same
 * transaction, so a refused line leaves no stray file.
 */
async function setFile(
  ctx: Ctx,
  id: number,
  file: ((tx: Tx) => Promise<{ id: number; name: string }>) | null,
): Promise<LineOut> {
  return await ctx.tdb.write(async (tx) => {
    const line = await tx.select({ ticket_id: sales.ticket_id, file_id: sales.file_id }).from(sales)
      .where(eq(sales.id, id)).get();
    if (!line) throw new AppError("not_found", "Line item not found.");
    // A line's first document is part of adding it; replacing or removing one is editing the line.
    if (line.file_id !== null || !file) requireAbility(ctx.user, "sales.admin", EDIT_LINE_MESSAGE);
    requireUnbilled((await ticketFor(tx, line.ticket_id)).ticket, INVOICED_MESSAGE);
    const stored = file ? await file(tx) : null;
    await tx.update(sales).set({
      file_id: stored?.id ?? null,
      doc: stored?.name ?? null,
      updated_at: nowStamp(),
    }).where(eq(sales.id, id));
    return await getLine(tx, id);
  });
}

/**
 * POST /api/sales/sales/{id}/attachment: the multipart part `file`, a PDF of at most MAX_UPLOAD_MB
 * (413 above; 422 at `file` when missing or not a PDF), becomes the line's document: `file_id` and
 * `doc` (its name) replace what the line had. Any sales user may give a line its first document (the
 * new line's attachment); replacing one, like removing it, is sales-admin's (Edit); an invoiced line's
 * document cannot change (409). The file is stored once per content (files table).
 */
export async function attachToLine(ctx: Ctx, id: number, part: unknown): Promise<AttachmentResult> {
  requireAbility(ctx.user, "sales.read");
  if (!(part instanceof File)) throw invalid(ATTACHMENT_FIELD, REQUIRED);
  const upload = await pdfUpload(part, ctx.config.MAX_UPLOAD_MB, ATTACHMENT_FIELD, ATTACHMENT_PDF_MESSAGE);
  const name = (upload.name.trim() || "attachment.pdf").slice(-DOC_MAX);
  const line = await setFile(ctx, id, async (tx) => ({ id: await storeFile(tx, { ...upload, name }), name }));
  return { ...line, message: ATTACHED_MESSAGE };
}

/**
 * DELETE /api/sales/sales/{id}/attachment (sales-admin: editing the line): the line keeps no document
 * (`file_id` and `doc` null).
 */
export async function detachFromLine(ctx: Ctx, id: number): Promise<AttachmentResult> {
  requireAbility(ctx.user, "sales.read");
  return { ...(await setFile(ctx, id, null)), message: DETACHED_MESSAGE };
}
