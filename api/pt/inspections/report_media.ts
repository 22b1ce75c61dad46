import { Buffer } from "node:buffer";
import { drawHeading, FONT, FONT_BOLD, type PdfDoc, pdfSafe } from "../../lib/pdf.ts";
import { formatDateTime } from "../../../lib/format.ts";

/** An inspection's images as the report draws them: bytes read from `files`, sizes from the upload. */
export interface ReportImage {
  data: Uint8Array;
  width: number;
  height: number;
}

export interface ReportMedia {
  photos: (ReportImage & { caption: string })[];
  signature: (ReportImage & { signer_name: string; signed_at: string }) | null;
}

export const PHOTO_UNREADABLE = "This photo could not be shown.";

/** Two photos a row, each at most this tall: four to a Letter page with their captions. */
const COLUMNS = 2;
const GAP = 12;
const PHOTO_HEIGHT = 250;
const SIGNATURE_BOX: [number, number] = [220, 80];

const contentWidth = (doc: PdfDoc) => doc.page.width - doc.page.margins.left - doc.page.margins.right;
const pageBottom = (doc: PdfDoc) => doc.page.height - doc.page.margins.bottom;

/** The box an image of w x h takes when scaled to fit `box` (never enlarged past its own size). */
function fitted(img: ReportImage, [boxW, boxH]: [number, number]): [number, number] {
  const scale = Math.min(boxW / img.width, boxH / img.height, 1);
  return [img.width * scale, img.height * scale];
}

/**
 * Draws an image, or a grey note where it would be: a damaged file (stored before a check tightened,
 * or cut short) must not fail the whole report.
 */
function drawImage(doc: PdfDoc, img: ReportImage, x: number, y: number, box: [number, number]) {
  const [w, h] = fitted(img, box);
  try {
    doc.image(Buffer.from(img.data.buffer, img.data.byteOffset, img.data.byteLength), x, y, { fit: [w, h] });
  } catch {
    doc.rect(x, y, w, h).fill("#eeeeee");
    doc.font(FONT).fontSize(9).fillColor("#555").text(PHOTO_UNREADABLE, x + 4, y + 4, { width: w - 8 });
  }
  return h;
}

/** A row of photos: the captions under them and the height it takes. */
function rowOf(doc: PdfDoc, photos: ReportMedia["photos"], first: number, cell: number) {
  const row = photos.slice(first, first + COLUMNS);
  const captions = row.map((p, j) => pdfSafe(`${first + j + 1}. ${p.caption}`.trim()));
  const captionH = Math.max(
    ...captions.map((c) => doc.font(FONT).fontSize(9).heightOfString(c, { width: cell })),
  );
  const imageH = Math.max(...row.map((p) => fitted(p, [cell, PHOTO_HEIGHT])[1]));
  return { row, captions, imageH, height: imageH + captionH + 4 };
}

/** The photos, two a row with the caption under each, a row moving to the next page when it does not fit. */
function drawPhotos(doc: PdfDoc, photos: ReportMedia["photos"]) {
  const left = doc.page.margins.left;
  const cell = (contentWidth(doc) - GAP * (COLUMNS - 1)) / COLUMNS;
  // The heading stays with the first row.
  if (doc.y + 30 + rowOf(doc, photos, 0, cell).height > pageBottom(doc)) doc.addPage();
  drawHeading(doc, `Photos (${photos.length})`, 12);
  for (let i = 0; i < photos.length; i += COLUMNS) {
    const { row, captions, imageH, height } = rowOf(doc, photos, i, cell);
    if (doc.y + height > pageBottom(doc)) doc.addPage();
    const y = doc.y;
    row.forEach((p, j) => {
      const x = left + j * (cell + GAP);
      drawImage(doc, p, x, y, [cell, PHOTO_HEIGHT]);
      doc.font(FONT).fontSize(9).fillColor("black").text(captions[j], x, y + imageH + 3, { width: cell });
    });
    doc.x = left;
    doc.y = y + height - 4 + GAP;
  }
}

/** The signature image with who signed and when, on the company's clock. */
function drawSignature(doc: PdfDoc, signature: NonNullable<ReportMedia["signature"]>, timeZone: string) {
  const left = doc.page.margins.left;
  if (doc.y + SIGNATURE_BOX[1] + 60 > pageBottom(doc)) doc.addPage();
  drawHeading(doc, "Inspector's Signature", 12);
  const y = doc.y;
  const h = drawImage(doc, signature, left, y, SIGNATURE_BOX);
  doc.moveTo(left, y + h + 2).lineTo(left + SIGNATURE_BOX[0], y + h + 2).lineWidth(0.75).strokeColor("#555")
    .stroke();
  doc.font(FONT_BOLD).fontSize(10).fillColor("black")
    .text(pdfSafe(`Signed by ${signature.signer_name}`), left, y + h + 6, { width: contentWidth(doc) });
  doc.font(FONT).fontSize(9).fillColor("#555")
    .text(`on ${formatDateTime(signature.signed_at, timeZone, "page")} (${timeZone})`, {
      width: contentWidth(doc),
    });
  doc.x = left;
}

/** The report's Photos and Signature sections, after the job; nothing when the inspection has neither. */
export function drawMedia(doc: PdfDoc, media: ReportMedia | undefined, timeZone: string): void {
  if (!media) return;
  if (media.photos.length) {
    doc.moveDown(0.6);
    drawPhotos(doc, media.photos);
  }
  if (media.signature) {
    doc.moveDown(0.6);
    drawSignature(doc, media.signature, timeZone);
  }
}
