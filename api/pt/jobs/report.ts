import {
  drawFields,
  drawHeading,
  drawSignatureBlock,
  drawTable,
  FONT,
  type PdfColumn,
  type PdfDoc,
  renderPdf,
} from "../../lib/pdf.ts";
import { drawLogo, type PdfLogo } from "../../lib/pdf_logo.ts";
import { formatDate, formatPressure, formatUt, today } from "../../../lib/format.ts";
import type { JobRow } from "./schemas.ts";

/** A company as the report prints it: the name and the address lines kept in `custom`. */
export interface ReportCompany {
  name: string;
  custom: Record<string, unknown>;
}

export interface ReportInspection {
  date: string;
  serial_number: string;
  batch: string;
  part: string | null;
  visual_pass: boolean | null;
  ut_1: number | null;
  ut_2: number | null;
  ut_3: number | null;
  pressure: number | null;
  band_color: string | null;
  mpi_result: string | null;
  notes: string;
}

export interface JobReportData {
  job: JobRow;
  inspectionCompany: ReportCompany;
  customer: ReportCompany;
  operator: ReportCompany;
  /** In the order printed. */
  inspections: ReportInspection[];
  printedAt?: Date;
  /** The company's time zone: the printed date is its today. */
  timeZone?: string;
  /** The inspection company's logo (api/lib/pdf_logo.ts), at the head of the first page. */
  logo?: PdfLogo;
}

const INSPECTION_COLUMNS: PdfColumn[] = [
  { header: "Date", width: 8.5 },
  { header: "Serial Number", width: 11 },
  { header: "Batch", width: 8 },
  { header: "Part", width: 12 },
  { header: "Visual", width: 5 },
  { header: "UT 1", width: 5, align: "right" },
  { header: "UT 2", width: 5, align: "right" },
  { header: "UT 3", width: 5, align: "right" },
  { header: "Pressure", width: 7.5, align: "right" },
  { header: "Band Color", width: 8 },
  { header: "MPI", width: 8.5 },
  { header: "Notes", width: 16.5 },
];

export const yesNo = (b: boolean | null) => (b === null || b === undefined ? "" : b ? "Yes" : "No");

/** The name and address lines of a company, one per line. */
export function companyBlock(c: ReportCompany): string {
  const lines = [c.custom.address_line_1, c.custom.address_line_2, c.custom.address_line_3]
    .filter((l): l is string => typeof l === "string" && l.trim() !== "");
  return [c.name, ...lines].join("\n");
}

/** The job's own `custom` entries that read as text (anything nested is not a printable field). */
export function customFields(custom: Record<string, unknown>): [string, string][] {
  return Object.entries(custom)
    .filter(([, v]) => ["string", "number", "boolean"].includes(typeof v) && String(v).trim() !== "")
    .map(([k, v]) => [
      k.replace(/[_-]+/g, " ").replace(/\b\w/g, (c) => c.toUpperCase()),
      typeof v === "boolean" ? (v ? "Yes" : "No") : String(v),
    ]);
}

export function inspectionCells(i: ReportInspection): string[] {
  return [
    formatDate(i.date),
    i.serial_number,
    i.batch,
    i.part ?? "",
    yesNo(i.visual_pass),
    formatUt(i.ut_1),
    formatUt(i.ut_2),
    formatUt(i.ut_3),
    formatPressure(i.pressure),
    i.band_color ?? "",
    i.mpi_result ?? "",
    i.notes,
  ];
}

/** The logo at the head of a report's first page, the heading below it. */
export function drawReportLogo(doc: PdfDoc, logo: PdfLogo | undefined): void {
  if (!logo) return;
  const top = doc.y;
  if (drawLogo(doc, logo, doc.page.margins.left, top)) doc.y = top + logo.height + 8;
  doc.x = doc.page.margins.left;
}

/** The job's fields a report prints. */
export type ReportJob = Pick<
  JobRow,
  | "job_number"
  | "date"
  | "district"
  | "inspector"
  | "uv_serial_number"
  | "uv_recalibration_date"
  | "blacklight_reading"
  | "ut_serial_number"
  | "ut_recalibration_date"
  | "comments"
  | "custom"
>;

/**
 * The job block of the PT reports (the Job Report and each Inspection Report): the job's fields in four
 * columns, its own custom fields, then its comments. Each report keeps the label it has always printed for
 * the job's date ("Date" on the Job Report, "Job Date" on the Inspection Report): the reports are drawn
 * again on every reprint, and a report once sent must read the same (api/pt/reprint_test.ts).
 */
export function drawJobBlock(doc: PdfDoc, job: ReportJob, o: { dateLabel: "Date" | "Job Date" }): void {
  drawFields(doc, [
    ["Job Number", job.job_number],
    [o.dateLabel, formatDate(job.date)],
    ["District", job.district],
    ["Inspector", job.inspector],
    ["UV Serial Number", job.uv_serial_number],
    ["UV Recalibration Date", formatDate(job.uv_recalibration_date)],
    ["Blacklight Reading", job.blacklight_reading],
    ["UT Serial Number", job.ut_serial_number],
    ["UT Recalibration Date", formatDate(job.ut_recalibration_date)],
    ...customFields(job.custom ?? {}),
  ], { columns: 4 });
  drawFields(doc, [["Comments", job.comments]], { columns: 1 });
}

function drawReport(doc: PdfDoc, d: JobReportData) {
  const { job } = d;
  drawReportLogo(doc, d.logo);
  drawHeading(doc, `Job Report: ${job.job_number}`, 16);
  doc.font(FONT).fontSize(8).fillColor("#555")
    .text(`Printed ${formatDate(today(d.printedAt ?? new Date(), d.timeZone ?? "UTC"))}`);
  doc.moveDown(0.6);
  drawFields(doc, [
    ["Inspection Company", companyBlock(d.inspectionCompany)],
    ["Customer", companyBlock(d.customer)],
    ["Operator", companyBlock(d.operator)],
  ], { columns: 3 });
  doc.moveDown(0.4);
  drawJobBlock(doc, job, { dateLabel: "Date" });
  doc.moveDown(0.6);
  drawHeading(doc, `Inspections (${d.inspections.length})`, 12);
  drawTable(doc, INSPECTION_COLUMNS, d.inspections.map(inspectionCells), {
    fontSize: 9,
    emptyText: "No Inspections Found",
  });
  doc.moveDown(1);
  drawSignatureBlock(doc, [{ role: "Inspector", name: job.inspector }]);
}

/** The Job Report PDF: Letter landscape (the inspections table is wide), 40 pt margins, numbered pages. */
export function renderJobReport(d: JobReportData, opts: { compress?: boolean } = {}): Promise<Uint8Array> {
  return renderPdf((doc) => drawReport(doc, d), {
    layout: "landscape",
    title: `Job Report ${d.job.job_number}`,
    runningHeader: `Job Report ${d.job.job_number} (continued)`,
    compress: opts.compress,
  });
}
