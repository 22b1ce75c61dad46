import { and, eq, ne, sql } from "drizzle-orm";
import { inventory, type InventoryRow, items } from "../../../../db/schema/mod.ts";
import type { Tx } from "../../../../db/client.ts";
import type { Ctx } from "../../../lib/context.ts";
import { AppError, invalid } from "../../../../lib/errors.ts";
import { parse } from "../../../lib/validate.ts";
import { nowStamp } from "../../../lib/db_helpers.ts";
import { requireAbility } from "../../../../lib/policy.ts";
import { recordAudit } from "../audit.ts";
import { keepHoldIf } from "../return_gate.ts";
import {
  belowOutMessage,
  InventoryInput,
  type InventoryOut,
  InventoryUpdateInput,
  quantityProblem,
  REQUIRED,
  UNKNOWN_ITEM,
} from "../schemas.ts";
import { getInventory, requireBusinessUnit, requireInventoryCategory, sameStock } from "./query.ts";
import { startDueLines } from "../../lines/start_due.ts";
import { timeZoneOf } from "../../../../lib/format.ts";
import { requireBookingsFit } from "../../lines/reservations.ts";
import { requireMatch } from "../../../lib/preconditions.ts";

export const DUPLICATE_MESSAGE = "This item already has a row with this serial number in this business unit.";

const hasId = (raw: Record<string, unknown>) => raw.id !== undefined && raw.id !== null && raw.id !== "";

/** The fields of the form, as stored; absent ones are left out (an update keeps them). */
function formValues(input: InventoryInput | InventoryUpdateInput) {
  const picked = {
    inventory_description: input.inventory_description,
    category_id: input.category_id,
    status: input.status,
    hidden: input.hidden,
    purchase_date: input.purchase_date,
    purchase_price: input.purchase_price,
    manufacturer: input.manufacturer,
    location: input.location,
    minimum_rate: input.minimum_rate,
    additional_day: input.additional_day,
    custom: input.custom,
  };
  return Object.fromEntries(Object.entries(picked).filter(([, v]) => v !== undefined)) as Partial<
    typeof picked
  >;
}

/** Checks the references and the quantity rule of the row as it will be; answers its identity. */
async function checkRow(
  tx: Tx,
  input: InventoryInput | InventoryUpdateInput,
  current: InventoryRow | undefined,
) {
  const itemId = input.item_id ?? current!.item_id;
  const item = await tx.select({ inventory_type: items.inventory_type }).from(items)
    .where(eq(items.id, itemId)).get();
  if (!item) throw invalid("item_id", UNKNOWN_ITEM);
  const unitId = input.business_unit_id ?? current!.business_unit_id;
  await requireBusinessUnit(tx, unitId);
  if (input.category_id) await requireInventoryCategory(tx, input.category_id);
  const serial = input.serial_number ?? current?.serial_number ?? "";
  if (item.inventory_type === "Serialized" && !serial) throw invalid("serial_number", REQUIRED);
  const quantity = input.quantity ?? current?.quantity ?? 0;
  const problem = quantityProblem(quantity, item.inventory_type);
  if (problem) throw invalid("quantity", problem);
  const clash = await tx.select({ id: inventory.id }).from(inventory)
    .where(and(sameStock(itemId, unitId, serial), current ? ne(inventory.id, current.id) : undefined)).get();
  if (clash) throw new AppError("conflict", DUPLICATE_MESSAGE);
  if (current && unitId !== current.business_unit_id && current.quantity_out_location > 0) {
    throw new AppError(
      "conflict",
      "Move the stock at this unit's locations back to Base before changing its business unit.",
    );
  }
  return { itemId, unitId, serial, quantity };
}

/**
 * POST /api/sales/inventory (creates; with an id updates) and PUT (updates). Sales-admin only. The
 * quantity never drops below what tickets and locations hold: the UPDATE itself says so, so no
 * interleaving of requests can take a row below it. Audited "Created" / "Updated" with the change.
 */
export async function saveInventory(
  ctx: Ctx,
  body: unknown,
  opts: { update?: boolean } = {},
): Promise<InventoryOut & { message: string }> {
  requireAbility(ctx.user, "sales.admin");
  const raw = (body && typeof body === "object" ? body : {}) as Record<string, unknown>;
  const updating = opts.update || hasId(raw);
  const input = parse(updating ? InventoryUpdateInput : InventoryInput, raw);
  const id = await ctx.tdb.write(async (tx) => {
    // Bookings whose start has come hold their stock before this change counts it (decision 028).
    await startDueLines(tx, ctx);
    const current = input.id
      ? await tx.select().from(inventory).where(eq(inventory.id, input.id)).get()
      : undefined;
    if (input.id && !current) throw new AppError("not_found", "Inventory not found.");
    if (current) await requireMatch(ctx, current.version, () => getInventory(tx, current.id));
    const { itemId, unitId, serial, quantity } = await checkRow(tx, input, current);
    const values = {
      ...formValues(input),
      item_id: itemId,
      business_unit_id: unitId,
      serial_number: serial,
      quantity,
      updated_by_id: ctx.user.id,
    };
    if (!current) {
      const [row] = await tx.insert(inventory).values({ ...values, company_id: ctx.user.company_id })
        .returning({ id: inventory.id });
      await recordAudit(tx, ctx.user, row.id, "Created", quantity);
      return row.id;
    }
    const done = await tx.update(inventory)
      .set({ ...values, held_for_inspection: keepHoldIf(input.status), updated_at: nowStamp() })
      .where(and(
        eq(inventory.id, current.id),
        sql`${inventory.quantity_out} + ${inventory.quantity_out_location} <= ${quantity}`,
      ))
      .returning({ id: inventory.id });
    if (!done.length) {
      throw new AppError("conflict", belowOutMessage(current.quantity_out + current.quantity_out_location));
    }
    await recordAudit(tx, ctx.user, current.id, "Updated", quantity - current.quantity);
    if (quantity < current.quantity) {
      await requireBookingsFit(tx, [current.id], timeZoneOf(ctx.user.company.settings));
    }
    return current.id;
  });
  return {
    ...(await getInventory(ctx.db, id)),
    message: updating ? "Inventory updated" : "Inventory created",
  };
}
