import { and, eq, gt, sql } from "drizzle-orm";
import { categories, inventory, items, type NewItem } from "../../../../db/schema/mod.ts";
import type { TenantDatabase, Tx } from "../../../../db/client.ts";
import type { CategoryModel } from "../../../../lib/enums.ts";
import type { Ctx, CurrentUser } from "../../../lib/context.ts";
import { AppError, invalid } from "../../../../lib/errors.ts";
import { parse } from "../../../lib/validate.ts";
import { nowStamp } from "../../../lib/db_helpers.ts";
import { requireAbility } from "../../../../lib/policy.ts";
import { recordAudit } from "../../inventory/audit.ts";
import { type AddToInventory, ItemInput, type ItemOut, ItemUpdateInput, quantityError } from "../schemas.ts";
import { getItem, itemScope, NUMBER_TAKEN, numberTaken } from "./query.ts";
import { requireMatch } from "../../../lib/preconditions.ts";

export const SERIALIZED_HOLDS_MORE =
  "This item's inventory holds more than 1 on a row; a Serialized item holds at most 1 per row.";

/** A category of the caller's company of this model, or undefined. */
export async function categoryOf(tx: Tx, user: CurrentUser, id: number, model: CategoryModel) {
  return await tx.select({ id: categories.id }).from(categories)
    .where(
      and(eq(categories.id, id), eq(categories.model, model), eq(categories.company_id, user.company_id)),
    )
    .get();
}

/** true when an inventory row of the item holds more than one (it could not become Serialized). */
export async function holdsMoreThanOne(tx: Tx | TenantDatabase, itemId: number): Promise<boolean> {
  const row = await tx.select({ id: inventory.id }).from(inventory)
    .where(and(eq(inventory.item_id, itemId), gt(inventory.quantity, 1))).limit(1).get();
  return !!row;
}

/** The stored values of the fields the body names (absent ones stay as they are). */
function itemValues(input: ItemUpdateInput): Partial<NewItem> {
  const out: Record<string, unknown> = {};
  for (
    const k of [
      "item_number",
      "item_description",
      "rate",
      "units",
      "inventory_type",
      "item_type",
      "isTaxable",
      "isExpendable",
      "isService",
      "category_id",
      "notes",
      "custom",
    ] as const
  ) {
    if (input[k] !== undefined) out[k] = input[k];
  }
  return out as Partial<NewItem>;
}

/** The item's new inventory row and its "Created" audit row, in the item's transaction. */
async function addInventory(tx: Tx, user: CurrentUser, itemId: number, add: AddToInventory) {
  const unit = add.inventory_business_unit_id;
  if (!(await categoryOf(tx, user, unit, "Business Unit"))) {
    throw invalid("add_to_inventory.inventory_business_unit_id", "Business Unit is required");
  }
  const taken = await tx.select({ id: inventory.id }).from(inventory).where(and(
    eq(inventory.item_id, itemId),
    eq(inventory.business_unit_id, unit),
    sql`${inventory.serial_number} = ${add.inventory_serial_number} collate nocase`,
  )).get();
  if (taken) {
    throw new AppError(
      "conflict",
      "This item already has inventory with this serial number in that business unit.",
    );
  }
  const [row] = await tx.insert(inventory).values({
    company_id: user.company_id,
    item_id: itemId,
    business_unit_id: unit,
    serial_number: add.inventory_serial_number,
    quantity: add.inventory_quantity,
    updated_by_id: user.id,
  }).returning({ id: inventory.id });
  await recordAudit(tx, user, row.id, "Created", add.inventory_quantity);
}

/** Creates or updates the item row; answers its id. Every check re-reads inside the transaction. */
async function writeItem(
  tx: Tx,
  user: CurrentUser,
  input: ItemUpdateInput | ItemInput,
  ctx: { ifMatch?: string },
): Promise<number> {
  if (input.category_id && !(await categoryOf(tx, user, input.category_id, "Item Category"))) {
    throw invalid("category_id", "Unknown item category");
  }
  const values = itemValues(input as ItemUpdateInput);
  if (input.id === undefined) {
    if (await numberTaken(tx, input.item_number!)) throw new AppError("conflict", NUMBER_TAKEN);
    const [row] = await tx.insert(items).values({
      ...values,
      item_number: input.item_number!,
      inventory_type: input.inventory_type!,
      company_id: user.company_id,
      created_by_id: user.id,
    }).returning({ id: items.id });
    return row.id;
  }
  const mine = and(itemScope(user), eq(items.id, input.id));
  const current = await tx.select().from(items).where(mine).get();
  if (!current) throw new AppError("not_found", "Item not found.");
  await requireMatch(ctx, current.version, () => getItem(tx, user, current.id));
  if (input.item_number !== undefined && (await numberTaken(tx, input.item_number, input.id))) {
    throw new AppError("conflict", NUMBER_TAKEN);
  }
  const type = input.inventory_type ?? current.inventory_type;
  if (
    type === "Serialized" && current.inventory_type !== "Serialized" && (await holdsMoreThanOne(tx, input.id))
  ) {
    throw new AppError("conflict", SERIALIZED_HOLDS_MORE);
  }
  const add = input.add_to_inventory;
  const tooMany = add && input.inventory_type === undefined && quantityError(type, add.inventory_quantity);
  if (tooMany) throw invalid("add_to_inventory.inventory_quantity", tooMany);
  await tx.update(items).set({ ...values, updated_at: nowStamp() }).where(mine);
  return input.id;
}

/**
 * POST /api/sales/items (creates; with an id, updates) and PUT /api/sales/items (updates):
 * sales-admin only. `add_to_inventory` adds a stock row of the item in the same transaction, with
 * its audit row, so either both are saved or neither.
 */
export async function saveItem(
  ctx: Ctx,
  body: unknown,
  opts: { update?: boolean } = {},
): Promise<ItemOut & { message: string }> {
  requireAbility(ctx.user, "sales.admin");
  const update = opts.update || (body as { id?: unknown })?.id != null;
  const input = update ? parse(ItemUpdateInput, body) : parse(ItemInput, body);
  const saved = await ctx.tdb.write(async (tx) => {
    const id = await writeItem(tx, ctx.user, input, ctx);
    if (input.add_to_inventory) await addInventory(tx, ctx.user, id, input.add_to_inventory);
    return await getItem(tx, ctx.user, id);
  });
  return { ...saved, message: update ? "Item updated" : "Item created" };
}

/** DELETE /api/sales/items/{id}: sales-admin only; an item with stock rows is kept (409). */
export async function deleteItem(ctx: Ctx, id: number): Promise<{ message: string }> {
  requireAbility(ctx.user, "sales.admin");
  await ctx.tdb.write(async (tx) => {
    const mine = and(itemScope(ctx.user), eq(items.id, id));
    const current = await tx.select({ version: items.version }).from(items).where(mine).get();
    if (!current) throw new AppError("not_found", "Item not found.");
    await requireMatch(ctx, current.version, () => getItem(tx, ctx.user, id));
    const stock = await tx.select({ id: inventory.id }).from(inventory).where(eq(inventory.item_id, id))
      .limit(1).get();
    if (stock) throw new AppError("conflict", "This item has inventory.");
    await tx.delete(items).where(mine);
  });
  return { message: "Item deleted" };
}
