// The ticket, quote and invoice document (decision 015): seller and buyer, numbers, dates, terms and
// due date, one row per printed line with its days, amount before tax, tax and total, one "Other
// charges" row for lines hidden from printing, totals that are the sums of those rows, remit-to.
import { addDays, formatDate, formatNumber, money, serviceDates, unitPrice } from "../../../lib/format.ts";
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
import { drawLogo, PDF_LOGO_HEIGHT } from "../../lib/pdf_logo.ts";
import type { DocumentSettings } from "./document_settings.ts";
import type { PrintedLines, PrintLine } from "./printed_lines.ts";

export type DocumentTitle = "Quote" | "Ticket" | "Invoice";

export interface TicketDocumentData extends PrintedLines {
  title: DocumentTitle;
  /**
   * The seller: its name and logo (a PNG, JPEG or SVG's bytes, api/lib/pdf_logo.ts) and the logo's height in
   * points (50 when not given).
   */
  company: { name: string; logo?: Uint8Array; logoHeight?: number };
  settings: DocumentSettings;
  ticket_number: string;
  invoice_number: string | null;
  ticket_date: string;
  invoice_date: string | null;
  customer: { name: string; address: string[] };
  sales_rep: string;
  business_unit: string;
  location: string;
  use_min_rate_logic: boolean;
  notes: string;
  /** An invoice issued again after re-opening (decision 040): its revision and the day it was issued. */
  revision?: { number: number; date: string; draft?: boolean } | null;
}

const percent = (n: number | null) => (n ? `${formatNumber(n)}%` : "");
const right = "right" as const;

function columns(d: TicketDocumentData, markup: boolean): PdfColumn[] {
  const minRate = d.use_min_rate_logic;
  return [
    { header: "Item", width: 24 },
    { header: "Dates", width: 12 },
    { header: "Qty", width: 6, align: right },
    ...(minRate ? [{ header: "Min Rate", width: 9, align: right }] : []),
    { header: minRate ? "Addl. Days" : "Days", width: 7, align: right },
    { header: minRate ? "Addl. Day Rate" : "Rate", width: 9, align: right },
    ...(markup ? [{ header: "Markup", width: 8, align: right }] : []),
    { header: "Disc.", width: 6, align: right },
    { header: "Amount", width: 11, align: right },
    { header: "Tax", width: 9, align: right },
    { header: "Total", width: 11, align: right },
  ];
}

function lineCells(d: TicketDocumentData, l: PrintLine, markup: boolean): string[] {
  const tz = d.settings.timeZone;
  const item = [
    l.item_number,
    l.description,
    ...(l.serial ? [`Serial ${l.serial}`] : []),
    ...(l.notes ? [`Note: ${l.notes}`] : []),
  ].join("\n");
  const dates = [formatDate(l.start_date, tz), ...(l.end_date ? [`to ${formatDate(l.end_date, tz)}`] : [])];
  return [
    item,
    dates.join("\n"),
    formatNumber(l.quantity),
    ...(d.use_min_rate_logic ? [unitPrice(l.minimum_rate)] : []),
    formatNumber(l.days),
    unitPrice(l.price),
    ...(markup ? [percent(l.markup)] : []),
    percent(l.discount),
    money(l.amount),
    money(l.tax),
    money(l.total),
  ];
}

function otherCells(d: TicketDocumentData, markup: boolean): string[] {
  const o = d.other!;
  const blanks = columns(d, markup).length - 4;
  const what = `Other charges\n${o.count} ${o.count === 1 ? "line" : "lines"} not itemized`;
  return [what, ...Array(blanks).fill(""), money(o.amount), money(o.tax), money(o.total)];
}

function drawHeader(doc: PdfDoc, d: TicketDocumentData) {
  const left = doc.page.margins.left;
  const top = doc.y;
  // Checked before it is drawn (pdf_logo.ts): an oversized or unreadable logo is left out, never a failure.
  const height = d.company.logoHeight ?? PDF_LOGO_HEIGHT;
  const logoWidth = d.company.logo ? drawLogo(doc, { data: d.company.logo, height }, left, top, 160) : 0;
  const textLeft = logoWidth ? left + logoWidth + 10 : left;
  doc.font(FONT_BOLD).fontSize(16).fillColor("black").text(pdfSafe(d.company.name), textLeft, top, {
    width: 260,
  });
  for (const line of d.settings.address) {
    doc.font(FONT).fontSize(9).text(pdfSafe(line), textLeft, doc.y, { width: 260 });
  }
  const below = doc.y;
  doc.font(FONT_BOLD).fontSize(20).text(d.title, left, top, {
    width: doc.page.width - left - doc.page.margins.right,
    align: "right",
  });
  doc.x = left;
  doc.y = Math.max(below, top + (logoWidth ? height + 6 : 30)) + 6;
}

