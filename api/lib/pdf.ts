import PDFDocument from "pdfkit";

/**
 * Small pdfkit helpers shared by the report PDFs: a document with the house page setup, its bytes,
 * a labelled field grid, a table that repeats its header on every page, page numbers (figures and
 * dates are formatted by lib/format.ts).
 *
 * pdfkit ships no type declarations; `PdfDoc` is the part of its API these reports use.
 */
export interface PdfTextOptions {
  width?: number;
  height?: number;
  align?: "left" | "center" | "right" | "justify";
  lineBreak?: boolean;
  ellipsis?: boolean | string;
  continued?: boolean;
}

export interface PdfDoc {
  page: {
    width: number;
    height: number;
    margins: { top: number; bottom: number; left: number; right: number };
  };
  x: number;
  y: number;
  info: Record<string, unknown>;
  font(name: string): PdfDoc;
  fontSize(size: number): PdfDoc;
  text(text: string, x?: number, y?: number, options?: PdfTextOptions): PdfDoc;
  text(text: string, options?: PdfTextOptions): PdfDoc;
  heightOfString(text: string, options?: PdfTextOptions): number;
  moveDown(lines?: number): PdfDoc;
  addPage(): PdfDoc;
  rect(x: number, y: number, w: number, h: number): PdfDoc;
  /** A JPEG or PNG, scaled to fit inside `fit` (width, height) keeping its proportions. */
  image(
    src: Uint8Array,
    x: number,
    y: number,
    options: {
      fit: [number, number];
      align?: "left" | "center" | "right";
      valign?: "top" | "center" | "bottom";
    },
  ): PdfDoc;
  fill(color?: string): PdfDoc;
  fillColor(color: string): PdfDoc;
  strokeColor(color: string): PdfDoc;
  lineWidth(w: number): PdfDoc;
  moveTo(x: number, y: number): PdfDoc;
  lineTo(x: number, y: number): PdfDoc;
  stroke(): PdfDoc;
  bufferedPageRange(): { start: number; count: number };
  switchToPage(n: number): PdfDoc;
  on(event: "data", fn: (chunk: Uint8Array) => void): PdfDoc;
  on(event: "end", fn: () => void): PdfDoc;
  on(event: "error", fn: (e: unknown) => void): PdfDoc;
  end(): void;
}

export interface PdfOptions {
  /** Default US Letter; a pair is [width, height] in points (label stock). */
  size?: "LETTER" | "A4" | [number, number];
  layout?: "portrait" | "landscape";
  /** Default 40 points on every side. */
  margin?: number;
  title?: string;
  /** pdfkit deflates content streams by default; false leaves them readable (debugging). */
  compress?: boolean;
  /** "Page n of m" at the foot of every page (default true). */
  pageNumbers?: boolean;
  /**
   * Pages appended to these after rendering (an attachment's, api/lib/pdf_merge.ts): counted in "of m", so
   * the footer numbers the whole file the reader gets.
   */
  pagesAfter?: number;
  /**
   * A line at the head of every page after the first (the document and its number): a continuation page
   * says what it continues.
   */
  runningHeader?: string;
}

export const FONT = "Helvetica";
export const FONT_BOLD = "Helvetica-Bold";

/** A US Letter document with 40 pt margins, pages buffered so page numbers can be added at the end. */
export function createPdf(opts: PdfOptions = {}): PdfDoc {
  const doc = new PDFDocument({
    size: opts.size ?? "LETTER",
    layout: opts.layout ?? "portrait",
    margin: opts.margin ?? 40,
    compress: opts.compress ?? true,
    bufferPages: true,
    info: opts.title ? { Title: opts.title } : {},
  }) as unknown as PdfDoc;
  doc.font(FONT).fontSize(10);
  return doc;
}

/** The document's bytes once `doc.end()` has been called; listen before drawing anything. */
export function collectPdf(doc: PdfDoc): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  return new Promise((resolve, reject) => {
    doc.on("data", (c) => chunks.push(c));
    doc.on("error", reject);
    doc.on("end", () => {
      const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
      let at = 0;
      for (const c of chunks) {
        out.set(c, at);
        at += c.length;
      }
      resolve(out);
    });
  });
}

/** Creates a document, lets `draw` fill it, numbers the pages and answers the finished bytes. */
export async function renderPdf(
  draw: (doc: PdfDoc) => void | Promise<void>,
  opts: PdfOptions = {},
): Promise<Uint8Array> {
  const doc = createPdf(opts);
  const bytes = collectPdf(doc);
  await draw(doc);
  if (opts.runningHeader) addRunningHeader(doc, opts.runningHeader);
  if (opts.pageNumbers ?? true) addPageNumbers(doc, opts.pagesAfter ?? 0);
  doc.end();
  return await bytes;
}

