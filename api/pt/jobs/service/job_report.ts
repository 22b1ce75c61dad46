import { asc, eq } from "drizzle-orm";
import { timeZoneOf } from "../../../../lib/format.ts";
import { inspections, parts } from "../../../../db/schema/mod.ts";
import type { Ctx } from "../../../lib/context.ts";
import { pdfResponse } from "../../../lib/pdf.ts";
import { renderJobReport } from "../report.ts";
import { getJob } from "./list_jobs.ts";
import { jobParties } from "./job_parties.ts";

/** GET /api/pt/jobs/{id}/report: the Job Report PDF, shown inline; 404 outside the user's scope. */
export async function jobReport(ctx: Ctx, id: number): Promise<Response> {
  const job = await getJob(ctx, id);
  const [parties, rows] = await Promise.all([
    jobParties(ctx, job),
    ctx.db.select({
      date: inspections.date,
      serial_number: inspections.serial_number,
      batch: inspections.batch,
      part: parts.name,
      visual_pass: inspections.visual_pass,
      ut_1: inspections.ut_1,
      ut_2: inspections.ut_2,
      ut_3: inspections.ut_3,
      pressure: inspections.pressure,
      band_color: inspections.band_color,
      mpi_result: inspections.mpi_result,
      notes: inspections.notes,
    }).from(inspections).leftJoin(parts, eq(parts.id, inspections.part_id))
      .where(eq(inspections.job_id, job.id))
      .orderBy(asc(inspections.date), asc(inspections.inspection_time), asc(inspections.id)),
  ]);
  const bytes = await renderJobReport({
    job,
    ...parties,
    inspections: rows,
    timeZone: timeZoneOf(ctx.user.company.settings),
  });
  return pdfResponse(bytes, `Job-${job.job_number}.pdf`);
}
