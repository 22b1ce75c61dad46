import { and, eq, sql } from "drizzle-orm";
import { inspections, type Job } from "../../../../db/schema/mod.ts";
import type { Tx } from "../../../../db/client.ts";
import type { Ctx, CurrentUser } from "../../../lib/context.ts";
import { invalid } from "../../../../lib/errors.ts";
import { requireAbility } from "../../../../lib/policy.ts";
import { parse } from "../../../lib/validate.ts";
import { nowStamp } from "../../../lib/db_helpers.ts";
import { pdfUpload, sha256Hex, storeFile, type Upload } from "../../../files/service.ts";
import { idempotencyOf, once } from "../../../lib/idempotency.ts";
import { BatchInput, hasPdfName, PDF_MESSAGE } from "../schemas.ts";
import { jobInScope, requirePartOf } from "./query.ts";
import { inspectionResults, newlyPassed, releaseHeld } from "../../../sales/inventory/return_gate.ts";
import { inJson } from "../../../../db/in_json.ts";

const PDF_PATH = "imageFiles.pressure_test";
/** Well under SQLite's parameter limit per statement. */
const CHUNK = 400;

export interface BatchResult {
  created: number;
  updated: number;
  message: string;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** The batch's PDF, checked before the write queue is held: name, size (413), signature (422). */
async function attachment(ctx: Ctx, input: BatchInput): Promise<Upload | undefined> {
  const source = input.imageFiles?.pressure_test;
  if (!source) return undefined;
  if (!hasPdfName(source.name)) throw invalid(PDF_PATH, PDF_MESSAGE);
  return await pdfUpload(source, ctx.config.MAX_UPLOAD_MB, PDF_PATH, PDF_MESSAGE);
}

/** The job's inspections whose serial is one of `serials`, ignoring case. */
async function existingBySerial(tx: Tx, jobId: number, serials: string[]) {
  const found = new Map<string, number[]>();
  for (let i = 0; i < serials.length; i += CHUNK) {
    const rows = await tx.select({ id: inspections.id, serial_number: inspections.serial_number })
      .from(inspections).where(and(
        eq(inspections.job_id, jobId),
        inJson(sql`${inspections.serial_number} collate nocase`, serials.slice(i, i + CHUNK)),
      ));
    for (const r of rows) {
      const key = r.serial_number.toLowerCase();
      found.set(key, [...(found.get(key) ?? []), r.id]);
    }
  }
  return found;
}

/**
 * POST /api/pt/inspections/batch: one inspection per new serial of the job; on the job's existing
 * serials the batch's part, batch name and PDF replace the stored ones (a blank one leaves them).
 * All in one transaction, the PDF stored once. With an `Idempotency-Key` it is applied once. Serials whose
 * pressure test passes (a PDF and no failed result) release the units the return gate holds with them.
 */
export async function saveBatch(
  ctx: Ctx,
  body: unknown,
  opts: { idempotencyKey?: string } = {},
): Promise<BatchResult> {
  requireAbility(ctx.user, "pt.write");
  requireAbility(ctx.user, "inspections.enter");
  const input = parse(BatchInput, body);
  const upload = await attachment(ctx, input);
  // The PDF by its content: the same file sent as JSON or as multipart is the same request.
  const pdf = upload ? { name: upload.name, sha256: await sha256Hex(upload.data) } : null;
  const request = { ...input, imageFiles: pdf };
  const idem = await idempotencyOf(opts.idempotencyKey, "POST /api/pt/inspections/batch", request);
  return await ctx.tdb.write((tx) =>
    once(tx, ctx.user.id, idem, () => writeBatch(tx, ctx.user, input, upload))
  );
}

/** The batch's inserts and updates, in the caller's transaction. */
async function writeBatch(
  tx: Tx,
  user: CurrentUser,
  input: BatchInput,
  upload: Upload | undefined,
): Promise<BatchResult> {
  const job: Job = await jobInScope(tx, user, input.job_id);
  if (input.part_id) await requirePartOf(tx, job, input.part_id);
  const fileId = upload ? await storeFile(tx, upload) : undefined;
  const overrides = {
    ...(input.batch ? { batch: input.batch } : {}),
    ...(input.part_id ? { part_id: input.part_id } : {}),
    ...(fileId ? { pressure_test_file_id: fileId } : {}),
  };
  const existing = await existingBySerial(tx, job.id, input.serial_numbers);
  const ids = [...existing.values()].flat();
  const before = await inspectionResults(tx, ids);
  if (Object.keys(overrides).length) {
    for (let i = 0; i < ids.length; i += CHUNK) {
      await tx.update(inspections).set({ ...overrides, updated_at: nowStamp() })
        .where(inJson(inspections.id, ids.slice(i, i + CHUNK)));
    }
  }
  const fresh = input.serial_numbers.filter((s) => !existing.has(s.toLowerCase())).map((serial_number) => ({
    job_id: job.id,
    inspection_company_id: job.inspection_company_id,
    customer_company_id: job.customer_company_id,
    operator_company_id: job.operator_company_id,
    date: input.date,
    serial_number,
    batch: input.batch ?? "",
    part_id: input.part_id ?? null,
    pressure_test_file_id: fileId ?? null,
  }));
  // Chunks of rows, each row a handful of parameters.
  for (let i = 0; i < fresh.length; i += 50) {
    const made = await tx.insert(inspections).values(fresh.slice(i, i + 50)).returning({
      id: inspections.id,
    });
    ids.push(...made.map((r) => r.id));
  }
  const after = [...(await inspectionResults(tx, ids)).values()];
  const released = await releaseHeld(tx, user, newlyPassed(before, after), job.job_number);
  const updated = existing.size;
  const message = `${plural(fresh.length, "inspection")} created, ${updated} updated`;
  return {
    created: fresh.length,
    updated,
    message: released ? `${message}; ${released} released from Repair` : message,
  };
}