/** An `application/pdf` answer; inline opens in the browser's viewer, attachment downloads. */
export function pdfResponse(bytes: Uint8Array, fileName: string, disposition = "inline"): Response {
  return new Response(bytes as BodyInit, {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `${disposition}; filename="${safeFileName(fileName)}"`,
      "Cache-Control": "private, no-store",
    },
  });
}

/** A file name safe inside a quoted header value and on any file system. */
export function safeFileName(name: string): string {
  return name.replace(/[^A-Za-z0-9._ -]/g, "_").slice(0, 150) || "document.pdf";
}

// The standard fonts speak WinAnsi: Latin-1 plus these. Anything else would print as mojibake.
const WIN_ANSI_EXTRA = new Set("€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ");

/** Text the standard fonts can print: characters outside WinAnsi become "?". */
export function pdfSafe(text: string | null | undefined): string {
  let out = "";
  for (const ch of text ?? "") {
    const code = ch.codePointAt(0)!;
    const ok = ch === "\n" || (code >= 0x20 && code < 0x7f) || (code >= 0xa0 && code <= 0xff) ||
      WIN_ANSI_EXTRA.has(ch);
    out += ok ? ch : ch === "\t" ? " " : ch === "\r" ? "" : "?";
  }
  return out;
}

const contentWidth = (doc: PdfDoc) => doc.page.width - doc.page.margins.left - doc.page.margins.right;
const pageBottom = (doc: PdfDoc) => doc.page.height - doc.page.margins.bottom;

/** A bold title line and a thin rule under it. */
export function drawHeading(doc: PdfDoc, text: string, size = 14): void {
  const left = doc.page.margins.left;
  if (doc.y + size * 3 > pageBottom(doc)) doc.addPage();
  doc.font(FONT_BOLD).fontSize(size).fillColor("black").text(pdfSafe(text), left, doc.y, {
    width: contentWidth(doc),
  });
  const y = doc.y + 2;
  doc.moveTo(left, y).lineTo(left + contentWidth(doc), y).lineWidth(0.75).strokeColor("#555").stroke();
  doc.x = left;
  doc.y = y + 6;
}

/**
 * Labelled values in a grid of `columns` cells per row: a small grey label above each value. Values
 * wrap within their cell; a row that no longer fits starts a new page.
 */
export function drawFields(
  doc: PdfDoc,
  fields: [label: string, value: string][],
  opts: { columns?: number; fontSize?: number } = {},
): void {
  const columns = opts.columns ?? 3;
  const size = opts.fontSize ?? 10;
  const left = doc.page.margins.left;
  const cell = contentWidth(doc) / columns;
  const inner = cell - 8;
  const safe = fields.map(([label, value]) => [pdfSafe(label), pdfSafe(value)]);
  for (let i = 0; i < safe.length; i += columns) {
    const row = safe.slice(i, i + columns);
    const heights = row.map(([label, value]) => {
      const l = doc.font(FONT_BOLD).fontSize(size - 2).heightOfString(label, { width: inner });
      return l + doc.font(FONT).fontSize(size).heightOfString(value || " ", { width: inner });
    });
    const h = Math.max(...heights) + 6;
    if (doc.y + h > pageBottom(doc)) doc.addPage();
    const y = doc.y;
    row.forEach(([label, value], j) => {
      const x = left + j * cell;
      doc.font(FONT_BOLD).fontSize(size - 2).fillColor("#555").text(label, x, y, { width: inner });
      doc.font(FONT).fontSize(size).fillColor("black").text(value || "-", x, doc.y, { width: inner });
    });
    doc.x = left;
    doc.y = y + h;
  }
}

export interface PdfColumn {
  header: string;
  /** Relative width: the columns share the page's content width in these proportions. */
  width: number;
  align?: "left" | "center" | "right";
}

/**
 * A table with a shaded header row that is repeated at the top of every page it runs onto. Cells
 * wrap; a cell taller than half a page is cut with an ellipsis so one row never outgrows a page.
 */
