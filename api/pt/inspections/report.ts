import { drawFields, drawHeading, drawSignatureBlock, FONT, type PdfDoc, renderPdf } from "../../lib/pdf.ts";
import type { PdfLogo } from "../../lib/pdf_logo.ts";
import { formatDate, formatPressure, formatUt, today } from "../../../lib/format.ts";
import { mergePdfs } from "../../lib/pdf_merge.ts";
import {
  companyBlock,
  customFields,
  drawJobBlock,
  drawReportLogo,
  type ReportCompany,
  yesNo,
} from "../jobs/report.ts";
import type { Inspection, Job } from "../../../db/schema/mod.ts";
import { drawMedia, type ReportMedia } from "./report_media.ts";

export interface InspectionReportData {
  inspection: Inspection;
  part: { name: string; description: string; manufacturer: string } | null;
  job: Job;
  inspectionCompany: ReportCompany;
  customer: ReportCompany;
  operator: ReportCompany;
  printedAt?: Date;
  /** The company's time zone: the printed date is its today, the signature's time its clock. */
  timeZone?: string;
  /** The photos and the inspector's signature, drawn after the job. */
  media?: ReportMedia;
  /** The inspection company's logo (api/lib/pdf_logo.ts), at the head of the first page. */
  logo?: PdfLogo;
}

/** What the report says about the pressure-test PDF, and what follows its own pages. */
export type AttachmentState =
  | { kind: "none" }
  | { kind: "appended"; name: string; pages: number }
  | { kind: "unreadable"; name: string };

export const ATTACHMENT_NOTICE = "The attached pressure-test PDF could not be included in this report.";

function attachmentText(a: AttachmentState): string {
  switch (a.kind) {
    case "none":
      return "None";
    case "appended":
      return `${a.name} (${a.pages} page${a.pages === 1 ? "" : "s"}, appended after this report: ` +
        `the last ${a.pages === 1 ? "page" : `${a.pages} pages`} of this file)`;
    case "unreadable":
      return `${a.name} (could not be included, see the last page)`;
  }
}

/** `custom.pressure_test_pdf` is a derived link, not a field of the inspection. */
const withoutLink = ({ pressure_test_pdf: _link, ...rest }: Record<string, unknown>) => rest;

function drawReport(doc: PdfDoc, d: InspectionReportData, attachment: AttachmentState) {
  const { inspection: i, job, part } = d;
  drawReportLogo(doc, d.logo);
  drawHeading(doc, `Inspection Report: ${i.serial_number || `#${i.id}`}`, 16);
  doc.font(FONT).fontSize(8).fillColor("#555")
    .text(`Printed ${formatDate(today(d.printedAt ?? new Date(), d.timeZone ?? "UTC"))}`);
  doc.moveDown(0.6);
  drawFields(doc, [
    ["Inspection Company", companyBlock(d.inspectionCompany)],
    ["Customer", companyBlock(d.customer)],
    ["Operator", companyBlock(d.operator)],
  ], { columns: 3 });
  doc.moveDown(0.4);

  drawHeading(doc, "Part", 12);
  drawFields(doc, [
    ["Part Name", part?.name ?? ""],
    ["Part Description", part?.description ?? ""],
    ["Manufacturer", part?.manufacturer ?? ""],
  ], { columns: 3 });
  doc.moveDown(0.4);

  drawHeading(doc, "Inspection", 12);
  drawFields(doc, [
    ["Date", formatDate(i.date)],
    ["Serial Number", i.serial_number],
    ["Batch", i.batch],
    ["Pass Visual?", yesNo(i.visual_pass)],
    ["UT 1", formatUt(i.ut_1)],
    ["UT 2", formatUt(i.ut_2)],
    ["UT 3", formatUt(i.ut_3)],
    ["Pressure", formatPressure(i.pressure)],
    ["Band Color", i.band_color ?? ""],
    ["MPI Result", i.mpi_result ?? ""],
    ...customFields(withoutLink(i.custom ?? {})),
  ], { columns: 4 });
  drawFields(doc, [
    ["Notes", i.notes],
    ["Pressure Test PDF", attachmentText(attachment)],
  ], { columns: 1 });
  doc.moveDown(0.4);

  drawHeading(doc, `Job ${job.job_number}`, 12);
  drawJobBlock(doc, job, { dateLabel: "Job Date" });
  drawMedia(doc, d.media, d.timeZone ?? "UTC");
  // Signed on a device (decision 024): drawMedia showed the signature, who and when. Otherwise a block to sign.
  if (!d.media?.signature) {
    doc.moveDown(1);
    drawSignatureBlock(doc, [{ role: "Inspector", name: job.inspector }]);
  }

  if (attachment.kind === "unreadable") {
    doc.addPage();
    drawHeading(doc, "Pressure Test PDF", 14);
    doc.font(FONT).fontSize(11).fillColor("black").text(ATTACHMENT_NOTICE);
    doc.moveDown(0.5);
    doc.font(FONT).fontSize(10).fillColor("#555").text(
      `The file "${attachment.name}" is damaged or protected. It can still be opened on its own from ` +
        "the PT link of the inspection table.",
    );
  }
}

/** The Inspection Report's own pages: Letter portrait, 40 pt margins, numbered. */
export function renderInspectionReport(
  d: InspectionReportData,
  attachment: AttachmentState = { kind: "none" },
  opts: { compress?: boolean } = {},
): Promise<Uint8Array> {
  const title = `Inspection Report ${d.inspection.serial_number || d.inspection.id}`;
  return renderPdf((doc) => drawReport(doc, d, attachment), {
    title,
    compress: opts.compress,
    runningHeader: `${title} (continued)`,
    // The appended pressure-test PDF's pages are part of the file: "Page 1 of 3" (decision 044).
    pagesAfter: attachment.kind === "appended" ? attachment.pages : 0,
  });
}

/**
 * The report with the pressure-test PDF's pages appended: the pdfkit pages first, then a copy of
 * every page of the attachment (pdf-lib, off the request thread: api/lib/pdf_merge.ts). An attachment
 * that cannot be read or copied never fails the report: it ends with a page saying so instead. 429 when
 * too many merges are under way, 422 when one takes too long.
 */
export function renderInspectionReportWithAttachment(
  d: InspectionReportData,
  file?: { name: string; data: Uint8Array },
): Promise<Uint8Array> {
  if (!file) return renderInspectionReport(d);
  // The report states the attachment's page count, so it is drawn once the worker has read the file.
  return mergePdfs(
    [file.data],
    async ([pages]) =>
      pages === null ? await renderInspectionReport(d, { kind: "unreadable", name: file.name }) : {
        report: await renderInspectionReport(d, { kind: "appended", name: file.name, pages }),
        notices: [null],
        footers: { labels: [`Pressure test PDF ${file.name}`], whole: true },
      },
  );
}
