import { PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, PDFString } from "pdf-lib";

/**
 * The worker's side of one merge (pdf_merge.ts is the parent's). pdf-lib reads whatever was attached:
 * parsing, copying and saving a hostile file can take seconds to minutes of synchronous work (a page
 * tree of 20,000 pages is 17 seconds in `copyPages` alone), so it happens only here, never on the
 * thread every tenant shares.
 *
 * The conversation, one worker per merge, messages strictly alternating:
 *   parent `load` (the attachments)      -> worker `pages` (each one's page count, null if unreadable)
 *   parent `merge` (report and notices)  -> worker `done` (the merged PDF)
 *                                        or worker `uncopyable` (read, but its pages could not be
 *                                           copied: the parent draws again and sends `merge` again)
 * Any other failure is `failed`: a fault of ours (the report itself is pdfkit's output).
 */
export type MergeRequest =
  | { type: "load"; attachments: Uint8Array[] }
  | { type: "merge"; report: Uint8Array; notices: (Uint8Array | null)[] };

export type MergeReply =
  | { type: "pages"; pages: (number | null)[] }
  | { type: "uncopyable"; index: number }
  | { type: "done"; pdf: Uint8Array }
  | { type: "failed"; message: string };

/** The attachments as pdf-lib read them; undefined where one cannot be read (or has no pages). */
let sources: (PDFDocument | undefined)[] = [];

/** An attachment pdf-lib cannot load (corrupt, encrypted, no pages) is undefined, never a failure. */
async function loadAttachment(bytes: Uint8Array): Promise<PDFDocument | undefined> {
  try {
    const pdf = await PDFDocument.load(bytes, { updateMetadata: false });
    return pdf.getPageCount() > 0 ? pdf : undefined;
  } catch {
    return undefined;
  }
}

/** A link's action that only moves within the document or opens a web or mail address. */
function harmless(action: unknown): boolean {
  if (!(action instanceof PDFDict)) return false;
  const type = action.lookup(PDFName.of("S"));
  if (!(type instanceof PDFName)) return false;
  if (type.asString() === "/GoTo" || type.asString() === "/Named") return !action.has(PDFName.of("Next"));
  if (type.asString() !== "/URI") return false;
  const uri = action.lookup(PDFName.of("URI"));
  const text = uri instanceof PDFString || uri instanceof PDFHexString ? uri.decodeText() : "";
  return /^(https?:|mailto:)/i.test(text.trim()) && !action.has(PDFName.of("Next"));
}

/**
 * Copies every page of `from`, without what could run when the report is opened (decision 042): a page's
 * additional actions (`/AA`), and its annotations' actions and additional actions (a link's `/A` may be
 * JavaScript or a launch). Only pages are copied, so the attachment's document-level scripts (`/OpenAction`,
 * `/Names /JavaScript`) never come along. Files stored before uploads were checked for scripts may hold them.
 */
async function appendAll(into: PDFDocument, from: PDFDocument): Promise<void> {
  const pages = await into.copyPages(from, from.getPageIndices());
  for (const page of pages) {
    page.node.delete(PDFName.of("AA"));
    const annots = page.node.lookup(PDFName.of("Annots"));
    if (annots instanceof PDFArray) {
      for (const ref of annots.asArray()) {
        const annot = into.context.lookup(ref);
        if (!(annot instanceof PDFDict)) continue;
        annot.delete(PDFName.of("AA"));
        const action = annot.lookup(PDFName.of("A"));
        if (action !== undefined && !harmless(action)) annot.delete(PDFName.of("A"));
      }
    }
    into.addPage(page);
  }
}

/**
 * The report (loaded with `updateMetadata: false`, so it keeps pdfkit's title) followed by each
 * readable attachment's pages, or by the notice the parent drew for one that is not (none: the
 * report's own pages already say so).
 */
async function merge(report: Uint8Array, notices: (Uint8Array | null)[]): Promise<MergeReply> {
  const merged = await PDFDocument.load(report, { updateMetadata: false });
  for (let i = 0; i < sources.length; i++) {
    const src = sources[i];
    if (src) {
      try {
        await appendAll(merged, src);
        continue;
      } catch {
        // Read but not copyable: from now on it counts as unreadable, and the parent draws again.
        sources[i] = undefined;
        return { type: "uncopyable", index: i };
      }
    }
    const notice = notices[i];
    if (notice) await appendAll(merged, await PDFDocument.load(notice));
  }
  return { type: "done", pdf: await merged.save() };
}

export async function handle(msg: MergeRequest): Promise<MergeReply> {
  try {
    if (msg.type === "load") {
      sources = [];
      for (const bytes of msg.attachments) sources.push(await loadAttachment(bytes));
      return { type: "pages", pages: sources.map((s) => s?.getPageCount() ?? null) };
    }
    return await merge(msg.report, msg.notices);
  } catch (e) {
    return { type: "failed", message: e instanceof Error ? e.message : String(e) };
  }
}
