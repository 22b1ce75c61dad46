import { and, asc, eq } from "drizzle-orm";
import { timeZoneOf } from "../../../../lib/format.ts";
import {
  files,
  inspection_photos,
  inspection_signatures,
  inspections,
  jobs,
  parts,
} from "../../../../db/schema/mod.ts";
import type { Ctx } from "../../../lib/context.ts";
import { AppError } from "../../../../lib/errors.ts";
import { pdfResponse } from "../../../lib/pdf.ts";
import { readFile } from "../../../files/service.ts";
import { renderInspectionReportWithAttachment } from "../report.ts";
import type { ReportMedia } from "../report_media.ts";
import { inspectionScope } from "./query.ts";
import { jobParties } from "../../jobs/service/job_parties.ts";

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

/** The inspection's photos (in order) and signature with their bytes; the caller has checked its scope. */
async function mediaFor(ctx: Ctx, id: number): Promise<ReportMedia> {
  const [photos, signature] = await Promise.all([
    ctx.db.select({
      data: files.data,
      caption: inspection_photos.caption,
      width: inspection_photos.width,
      height: inspection_photos.height,
    }).from(inspection_photos).innerJoin(files, eq(files.id, inspection_photos.file_id))
      .where(eq(inspection_photos.inspection_id, id))
      .orderBy(asc(inspection_photos.position), asc(inspection_photos.id)),
    ctx.db.select({
      data: files.data,
      width: inspection_signatures.width,
      height: inspection_signatures.height,
      signer_name: inspection_signatures.signer_name,
      signed_at: inspection_signatures.signed_at,
    }).from(inspection_signatures).innerJoin(files, eq(files.id, inspection_signatures.file_id))
      .where(eq(inspection_signatures.inspection_id, id)).get(),
  ]);
  const bytes = <T extends { data: Uint8Array }>(r: T) => ({ ...r, data: new Uint8Array(r.data) });
  return { photos: photos.map(bytes), signature: signature ? bytes(signature) : null };
}

/**
 * GET /api/pt/inspections/{id}/report: the Inspection Report PDF (the inspection, its part and job)
 * with its photos and signature, the pressure-test PDF's pages appended, shown inline; 404 outside the
 * user's scope.
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
  const [parties, file, media] = await Promise.all([
    jobParties(ctx, job),
    attachmentOf(ctx, inspection.pressure_test_file_id),
    mediaFor(ctx, inspection.id),
  ]);
  const bytes = await renderInspectionReportWithAttachment({
    inspection,
    part: row.part,
    job,
    ...parties,
    timeZone: timeZoneOf(ctx.user.company.settings),
    media,
  }, file);
  return pdfResponse(bytes, `Inspection-${inspection.serial_number || inspection.id}.pdf`);
}
