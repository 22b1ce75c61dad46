import { and, count, sql } from "drizzle-orm";
import { z } from "zod";
import { inspections, inventory } from "../../db/schema/mod.ts";
import type { Ctx } from "../lib/context.ts";
import { parse } from "../lib/validate.ts";
import { inspectionScope } from "../pt/inspections/service/query.ts";
import { can } from "../../lib/policy.ts";
import { AppError, invalid } from "../../lib/errors.ts";
import { MAX_CODE, serialFromCode } from "../../lib/serial_code.ts";

/** GET /api/scan: `code` is what was scanned or typed (a label's URL or a serial number). */
export const ScanQuery = z.object({
  code: z.string({ error: "Scan a label or type a serial number." }).max(MAX_CODE),
});

export interface ScanResult {
  serial: string;
  /** inventory rows with the serial (0 for a user who cannot see the inventory) */
  inventory: number;
  /** inspections of the serial in the user's scope */
  inspections: number;
}

/** The serial is not repeated: an answer carries only what the caller may see. */
export const UNKNOWN_SERIAL = "No record of this serial number was found.";

/**
 * The serial a scan names, if the user can see any record of it: inventory rows (sales staff) or
 * inspections (in the user's scope, as the inspection lists); 404 otherwise, so a label of another business
 * or a mistyped serial reads as unknown.
 */
export async function lookUpScan(ctx: Ctx, input: unknown): Promise<ScanResult> {
  const q = parse(ScanQuery, input);
  const code = serialFromCode(q.code);
  if ("error" in code) throw invalid("code", code.error);
  const { serial } = code;
  const same = (col: typeof inventory.serial_number | typeof inspections.serial_number) =>
    sql`${col} = ${serial} collate nocase`;
  const [stock, inspected] = await Promise.all([
    can(ctx.user, "sales.read")
      ? ctx.db.select({ n: count() }).from(inventory).where(same(inventory.serial_number)).get()
      : undefined,
    ctx.db.select({ n: count() }).from(inspections)
      .where(and(same(inspections.serial_number), inspectionScope(ctx.user))).get(),
  ]);
  const result = { serial, inventory: stock?.n ?? 0, inspections: inspected?.n ?? 0 };
  if (!result.inventory && !result.inspections) throw new AppError("not_found", UNKNOWN_SERIAL);
  return result;
}
