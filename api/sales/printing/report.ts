import { Buffer } from "node:buffer";
import {
  drawFields,
  drawHeading,
  drawTable,
  FONT,
  FONT_BOLD,
  type PdfColumn,
  type PdfDoc,
  pdfSafe,
  renderPdf,
} from "../../lib/pdf.ts";
import { mergePdfs } from "../../lib/pdf_merge.ts";
import { logoProblem } from "./logo.ts";
import type { TicketTotals } from "../tickets/rules.ts";
import { formatDate, money } from "../../../lib/format.ts";

export type DocumentTitle = "Quote" | "Ticket" | "Invoice";

/** A printed line: only the lines without custom.hide reach the document. */
export interface PrintLine {
  item_number: string;
  description: string;
  serial_number: string;
  start_date: string | null;
  end_date: string | null;
  quantity: number;
  price: number;
  minimum_rate: number | null;
  discount: number | null;
  total: number;
}

export interface TicketDocumentData {
  title: DocumentTitle;
  company: { name: string; logo?: Uint8Array };
  ticket_number: string;
  invoice_number: string | null;
  ticket_date: string;
  invoice_date: string | null;
  customer: { name: string; address: string[] };
  sales_rep: string;
  business_unit: string;
  location: string;
  use_min_rate_logic: boolean;
  lines: PrintLine[];
  totals: TicketTotals;
  notes: string;
}

export const ATTACHMENT_NOTICE = "An attached document of this ticket could not be included.";

const qty = (n: number | null | undefined) => (n === null || n === undefined ? "" : String(n));
const percent = (n: number | null | undefined) => (n ? `${n}%` : "0%");

export { logoBytes } from "./logo.ts";

function columns(minRate: boolean): PdfColumn[] {
  return [
    { header: "Item #", width: 10 },
    { header: "Description", width: 26 },
    { header: "Start", width: 9 },
    { header: "End", width: 9 },
    { header: "Qty", width: 6, align: "right" },
    { header: "Rate", width: 9, align: "right" },
    ...(minRate ? [{ header: "Min Rate", width: 9, align: "right" as const }] : []),
    { header: "Disc. %", width: 7, align: "right" },
    { header: "Total", width: 11, align: "right" },
  ];
}

function lineCells(l: PrintLine, minRate: boolean): string[] {
  return [
    l.item_number,
    l.serial_number ? `${l.description}\nS/N: ${l.serial_number}` : l.description,
    formatDate(l.start_date),
    formatDate(l.end_date),
    qty(l.quantity),
    money(l.price),
    ...(minRate ? [money(l.minimum_rate)] : []),
    percent(l.discount),
    money(l.total),
  ];
}

type WithImage = PdfDoc & {
  image(src: Buffer, x: number, y: number, opts: { fit: [number, number] }): PdfDoc;
};

function drawHeader(doc: PdfDoc, d: TicketDocumentData) {
  const left = doc.page.margins.left;
  const top = doc.y;
  let textLeft = left;
  // Checked before pdfkit unpacks it (logo.ts): an oversized or unreadable logo is left out.
  const logo = d.company.logo && !logoProblem(d.company.logo) ? d.company.logo : undefined;
  if (logo) {
    try {
      (doc as WithImage).image(Buffer.from(logo), left, top, { fit: [120, 50] });
      textLeft = left + 130;
    } catch {
      // An unreadable logo is left out rather than failing the document.
    }
  }
  doc.font(FONT_BOLD).fontSize(16).fillColor("black").text(pdfSafe(d.company.name), textLeft, top, {
    width: 260,
  });
  doc.font(FONT_BOLD).fontSize(20).text(d.title, left, top, {
    width: doc.page.width - left - doc.page.margins.right,
    align: "right",
  });
  doc.x = left;
  doc.y = Math.max(doc.y, top + (logo ? 56 : 30));
}

function drawDocument(doc: PdfDoc, d: TicketDocumentData) {
  drawHeader(doc, d);
  const number: [string, string][] = d.title === "Quote" ? [["Quote #", d.ticket_number]] : [
    ["Ticket #", d.ticket_number],
    ...(d.invoice_number ? [["Invoice #", d.invoice_number]] as [string, string][] : []),
  ];
  drawFields(doc, [
    ...number,
    ["Ticket Date", formatDate(d.ticket_date)],
    ...(d.title === "Invoice" || d.invoice_date
      ? [["Invoice Date", formatDate(d.invoice_date)]] as [string, string][]
      : []),
  ], { columns: 4 });
  doc.moveDown(0.4);
  drawFields(doc, [
    ["Customer", [d.customer.name, ...d.customer.address].join("\n")],
    ["Sales Rep", d.sales_rep],
    ["Business Unit", d.business_unit],
    ["Location", d.location],
  ], { columns: 4 });
  doc.moveDown(0.6);
  drawHeading(doc, "Items", 12);
  drawTable(doc, columns(d.use_min_rate_logic), d.lines.map((l) => lineCells(l, d.use_min_rate_logic)), {
    fontSize: 8,
    emptyText: "No Items Found",
  });
  doc.moveDown(0.8);

  const t = d.totals;
  const rows: [string, number][] = [
    ["Subtotal", t.subtotal],
    ["Markup", t.markup],
    ["Discount", t.discount],
    ["State Tax", t.state_tax],
    ["County Tax", t.county_tax],
    ["City Tax", t.city_tax],
    ["Total", t.grandtotal],
  ];
  const right = doc.page.width - doc.page.margins.right;
  if (doc.y + rows.length * 14 > doc.page.height - doc.page.margins.bottom) doc.addPage();
  for (const [label, value] of rows) {
    const y = doc.y;
    const font = label === "Total" ? FONT_BOLD : FONT;
    doc.font(font).fontSize(10).fillColor("black").text(label, right - 220, y, { width: 110 });
    doc.font(font).fontSize(10).text(money(value), right - 110, y, { width: 110, align: "right" });
    doc.y = y + 14;
  }
  doc.x = doc.page.margins.left;
  if (d.notes.trim()) {
    doc.moveDown(0.8);
    drawFields(doc, [["Notes", d.notes]], { columns: 1 });
  }
}

/** The ticket's own pages: Letter portrait, 40 pt margins, numbered. */
export function renderTicketDocument(d: TicketDocumentData): Promise<Uint8Array> {
  const number = d.title === "Invoice" ? d.invoice_number ?? d.ticket_number : d.ticket_number;
  return renderPdf((doc) => drawDocument(doc, d), { title: `${d.title} ${number}` });
}

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
  }));
}
