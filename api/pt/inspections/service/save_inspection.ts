import { and, eq } from "drizzle-orm";
import { inspections } from "../../../../db/schema/mod.ts";
import type { Ctx, CurrentUser } from "../../../lib/context.ts";
import type { Tx } from "../../../../db/client.ts";
import { AppError } from "../../../../lib/errors.ts";
import { requireAbility } from "../../../../lib/policy.ts";
import { parse } from "../../../lib/validate.ts";
import { nowStamp } from "../../../lib/db_helpers.ts";
import { idempotencyOf, once } from "../../../lib/idempotency.ts";
import { InspectionInput, InspectionUpdateInput } from "../schemas.ts";
import { inspectionResults, newlyPassed, releaseHeld } from "../../../sales/inventory/return_gate.ts";
import { getInspection, type InspectionOut, inspectionScope, jobInScope, requirePartOf } from "./query.ts";
import { requireMatch } from "../../../lib/preconditions.ts";

const hasId = (raw: Record<string, unknown>) => raw.id !== undefined && raw.id !== null && raw.id !== "";

type Saved = InspectionOut & { message: string };

/**
 * POST /api/pt/inspections (creates; with an id updates) and PATCH (updates). Inspectors enter
 * inspections, job-admins edit them; the companies always come from the job. On an update an absent
 * field is left as stored. A POST with an `Idempotency-Key` is applied once (api/lib/idempotency.ts). A save
 * that records a pass releases units held by the return gate.
 */
export async function saveInspection(
  ctx: Ctx,
  body: unknown,
  opts: { update?: boolean; idempotencyKey?: string } = {},
): Promise<Saved> {
  const raw = (body && typeof body === "object" ? body : {}) as Record<string, unknown>;
  const updating = opts.update || hasId(raw);
  requireAbility(ctx.user, "pt.write");
  requireAbility(ctx.user, updating ? "inspections.edit" : "inspections.enter");
  const input = parse(updating ? InspectionUpdateInput : InspectionInput, raw);
  const idem = await idempotencyOf(opts.idempotencyKey, "POST /api/pt/inspections", input);
  const message = updating ? "Inspection updated" : "Inspection created";
  // The answer is read inside the transaction: a keyed request stores it with its key.
  return await ctx.tdb.write((tx) =>
    once(tx, ctx.user.id, idem, async () => {
      const { id, released } = await writeInspection(tx, ctx, input);
      return {
        ...await getInspection(tx, id),
        message: released ? `${message}; ${released} released from Repair` : message,
      };
    })
  );
}

/** The row's insert or update; its id, and how many units the return gate released. */
async function writeInspection(
  tx: Tx,
  ctx: Ctx,
  input: InspectionInput,
): Promise<{ id: number; released: number }> {
  const user: CurrentUser = ctx.user;
  const current = input.id
    ? await tx.select().from(inspections)
      .where(and(eq(inspections.id, input.id), inspectionScope(user))).get()
    : undefined;
  if (input.id && !current) throw new AppError("not_found", "Inspection not found.");
  if (current) await requireMatch(ctx, current.version, () => getInspection(tx, current.id));
  const job = await jobInScope(tx, user, input.job_id);
  const partId = input.part_id === undefined ? current?.part_id : input.part_id;
  if (partId) await requirePartOf(tx, job, partId);
  const { pressure_test_pdf: _derived, ...custom } = input.custom ?? {};
  const values = {
    job_id: job.id,
    inspection_company_id: job.inspection_company_id,
    customer_company_id: job.customer_company_id,
    operator_company_id: job.operator_company_id,
    date: input.date,
    serial_number: input.serial_number,
    batch: input.batch,
    part_id: input.part_id,
    visual_pass: input.visual_pass,
    ut_1: input.ut_1,
    ut_2: input.ut_2,
    ut_3: input.ut_3,
    pressure: input.pressure,
    band_color: input.band_color,
    mpi_result: input.mpi_result,
    notes: input.notes,
    custom: input.custom === undefined ? undefined : custom,
  };
  let id = current?.id;
  if (!current) {
    [{ id }] = await tx.insert(inspections).values(values).returning({ id: inspections.id });
  } else {
    await tx.update(inspections).set({ ...values, updated_at: nowStamp() }).where(
      eq(inspections.id, current.id),
    );
  }
  // A passing result releases the units the return gate holds with this serial, in this transaction.
  const after = [...(await inspectionResults(tx, [id!])).values()];
  const before = new Map(current ? [[current.id, current]] : []);
  return { id: id!, released: await releaseHeld(tx, user, newlyPassed(before, after), job.job_number) };
}

/** DELETE /api/pt/inspections/{id}: job-admins of the inspection company, within their scope. */
export async function deleteInspection(ctx: Ctx, id: number): Promise<{ message: string }> {
  requireAbility(ctx.user, "pt.write");
  requireAbility(ctx.user, "inspections.edit");
  await ctx.tdb.write(async (tx) => {
    const current = await tx.select({ id: inspections.id, version: inspections.version }).from(inspections)
      .where(and(eq(inspections.id, id), inspectionScope(ctx.user))).get();
    if (!current) throw new AppError("not_found", "Inspection not found.");
    await requireMatch(ctx, current.version, () => getInspection(tx, id));
    await tx.delete(inspections).where(eq(inspections.id, id));
  });
  return { message: "Inspection deleted" };
}
