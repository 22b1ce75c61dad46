import { and, eq, sql } from "drizzle-orm";
import { inventory } from "../../../../db/schema/mod.ts";
import type { Tx } from "../../../../db/client.ts";
import type { Ctx } from "../../../lib/context.ts";
import { AppError } from "../../../../lib/errors.ts";
import { nowStamp } from "../../../lib/db_helpers.ts";
import { requireAbility } from "../../../../lib/policy.ts";
import { type AuditEntry, recordAudits } from "../audit.ts";
import { keepHoldIf } from "../return_gate.ts";
import { belowOutMessage, type InventoryBatchPreview } from "../schemas.ts";
import { checkedBatch, type Planned, quantityAfter, stockKey } from "./batch_plan.ts";
import { startDueLines } from "../../lines/start_due.ts";

export interface InventoryBatchResult {
  created: number;
  updated: number;
  message: string;
}

/** New rows, 50 to an INSERT; their audit entries in the order sent. */
async function createAll(tx: Tx, ctx: Ctx, plans: Planned[]): Promise<(AuditEntry & { n: number })[]> {
  const rowOfKey = new Map(plans.map((p) => [stockKey(p.itemId, p.row.business_unit_id, p.serial), p.n]));
  const values = plans.map((p) => ({
    company_id: ctx.user.company_id,
    item_id: p.itemId,
    business_unit_id: p.row.business_unit_id,
    serial_number: p.serial,
    status: p.row.status ?? "Available",
    quantity: quantityAfter(p),
    category_id: p.categoryId,
    location: p.row.location ?? "",
    purchase_date: p.row.purchase_date,
    purchase_price: p.row.purchase_price,
    manufacturer: p.row.manufacturer ?? "",
    updated_by_id: ctx.user.id,
  }));
  const entries: (AuditEntry & { n: number })[] = [];
  for (let i = 0; i < values.length; i += 50) {
    const made = await tx.insert(inventory).values(values.slice(i, i + 50)).returning();
    for (const m of made) {
      const n = rowOfKey.get(stockKey(m.item_id, m.business_unit_id, m.serial_number))!;
      entries.push({ n, inventoryId: m.id, action: "Batch Upload", quantityChange: m.quantity });
    }
  }
  return entries;
}

/** An existing row takes the batch's non-blank cells; the quantity guard is in the statement. */
async function update(
  tx: Tx,
  ctx: Ctx,
  p: Planned & { existing: NonNullable<Planned["existing"]> },
): Promise<AuditEntry & { n: number }> {
  const { row } = p;
  const set = Object.fromEntries(
    Object.entries({
      status: row.status,
      quantity: row.quantity,
      category_id: p.categoryId,
      location: row.location,
      purchase_date: row.purchase_date,
      purchase_price: row.purchase_price,
      manufacturer: row.manufacturer,
    }).filter(([, v]) => v !== null),
  );
  const quantity = quantityAfter(p);
  const done = await tx.update(inventory)
    .set({
      ...set,
      held_for_inspection: keepHoldIf(row.status),
      updated_by_id: ctx.user.id,
      updated_at: nowStamp(),
    })
    .where(and(
      eq(inventory.id, p.existing.id),
      sql`${inventory.quantity_out} + ${inventory.quantity_out_location} <= ${quantity}`,
    ))
    .returning({ id: inventory.id });
  if (!done.length) throw new AppError("conflict", `Row ${p.n}: ${belowOutMessage(p.existing.out)}`);
  return {
    n: p.n,
    inventoryId: p.existing.id,
    action: "Batch Upload",
    quantityChange: quantity - p.existing.quantity,
  };
}

/**
 * POST /api/sales/inventory/batch: the spec's columns plus business_unit_id. Rows with every cell
 * blank are dropped; the rest are checked whole before anything is written, and then written in one
 * transaction: a stored (item, unit, serial) is updated, any other row created, each audited
 * "Batch Upload". Errors name the row as sent (1-based) and the column.
 */
export async function saveInventoryBatch(ctx: Ctx, body: unknown): Promise<InventoryBatchResult> {
  requireAbility(ctx.user, "sales.admin");
  const { created, updated } = await ctx.tdb.write(async (tx) => {
    // Bookings whose start has come hold their stock before this change counts it (decision 028).
    await startDueLines(tx, ctx);
    const planned = await checkedBatch(tx, body);
    const entries = [];
    for (const p of planned) {
      if (p.existing) {
        entries.push(await update(tx, ctx, p as Planned & { existing: NonNullable<Planned["existing"]> }));
      }
    }
    const updated = entries.length;
    entries.push(...await createAll(tx, ctx, planned.filter((p) => !p.existing)));
    await recordAudits(tx, ctx.user, entries.sort((a, b) => a.n - b.n));
    return { created: entries.length - updated, updated };
  });
  return { created, updated, message: `${created} created, ${updated} updated` };
}

/**
 * POST /api/sales/inventory/batch/preview: the same body and the same checks (422 alike), nothing
 * written: per row, whether it creates or updates stock and the count before and after, for the upload
 * dialog to show before Save. Read outside the write queue, so the upload checks again when it saves.
 */
export async function previewInventoryBatch(ctx: Ctx, body: unknown): Promise<InventoryBatchPreview> {
  requireAbility(ctx.user, "sales.admin");
  const planned = await checkedBatch(ctx.db, body);
  const rows = planned.map((p) => ({
    n: p.n,
    item_number: p.row.item_number ?? "",
    serial_number: p.serial,
    before: p.existing?.quantity ?? null,
    after: quantityAfter(p),
  }));
  const updated = rows.filter((r) => r.before !== null).length;
  const created = rows.length - updated;
  return { rows, created, updated, message: `${created} to create, ${updated} to update` };
}