export function drawTable(
  doc: PdfDoc,
  columns: PdfColumn[],
  rows: string[][],
  opts: { fontSize?: number; emptyText?: string } = {},
): void {
  const size = opts.fontSize ?? 9;
  const pad = 3;
  const left = doc.page.margins.left;
  const total = columns.reduce((n, c) => n + c.width, 0);
  const widths = columns.map((c) => (c.width / total) * contentWidth(doc));
  const maxRow = (pageBottom(doc) - doc.page.margins.top) / 2;

  const heightOf = (cells: string[], font: string) => {
    doc.font(font).fontSize(size);
    const h = Math.max(...cells.map((t, i) => doc.heightOfString(t || " ", { width: widths[i] - 2 * pad })));
    return Math.min(h, maxRow) + 2 * pad;
  };
  const drawRow = (cells: string[], font: string, h: number, fill?: string) => {
    const y = doc.y;
    if (fill) doc.rect(left, y, contentWidth(doc), h).fill(fill);
    let x = left;
    cells.forEach((t, i) => {
      doc.font(font).fontSize(size).fillColor("black").text(t ?? "", x + pad, y + pad, {
        width: widths[i] - 2 * pad,
        height: h - 2 * pad,
        align: columns[i].align ?? "left",
        ellipsis: true,
      });
      x += widths[i];
    });
    doc.moveTo(left, y + h).lineTo(left + contentWidth(doc), y + h).lineWidth(0.5).strokeColor("#999")
      .stroke();
    doc.x = left;
    doc.y = y + h;
  };
  const headers = columns.map((c) => pdfSafe(c.header));
  const headerHeight = heightOf(headers, FONT_BOLD);
  const header = () => drawRow(headers, FONT_BOLD, headerHeight, "#e4e4e4");

  const first = rows.length ? heightOf(rows[0].map(pdfSafe), FONT) : size * 2;
  if (doc.y + headerHeight + first > pageBottom(doc)) doc.addPage();
  header();
  if (!rows.length && opts.emptyText) {
    doc.font(FONT).fontSize(size).fillColor("black").text(pdfSafe(opts.emptyText), left + pad, doc.y + pad);
    doc.x = left;
    return;
  }
  rows.map((r) => r.map(pdfSafe)).forEach((cells, i) => {
    const h = heightOf(cells, FONT);
    if (doc.y + h > pageBottom(doc)) {
      doc.addPage();
      header();
    }
    drawRow(cells, FONT, h, i % 2 ? "#f6f6f6" : undefined);
  });
}

/**
 * "Page n of m" centred in the bottom margin of every buffered page; m counts `after` pages appended to
 * the file later.
 */
export function addPageNumbers(doc: PdfDoc, after = 0): void {
  const { start, count } = doc.bufferedPageRange();
  const total = count + Math.max(0, after);
  for (let i = start; i < start + count; i++) {
    doc.switchToPage(i);
    const { margins } = doc.page;
    const bottom = margins.bottom;
    // Writing inside the bottom margin would otherwise make pdfkit start a new page.
    margins.bottom = 0;
    doc.font(FONT).fontSize(8).fillColor("#555").text(
      `Page ${i - start + 1} of ${total}`,
      margins.left,
      doc.page.height - bottom / 2 - 4,
      { width: contentWidth(doc), align: "center", lineBreak: false },
    );
    margins.bottom = bottom;
  }
}

/** `text` at the head of every buffered page but the first, in the top margin: "Invoice INV-00012 (continued)". */
export function addRunningHeader(doc: PdfDoc, text: string): void {
  const { start, count } = doc.bufferedPageRange();
  for (let i = start + 1; i < start + count; i++) {
    doc.switchToPage(i);
    const { margins } = doc.page;
    const top = margins.top;
    // Writing inside the top margin: pdfkit would otherwise move the text down to it.
    margins.top = 0;
    const y = Math.max(8, top / 2 - 5);
    doc.font(FONT_BOLD).fontSize(9).fillColor("#333").text(pdfSafe(text), margins.left, y, {
      width: contentWidth(doc),
      lineBreak: false,
      ellipsis: true,
    });
    doc.moveTo(margins.left, y + 12).lineTo(margins.left + contentWidth(doc), y + 12).lineWidth(0.5)
      .strokeColor("#999").stroke();
    margins.top = top;
  }
}

/**
 * A signature block: for each signer, a line to sign on with their role and name under it, and a line for
 * the date. `signed` fills a signer's date (a captured signature is drawn by its report, not here).
 */
export function drawSignatureBlock(
  doc: PdfDoc,
  signers: { role: string; name: string; date?: string }[],
): void {
  const left = doc.page.margins.left;
  const width = contentWidth(doc);
  const height = 64;
  if (doc.y + height > pageBottom(doc)) doc.addPage();
  const cell = Math.min(width / Math.max(1, signers.length), 360);
  const y = doc.y + 28;
  signers.forEach((s, i) => {
    const x = left + i * cell;
    const sign = cell * 0.58, date = cell * 0.3;
    doc.moveTo(x, y).lineTo(x + sign, y).lineWidth(0.75).strokeColor("#333").stroke();
    doc.moveTo(x + sign + 10, y).lineTo(x + sign + 10 + date, y).stroke();
    if (s.date) {
      doc.font(FONT).fontSize(10).fillColor("black").text(pdfSafe(s.date), x + sign + 10, y - 13, {
        width: date,
        lineBreak: false,
      });
    }
    doc.font(FONT_BOLD).fontSize(8).fillColor("#555").text(pdfSafe(`${s.role} signature`), x, y + 3, {
      width: sign,
      lineBreak: false,
    });
    doc.font(FONT).fontSize(9).fillColor("black").text(pdfSafe(s.name || " "), x, y + 13, {
      width: sign,
      lineBreak: false,
      ellipsis: true,
    });
    doc.font(FONT_BOLD).fontSize(8).fillColor("#555").text("Date", x + sign + 10, y + 3, {
      width: date,
      lineBreak: false,
    });
  });
  doc.x = left;
  doc.y = y + 28;
}
