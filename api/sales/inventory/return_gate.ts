// The return gate's two writes (decision 027): the hold a check-in puts on a Serialized unit, and its
// release by a passing inspection. Both run inside the caller's write transaction and audit the rows.
import { and, eq, sql } from "drizzle-orm";
import type { Tx } from "../../../db/client.ts";
import { type Inspection, inspections, inventory } from "../../../db/schema/mod.ts";
import type { CurrentUser } from "../../lib/context.ts";
import { nowStamp } from "../../lib/db_helpers.ts";
import { AWAITING_INSPECTION } from "../../../lib/return_gate.ts";
import { recordAudits } from "./audit.ts";
import { inJson } from "../../../db/in_json.ts";

/** The columns a check-in held by the gate sets on the unit, and what its audit row says. */
export const HOLD = { status: "Repair", held_for_inspection: true } as const;
export const HOLD_AUDIT = { calculated_inventory_status: AWAITING_INSPECTION };

/**
 * A status set by hand (form or batch upload) replaces the gate's hold: the flag survives only while
 * the status stays what it was, so a later inspection never releases a unit someone chose to keep.
 */
export const keepHoldIf = (status: string | null | undefined) =>
  status === undefined || status === null ? undefined : sql<
    boolean
  >`case when ${inventory.status} = ${status} then ${inventory.held_for_inspection} else 0 end`;

/** What decides an inspection's outcome; a save that changes none of it records no new result. */
export type InspectionResult = Pick<
  Inspection,
  "id" | "serial_number" | "visual_pass" | "mpi_result" | "pressure_test_file_id"
>;

/**
 * Passes: nothing failed (visual not false, MPI not Fail) and something passed: the visual check, or
 * a pressure test on file (a batch records passed pressure tests with their PDF; it has no visual).
 */
export function inspectionPasses(r: InspectionResult): boolean {
  if (r.visual_pass === false || r.mpi_result === "Fail") return false;
  return r.visual_pass === true || r.pressure_test_file_id !== null;
}

const resultKey = (r: InspectionResult) =>
  JSON.stringify([r.serial_number.toLowerCase(), r.visual_pass, r.mpi_result, r.pressure_test_file_id]);

/** The rows this save made pass: new, or their result changed, and passing now. */
export function newlyPassed(before: Map<number, InspectionResult>, after: InspectionResult[]) {
  return after.filter((r) => {
    const old = before.get(r.id);
    return r.serial_number !== "" && inspectionPasses(r) && (!old || resultKey(old) !== resultKey(r));
  });
}

const CHUNK = 400;
const RESULT_FIELDS = {
  id: inspections.id,
  serial_number: inspections.serial_number,
  visual_pass: inspections.visual_pass,
  mpi_result: inspections.mpi_result,
  pressure_test_file_id: inspections.pressure_test_file_id,
};

/** The results of these inspections, by id. */
export async function inspectionResults(tx: Tx, ids: number[]): Promise<Map<number, InspectionResult>> {
  const out = new Map<number, InspectionResult>();
  for (let i = 0; i < ids.length; i += CHUNK) {
    const rows = await tx.select(RESULT_FIELDS).from(inspections)
      .where(inJson(inspections.id, ids.slice(i, i + CHUNK)));
    for (const r of rows) out.set(r.id, r);
  }
  return out;
}

/**
 * Units the gate holds (Repair, flagged) with the serial of a passing inspection, ignoring case,
 * become Available, each audited "Released by inspection #id (job N)". Answers how many.
 */
export async function releaseHeld(
  tx: Tx,
  user: Pick<CurrentUser, "id" | "name">,
  passed: InspectionResult[],
  jobNumber: string,
): Promise<number> {
  const bySerial = new Map(passed.map((r) => [r.serial_number.toLowerCase(), r]));
  // SQLite's nocase folds ASCII only: compare the serials as entered, not lower-cased.
  const serials = [...bySerial.values()].map((r) => r.serial_number);
  const released: { id: number; serial_number: string }[] = [];
  for (let i = 0; i < serials.length; i += CHUNK) {
    released.push(
      ...await tx.update(inventory)
        .set({
          status: "Available",
          held_for_inspection: false,
          updated_by_id: user.id,
          updated_at: nowStamp(),
        })
        .where(and(
          eq(inventory.held_for_inspection, true),
          eq(inventory.status, "Repair"),
          inJson(sql`${inventory.serial_number} collate nocase`, serials.slice(i, i + CHUNK)),
        ))
        .returning({ id: inventory.id, serial_number: inventory.serial_number }),
    );
  }
  await recordAudits(
    tx,
    user,
    released.map((u) => ({
      inventoryId: u.id,
      action: `Released by inspection #${bySerial.get(u.serial_number.toLowerCase())?.id} (job ${jobNumber})`,
      quantityChange: 0,
    })),
  );
  return released.length;
}
