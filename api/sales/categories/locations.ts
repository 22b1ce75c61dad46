import { and, eq, gt, inArray } from "drizzle-orm";
import type { Tx } from "../../../db/client.ts";
import { inventory, inventory_locations } from "../../../db/schema/mod.ts";
import type { CurrentUser } from "../../lib/context.ts";
import { AppError } from "../../../lib/errors.ts";
import { recordAudit } from "../inventory/audit.ts";
import { locationProblems, type LocationRename } from "./schemas.ts";
import { inJson } from "../../../db/in_json.ts";

/** A business unit's location list as stored: trimmed and checked (422 naming the bad entry). */
export function cleanLocations(names: readonly string[]): string[] {
  const problems = locationProblems(names);
  if (problems.length) throw new AppError("invalid", problems[0].message, problems);
  return names.map((n) => n.trim());
}

function badRename(message: string): AppError {
  return new AppError("invalid", message, [{ path: "location_renames", message }]);
}

/**
 * Applies a change of a unit's location list inside the save's transaction. A rename moves the
 * stock held at the old name to the new one (audited per inventory row); a location dropped from the
 * list must hold no stock (409), and its empty rows go with it.
 */
export async function changeLocations(
  tx: Tx,
  user: Pick<CurrentUser, "id" | "name">,
  unitId: number,
  before: readonly string[],
  after: readonly string[],
  renames: readonly LocationRename[],
): Promise<void> {
  for (const r of renames) {
    if (!before.includes(r.from) || after.includes(r.from)) {
      throw badRename(`Location ${r.from} is not being renamed.`);
    }
    if (!after.includes(r.to) || before.includes(r.to)) {
      throw badRename(`Location ${r.to} is not a new name.`);
    }
  }
  if (new Set(renames.map((r) => r.to)).size !== renames.length) {
    throw badRename("Two locations renamed alike.");
  }
  const renamed = new Set(renames.map((r) => r.from));
  const removed = before.filter((n) => !after.includes(n) && !renamed.has(n));
  const unitRows = tx.select({ id: inventory.id }).from(inventory).where(
    eq(inventory.business_unit_id, unitId),
  );

  if (removed.length) {
    const held = await tx.select({ name: inventory_locations.name }).from(inventory_locations)
      .where(and(
        inArray(inventory_locations.inventory_id, unitRows),
        inJson(inventory_locations.name, removed),
        gt(inventory_locations.quantity, 0),
      )).limit(1).get();
    if (held) throw new AppError("conflict", `Location ${held.name} still holds stock.`);
    await tx.delete(inventory_locations).where(and(
      inArray(inventory_locations.inventory_id, unitRows),
      inJson(inventory_locations.name, removed),
    ));
  }

  if (!renames.length) return;
  // Empty rows left under a new name would collide with the renamed ones.
  await tx.delete(inventory_locations).where(and(
    inArray(inventory_locations.inventory_id, unitRows),
    inJson(inventory_locations.name, renames.map((r) => r.to)),
    eq(inventory_locations.quantity, 0),
  ));
  for (const r of renames) {
    const moved = await tx.update(inventory_locations).set({ name: r.to })
      .where(and(inArray(inventory_locations.inventory_id, unitRows), eq(inventory_locations.name, r.from)))
      .returning({ inventory_id: inventory_locations.inventory_id, quantity: inventory_locations.quantity });
    for (const m of moved) {
      if (m.quantity > 0) await recordAudit(tx, user, m.inventory_id, "Location Renamed", 0);
    }
  }
}
