import {
  degrees,
  PDFArray,
  PDFDict,
  PDFDocument,
  type PDFFont,
  PDFHexString,
  PDFName,
  type PDFPage,
  PDFString,
  rgb,
  StandardFonts,
} from "pdf-lib";

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
  | { type: "merge"; report: Uint8Array; notices: (Uint8Array | null)[]; footers?: MergeFooters };

/**
 * A line at the foot of every appended page of an attachment, so a reader knows what the page is and where
 * it stands in the file: "Page 3 of 4 - Pressure test PDF cert.pdf, page 2 of 3" (`whole`: the report's own
 * pages are numbered against the whole file) or "Attachment cert.pdf, page 2 of 3".
 */
export interface MergeFooters {
  /** Each attachment's label, in order. */
  labels: string[];
  whole: boolean;
}

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
async function appendAll(into: PDFDocument, from: PDFDocument): Promise<PDFPage[]> {
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
  return pages;
}

/** The standard fonts speak WinAnsi: anything else in a label becomes "?". */
const winAnsi = (s: string) => s.replace(/[^\x20-\x7e\xa0-\xff]/g, "?");

/** `text` small and grey, centred in the bottom 14 points of the page's visible box, whatever its rotation. */
function stampFooter(page: PDFPage, font: PDFFont, text: string) {
  const box = page.getCropBox();
  const size = 7;
  const rotation = ((page.getRotation().angle % 360) + 360) % 360;
  // The width along the reader's bottom edge: a page turned 90 degrees shows its height there.
  const across = rotation === 90 || rotation === 270 ? box.height : box.width;
  const line = font.widthOfTextAtSize(text, size) > across - 20 ? `${text.slice(0, 120)}...` : text;
  const w = Math.min(font.widthOfTextAtSize(line, size), across - 20);
  const at = (across - w) / 2;
  // Placed on the reader's bottom edge in the page's own coordinates, turned with the page.
  const [x, y, angle] = rotation === 90
    ? [box.x + box.width - 8, box.y + at, 90]
    : rotation === 180
    ? [box.x + box.width - at, box.y + box.height - 8, 180]
    : rotation === 270
    ? [box.x + 8, box.y + box.height - at, 270]
    : [box.x + at, box.y + 6, 0];
  page.drawText(line, {
    x,
    y,
    size,
    font,
    color: rgb(0.33, 0.33, 0.33),
    rotate: degrees(angle),
  });
}

/**
 * The report (loaded with `updateMetadata: false`, so it keeps pdfkit's title) followed by each
 * readable attachment's pages, or by the notice the parent drew for one that is not (none: the
 * report's own pages already say so).
 */
async function merge(
  report: Uint8Array,
  notices: (Uint8Array | null)[],
  footers?: MergeFooters,
): Promise<MergeReply> {
  const merged = await PDFDocument.load(report, { updateMetadata: false });
  const appended: [index: number, first: number, pages: PDFPage[]][] = [];
  for (let i = 0; i < sources.length; i++) {
    const src = sources[i];
    if (src) {
      try {
        const first = merged.getPageCount();
        appended.push([i, first, await appendAll(merged, src)]);
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
  if (footers && appended.length) {
    const font = await merged.embedFont(StandardFonts.Helvetica);
    const total = merged.getPageCount();
    for (const [i, first, pages] of appended) {
      pages.forEach((page, k) => {
        const own = `${footers.labels[i] ?? "Attachment"}, page ${k + 1} of ${pages.length}`;
        const whole = `Page ${first + k + 1} of ${total} - `;
        stampFooter(page, font, winAnsi(footers.whole ? whole + own : own));
      });
    }
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
    return await merge(msg.report, msg.notices, msg.footers);
  } catch (e) {
    return { type: "failed", message: e instanceof Error ? e.message : String(e) };
  }
}
