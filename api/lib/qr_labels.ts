import encodeQR from "qr";
import { z } from "zod";
import { yieldToEventLoop } from "../../lib/event_loop.ts";
import { LABEL_SHEET_IDS, LABEL_SHEETS, type LabelSheet, type LabelSheetId } from "../../lib/label_sheets.ts";
import { serialUrl } from "../../lib/serial_code.ts";
import { FONT, FONT_BOLD, type PdfDoc, pdfResponse, pdfSafe, renderPdf } from "./pdf.ts";

/**
 * QR label sheets (issue 13): each label holds a QR code of the serial's page URL (lib/serial_code.ts),
 * the serial number and the item (or part) beside it, laid out on the chosen stock (lib/label_sheets.ts).
 */
export interface QrLabel {
  serial: string;
  /** the item number of an inventory row, the part of an inspection */
  item: string;
}

export const SHEET_MESSAGE = `Must be one of ${LABEL_SHEET_IDS.join(", ")}`;
/** The `size` of a labels request: the label stock. */
export const LabelSheetParam = z.enum(LABEL_SHEET_IDS, { error: SHEET_MESSAGE });

/** Modules of white around the code: with the label's padding it makes the quiet zone scanners need. */
const BORDER = 2;

/**
 * The code's dark modules as one path of rectangles, a rectangle per run of dark modules along a row
 * (a third of the operators one square each would take), filled once.
 */
function drawQr(doc: PdfDoc, text: string, x: number, y: number, side: number): void {
  const matrix = encodeQR(text, "raw", { ecc: "medium", border: BORDER });
  const m = side / matrix.length;
  matrix.forEach((row, r) => {
    for (let c = 0; c < row.length; c++) {
      if (!row[c]) continue;
      const start = c;
      while (c + 1 < row.length && row[c + 1]) c++;
      doc.rect(x + start * m, y + r * m, (c - start + 1) * m, m);
    }
  });
  doc.fill("black");
}

/** The largest font size from `max` down to 6 at which `text` fits `lines` lines of `width`. */
function fitSize(doc: PdfDoc, font: string, text: string, width: number, max: number, lines: number) {
  let size = max;
  while (size > 6 && doc.font(font).fontSize(size).heightOfString(text, { width }) > size * 1.2 * lines) {
    size--;
  }
  return size;
}

/**
 * One label at (x, y): the code at its left, the serial (bold, up to two lines) and the item at its right,
 * each shrunk to fit before anything is cut.
 */
function drawLabel(doc: PdfDoc, sheet: LabelSheet, label: QrLabel, origin: string, x: number, y: number) {
  const [w, h] = sheet.label;
  const pad = Math.min(6, h * 0.08);
  const side = Math.min(h - 2 * pad, w * 0.42);
  drawQr(doc, serialUrl(origin, label.serial), x + pad, y + (h - side) / 2, side);
  const base = Math.max(8, Math.min(12, h / 8));
  const textX = x + side + 2 * pad;
  const width = w - side - 3 * pad;
  const serial = pdfSafe(label.serial);
  const item = pdfSafe(label.item);
  const serialSize = fitSize(doc, FONT_BOLD, serial, width, base, 2);
  const itemSize = fitSize(doc, FONT, item, width, base - 1, 1);
  const serialHeight = Math.min(
    doc.font(FONT_BOLD).fontSize(serialSize).heightOfString(serial, { width }),
    serialSize * 2.4,
  );
  const itemHeight = item ? itemSize * 1.2 : 0;
  const top = y + Math.max(pad, (h - serialHeight - itemHeight) / 2);
  doc.fillColor("black").text(serial, textX, top, { width, height: serialHeight, ellipsis: true });
  if (item) {
    doc.font(FONT).fontSize(itemSize).fillColor("#333")
      .text(item, textX, top + serialHeight, { width, height: itemHeight, ellipsis: true, lineBreak: false });
  }
}

/**
 * The labels' PDF, each code the serial's page at `origin` (the tenant's, `publicOrigin`), a page of
 * `sheet` at a time; the event loop gets a turn after each page, so a run of
 * the most labels (MAX_LABELS) never holds other requests for more than one page's drawing.
 */
export async function renderQrLabels(labels: QrLabel[], sheetId: LabelSheetId, origin: string) {
  const sheet: LabelSheet = LABEL_SHEETS[sheetId];
  const perPage = sheet.columns * sheet.rows;
  return await renderPdf(async (doc) => {
    for (let i = 0; i < labels.length; i++) {
      const slot = i % perPage;
      if (i > 0 && slot === 0) {
        await yieldToEventLoop();
        doc.addPage();
      }
      const col = slot % sheet.columns;
      const row = Math.floor(slot / sheet.columns);
      drawLabel(
        doc,
        sheet,
        labels[i],
        origin,
        sheet.left + col * sheet.pitch[0],
        sheet.top + row * sheet.pitch[1],
      );
    }
  }, { size: sheet.page, margin: 0, pageNumbers: false, title: "QR labels" });
}

/** The labels as a PDF download named after what they label. */
export async function qrLabelsResponse(
  labels: QrLabel[],
  sheetId: LabelSheetId,
  origin: string,
  name: string,
) {
  return pdfResponse(await renderQrLabels(labels, sheetId, origin), `${name} QR labels.pdf`, "attachment");
}