/** Number, dates and, on an invoice with terms, the terms and due date. */
function documentFields(d: TicketDocumentData): [string, string][] {
  const terms = d.settings.termsDays;
  const fields: [string, string][] = d.title === "Quote"
    ? [["Quote #", d.ticket_number], ["Quote Date", formatDate(d.ticket_date)]]
    : [
      ...(d.invoice_number ? [["Invoice #", d.invoice_number]] as [string, string][] : []),
      ...(d.invoice_date ? [["Invoice Date", formatDate(d.invoice_date)]] as [string, string][] : []),
      ["Ticket #", d.ticket_number],
      ["Ticket Date", formatDate(d.ticket_date)],
    ];
  // A quote has no service yet; a ticket or invoice spans its lines' dates, open while a line is out.
  const service = d.title === "Quote" ? "" : serviceDates(d.lines, (v) => formatDate(v, d.settings.timeZone));
  if (service) fields.push(["Service Dates", service]);
  if (d.title === "Invoice" && d.revision && d.revision.number > 0) {
    fields.push([
      "Revision",
      d.revision.draft
        ? `Rev. ${d.revision.number}, draft: not issued`
        : `Rev. ${d.revision.number}, ${formatDate(d.revision.date)}`,
    ]);
  }
  if (d.title === "Invoice" && terms !== null) {
    fields.push(["Terms", terms === 0 ? "Due on receipt" : `Net ${terms} ${terms === 1 ? "day" : "days"}`]);
    if (d.invoice_date) fields.push(["Due Date", formatDate(addDays(d.invoice_date, terms))]);
  }
  return fields;
}

function drawTotals(doc: PdfDoc, d: TicketDocumentData) {
  const t = d.totals;
  const rows: [string, number, boolean?][] = [
    ["Subtotal", t.subtotal],
    ...(t.markup ? [["Markup", t.markup]] as [string, number][] : []),
    ...(t.discount ? [["Discount", -t.discount]] as [string, number][] : []),
    ["Amount before tax", t.net],
    ["State Tax", t.state_tax],
    ["County Tax", t.county_tax],
    ["City Tax", t.city_tax],
    [d.title === "Invoice" ? "Total Due" : "Total", t.grandtotal, true],
  ];
  const right = doc.page.width - doc.page.margins.right;
  if (doc.y + rows.length * 14 > doc.page.height - doc.page.margins.bottom) doc.addPage();
  for (const [label, value, bold] of rows) {
    const y = doc.y;
    const font = bold ? FONT_BOLD : FONT;
    doc.font(font).fontSize(10).fillColor("black").text(label, right - 240, y, { width: 130 });
    doc.font(font).fontSize(10).text(money(value), right - 110, y, { width: 110, align: "right" });
    doc.y = y + 14;
  }
  doc.x = doc.page.margins.left;
}

function drawDocument(doc: PdfDoc, d: TicketDocumentData) {
  drawHeader(doc, d);
  drawFields(doc, documentFields(d), { columns: 4 });
  doc.moveDown(0.4);
  drawFields(doc, [
    [d.title === "Quote" ? "Customer" : "Bill To", [d.customer.name, ...d.customer.address].join("\n")],
    ["Location", d.location],
    ["Sales Rep", d.sales_rep],
    ["Business Unit", d.business_unit],
  ], { columns: 4 });
  doc.moveDown(0.6);
  drawHeading(doc, "Items", 12);
  const markup = d.lines.some((l) => l.markup);
  const rows = d.lines.map((l) => lineCells(d, l, markup));
  if (d.other) rows.push(otherCells(d, markup));
  drawTable(doc, columns(d, markup), rows, { fontSize: 8, emptyText: "No Items Found" });
  doc.moveDown(0.8);
  drawTotals(doc, d);
  const remit = d.title === "Invoice" ? d.settings.remitTo : [];
  if (remit.length) {
    doc.moveDown(0.8);
    drawFields(doc, [["Remit To", remit.join("\n")]], { columns: 1 });
  }
  if (d.notes.trim()) {
    doc.moveDown(0.8);
    drawFields(doc, [["Notes", d.notes]], { columns: 1 });
  }
}

/**
 * The ticket's own pages: Letter portrait, 40 pt margins, numbered; every page after the first is headed with
 * the document, its number and the customer, so a continuation page (a long table's rest, the totals) stands on
 * its own.
 */
export function renderTicketDocument(d: TicketDocumentData): Promise<Uint8Array> {
  const number = d.title === "Invoice" ? d.invoice_number ?? d.ticket_number : d.ticket_number;
  const revision = d.title === "Invoice" && d.revision && d.revision.number > 0
    ? ` Rev. ${d.revision.number}`
    : "";
  return renderPdf((doc) => drawDocument(doc, d), {
    title: `${d.title} ${number}`,
    runningHeader: `${d.title} ${number}${revision} (continued) - ${d.customer.name}`,
  });
}
