import { and, eq, type SQL, sql } from "drizzle-orm";
import { categories, type Item, items } from "../../../../db/schema/mod.ts";
import type { TenantDatabase, Tx } from "../../../../db/client.ts";
import type { CurrentUser } from "../../../lib/context.ts";
import { AppError } from "../../../../lib/errors.ts";
import type { ItemOut } from "../schemas.ts";

/** The catalogue belongs to the owner company: its staff's queries see its items only. */
export function itemScope(user: CurrentUser): SQL {
  return eq(items.company_id, user.company_id);
}

type Row = { item: Item; category: { id: number; name: string } | null };

export function presentItem({ item, category }: Row): ItemOut {
  return {
    id: item.id,
    version: item.version,
    item_number: item.item_number,
    item_description: item.item_description,
    rate: item.rate,
    units: item.units,
    inventory_type: item.inventory_type,
    item_type: item.item_type,
    isTaxable: item.isTaxable,
    isExpendable: item.isExpendable,
    isService: item.isService,
    category_id: item.category_id,
    category: category?.id ? category : null,
    notes: item.notes,
    custom: item.custom,
    company_id: item.company_id,
    created_by_id: item.created_by_id,
    created_at: item.created_at,
    updated_at: item.updated_at,
  };
}

/** Items with their category, for lists and single reads. */
export function selectItems(db: TenantDatabase | Tx) {
  return db.select({ item: items, category: { id: categories.id, name: categories.name } }).from(items)
    .leftJoin(categories, eq(categories.id, items.category_id));
}

/** One of the caller's items with its category; 404 otherwise. */
export async function getItem(db: TenantDatabase | Tx, user: CurrentUser, id: number): Promise<ItemOut> {
  const [row] = await selectItems(db).where(and(itemScope(user), eq(items.id, id)));
  if (!row) throw new AppError("not_found", "Item not found.");
  return presentItem(row);
}

/** Another item of the tenant with this number, ignoring case (the unique index does the same). */
export async function numberTaken(tx: Tx, itemNumber: string, exceptId?: number): Promise<boolean> {
  const row = await tx.select({ id: items.id }).from(items)
    .where(and(
      sql`${items.item_number} = ${itemNumber} collate nocase`,
      exceptId === undefined ? undefined : sql`${items.id} <> ${exceptId}`,
    )).limit(1).get();
  return !!row;
}

export const NUMBER_TAKEN = "An item with this number already exists.";
