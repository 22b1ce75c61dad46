import { and, eq, ne, sql } from "drizzle-orm";
import { z } from "zod";
import { inspections, parts } from "../../../../db/schema/mod.ts";
import type { Ctx } from "../../../lib/context.ts";
import { id, parse } from "../../../lib/validate.ts";
import { LabelSheetParam, qrLabelsResponse } from "../../../lib/qr_labels.ts";
import { publicOrigin } from "../../../lib/public_origin.ts";
import { AppError } from "../../../../lib/errors.ts";
import { MAX_LABELS } from "../../../../lib/label_sheets.ts";
import { jobInScope } from "./query.ts";

export const NO_SERIALS_MESSAGE = "This job has no inspections with a serial number yet.";
export const TOO_MANY_MESSAGE = `A job's labels print at most ${MAX_LABELS} serial numbers at a time.`;

/** GET /api/pt/inspections/labels: one label per serial number inspected on the job. */
export const JobLabelsQuery = z.object({
  job_id: id("Must be a job id", { coerce: true }),
  size: LabelSheetParam,
});

/**
 * The QR labels of a job's serial numbers (each once, whatever its case; the part of its latest
 * inspection beside it), in serial order, for whoever sees the job. The codes link to the tenant's public
 * origin, else to `origin`, the request's (decision 047).
 */
export async function jobLabels(ctx: Ctx, input: unknown, origin: string): Promise<Response> {
  const q = parse(JobLabelsQuery, input);
  const job = await jobInScope(ctx.db, ctx.user, q.job_id);
  const serial = sql`${inspections.serial_number} collate nocase`;
  // SQLite takes a bare column's value from the row max() picked: the part of the latest inspection.
  const rows = await ctx.db.select({
    serial: inspections.serial_number,
    item: sql<string | null>`${parts.name}`,
    latest: sql`max(${inspections.inspection_time})`,
  }).from(inspections).leftJoin(parts, eq(parts.id, inspections.part_id))
    .where(and(eq(inspections.job_id, job.id), ne(inspections.serial_number, "")))
    .groupBy(serial).orderBy(serial).limit(MAX_LABELS + 1);
  if (!rows.length) throw new AppError("not_found", NO_SERIALS_MESSAGE);
  if (rows.length > MAX_LABELS) throw new AppError("invalid", TOO_MANY_MESSAGE);
  const labels = rows.map((r) => ({ serial: r.serial, item: r.item ?? "" }));
  return await qrLabelsResponse(labels, q.size, await publicOrigin(ctx, origin), `Job ${job.job_number}`);
}
