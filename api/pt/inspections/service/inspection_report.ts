import { and, eq, inArray } from "drizzle-orm";
import { timeZoneOf } from "../../../../lib/format.ts";
import { companies, inspections, jobs, parts } from "../../../../db/schema/mod.ts";
import type { Ctx } from "../../../lib/context.ts";
import { AppError } from "../../../../lib/errors.ts";
import { pdfResponse } from "../../../lib/pdf.ts";
import { readFile } from "../../../files/service.ts";
import { renderInspectionReportWithAttachment } from "../report.ts";
import { inspectionScope } from "./query.ts";

/** The stored pressure-test PDF through the files access rule; a vanished file is treated as none. */
async function attachmentOf(ctx: Ctx, fileId: number | null) {
  if (!fileId) return undefined;
  try {
    const file = await readFile(ctx, fileId);
    return { name: file.name, data: new Uint8Array(file.data) };
  } catch (e) {
    if (e instanceof AppError && e.code === "not_found") return undefined;
    throw e;
  }
}

/**
 * GET /api/pt/inspections/{id}/report: the Inspection Report PDF (the inspection, its part and job)
 * with the pressure-test PDF's pages appended, shown inline; 404 outside the user's scope.
 */
export async function inspectionReport(ctx: Ctx, id: number): Promise<Response> {
  const row = await ctx.db.select({
    inspection: inspections,
    part: { name: parts.name, description: parts.description, manufacturer: parts.manufacturer },
  }).from(inspections)
    .leftJoin(parts, eq(parts.id, inspections.part_id))
    .where(and(eq(inspections.id, id), inspectionScope(ctx.user))).get();
  if (!row) throw new AppError("not_found", "Inspection not found.");
  const { inspection } = row;
  const job = await ctx.db.select().from(jobs).where(eq(jobs.id, inspection.job_id)).get();
  if (!job) throw new AppError("not_found", "Inspection not found.");
  const ids = [job.inspection_company_id, job.customer_company_id, job.operator_company_id];
  const [found, file] = await Promise.all([
    ctx.db.select({ id: companies.id, name: companies.name, custom: companies.custom }).from(companies)
      .where(inArray(companies.id, ids)),
    attachmentOf(ctx, inspection.pressure_test_file_id),
  ]);
  const company = (cid: number) => found.find((c) => c.id === cid) ?? { name: "", custom: {} };
  const bytes = await renderInspectionReportWithAttachment({
    inspection,
    part: row.part,
    job,
    inspectionCompany: company(job.inspection_company_id),
    customer: company(job.customer_company_id),
    operator: company(job.operator_company_id),
    timeZone: timeZoneOf(ctx.user.company.settings),
  }, file);
  return pdfResponse(bytes, `Inspection-${inspection.serial_number || inspection.id}.pdf`);
}
