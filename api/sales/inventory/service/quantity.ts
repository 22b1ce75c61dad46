import { and, eq, sql } from "drizzle-orm";
import { inventory, items } from "../../../../db/schema/mod.ts";
import type { Ctx } from "../../../lib/context.ts";
import { AppError, type FieldError } from "../../../../lib/errors.ts";
import { parse } from "../../../lib/validate.ts";
import { nowStamp } from "../../../lib/db_helpers.ts";
import { requireAbility } from "../../../../lib/policy.ts";
import { recordAudit } from "../audit.ts";
import { belowOutMessage, QuantityPatchInput, quantityProblem } from "../schemas.ts";
import { startDueLines } from "../../lines/start_due.ts";
import { timeZoneOf } from "../../../../lib/format.ts";
import { requireBookingsFit } from "../../lines/reservations.ts";
import { inJson } from "../../../../db/in_json.ts";

const CHUNK = 400;

/**
 * PATCH /api/sales/inventory/quantity: `[{id, quantity}]` (or `{rows: [...]}`) sets each row's
 * quantity within its item type's limit and never below what is out; all rows or none. A row whose
 * quantity does not change is left alone (nothing changed, nothing to audit).
 */
export async function updateQuantities(
  ctx: Ctx,
  body: unknown,
): Promise<{ updated: number; message: string }> {
  requireAbility(ctx.user, "sales.admin");
  const raw = body && !Array.isArray(body) && typeof body === "object" && "rows" in body
    ? (body as { rows: unknown }).rows
    : body;
  const rows = parse(QuantityPatchInput, raw);
  const seen = new Set<number>();
  const repeats: FieldError[] = [];
  rows.forEach((r, i) => {
    if (seen.has(r.id)) repeats.push({ path: `${i}.id`, message: "Listed twice" });
    seen.add(r.id);
  });
  if (repeats.length) throw new AppError("invalid", `${repeats[0].path}: Listed twice`, repeats);
  const updated = await ctx.tdb.write(async (tx) => {
    // Bookings whose start has come hold their stock before this change counts it (decision 028).
    await startDueLines(tx, ctx);
    const ids = rows.map((r) => r.id);
    const current = new Map<number, { quantity: number; out: number; type: string }>();
    for (let i = 0; i < ids.length; i += CHUNK) {
      const found = await tx.select({
        id: inventory.id,
        quantity: inventory.quantity,
        out: sql<number>`${inventory.quantity_out} + ${inventory.quantity_out_location}`,
        type: items.inventory_type,
      }).from(inventory).innerJoin(items, eq(items.id, inventory.item_id))
        .where(inJson(inventory.id, ids.slice(i, i + CHUNK)));
      for (const f of found) current.set(f.id, f);
    }
    const missing = rows.find((r) => !current.has(r.id));
    if (missing) throw new AppError("not_found", `Inventory not found: ${missing.id}`);
    const errors = rows.flatMap((r, i) => {
      const problem = quantityProblem(r.quantity, current.get(r.id)!.type);
      return problem ? [{ path: `${i}.quantity`, message: problem }] : [];
    });
    if (errors.length) throw new AppError("invalid", `${errors[0].path}: ${errors[0].message}`, errors);
    let changed = 0;
    const lowered: number[] = [];
    for (const r of rows) {
      const before = current.get(r.id)!;
      if (before.quantity === r.quantity) continue;
      const done = await tx.update(inventory)
        .set({ quantity: r.quantity, updated_by_id: ctx.user.id, updated_at: nowStamp() })
        .where(and(
          eq(inventory.id, r.id),
          sql`${inventory.quantity_out} + ${inventory.quantity_out_location} <= ${r.quantity}`,
        ))
        .returning({ id: inventory.id });
      if (!done.length) throw new AppError("conflict", belowOutMessage(before.out));
      await recordAudit(tx, ctx.user, r.id, "Quantity Update", r.quantity - before.quantity);
      if (r.quantity < before.quantity) lowered.push(r.id);
      changed++;
    }
    await requireBookingsFit(tx, lowered, timeZoneOf(ctx.user.company.settings));
    return changed;
  });
  return { updated, message: `${updated} ${updated === 1 ? "quantity" : "quantities"} updated` };
}
