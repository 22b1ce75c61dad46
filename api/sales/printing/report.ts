// Attachments of a ticket document: each line's PDF appended after the document's own pages
// (ticket_document.ts draws those).
import { drawHeading, FONT, pdfSafe, renderPdf } from "../../lib/pdf.ts";
import { mergePdfs } from "../../lib/pdf_merge.ts";

export const ATTACHMENT_NOTICE = "An attached document of this ticket could not be included.";

export { logoBytes } from "./logo.ts";

function noticePage(name: string): Promise<Uint8Array> {
  return renderPdf((doc) => {
    drawHeading(doc, "Attached Document", 14);
    doc.font(FONT).fontSize(11).fillColor("black").text(ATTACHMENT_NOTICE);
    doc.moveDown(0.5);
    doc.font(FONT).fontSize(10).fillColor("#555").text(
      pdfSafe(`The file "${name}" is damaged, protected or not a PDF. It can still be opened on its own.`),
    );
  }, { pageNumbers: false });
}

/**
 * The document with each attachment's pages appended in order (pdf-lib, off the request thread:
 * api/lib/pdf_merge.ts). An attachment that cannot be read or copied becomes one notice page, never a
 * failure; 429 when too many merges are under way, 422 when one takes too long.
 */
export async function appendAttachments(
  report: Uint8Array,
  attachments: { name: string; data: Uint8Array }[],
): Promise<Uint8Array> {
  if (!attachments.length) return report;
  return await mergePdfs(attachments.map((a) => a.data), async (pages) => ({
    report,
    notices: await Promise.all(pages.map((p, i) => p === null ? noticePage(attachments[i].name) : null)),
    // The document's own pages are numbered among themselves (an issued invoice's are kept as issued,
    // decision 040): each appended page names its attachment instead.
    footers: { labels: attachments.map((a) => `Attachment ${a.name}`), whole: false },
  }));
}
