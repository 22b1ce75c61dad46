import { and, eq, sql } from "drizzle-orm";
import { categories, type Item, items, type NewItem } from "../../../../db/schema/mod.ts";
import type { TenantDatabase, Tx } from "../../../../db/client.ts";
import type { Ctx, CurrentUser } from "../../../lib/context.ts";
import { AppError, type FieldError } from "../../../../lib/errors.ts";
import { nowStamp } from "../../../lib/db_helpers.ts";
import { requireAbility } from "../../../../lib/policy.ts";
import type { ItemBatchPreview, ItemBatchPreviewRow, ItemBatchResult } from "../schemas.ts";
import { type BatchRow, checkBatchRows, rowError } from "./batch_rows.ts";
import { holdsMoreThanOne } from "./save_item.ts";
import { inJson } from "../../../../db/in_json.ts";

/** Reads run in the upload's write transaction, or outside it for a preview. */
type Reader = Tx | TenantDatabase;

/** Well under SQLite's parameter limit per statement. */
const CHUNK = 400;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

function chunks<T>(list: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/** The caller's item categories named in the batch, by lower-cased name. */
async function categoryIds(tx: Reader, user: CurrentUser, rows: BatchRow[]): Promise<Map<string, number>> {
  const names = [...new Set(rows.map((r) => r.item_category).filter((n): n is string => !!n))];
  const found = new Map<string, number>();
  for (const part of chunks(names)) {
    const hits = await tx.select({ id: categories.id, name: categories.name }).from(categories).where(and(
      eq(categories.model, "Item Category"),
      eq(categories.company_id, user.company_id),
      inJson(sql`${categories.name} collate nocase`, part),
    ));
    for (const h of hits) found.set(h.name.toLowerCase(), h.id);
  }
  return found;
}

/** The tenant's items whose number is in the batch, by lower-cased number. */
async function existingItems(tx: Reader, rows: BatchRow[]): Promise<Map<string, Item>> {
  const found = new Map<string, Item>();
  for (const part of chunks(rows.map((r) => r.item_number))) {
    const hits = await tx.select().from(items).where(inJson(sql`${items.item_number} collate nocase`, part));
    for (const h of hits) found.set(h.item_number.toLowerCase(), h);
  }
  return found;
}

/**
 * The stored values of a row: absent columns are left out (kept as stored on an update). The item
 * number is the key: an update keeps the stored spelling.
 */
function values(r: BatchRow, categoryId: number | null | undefined): Partial<NewItem> {
  const out: Record<string, unknown> = {};
  for (
    const k of [
      "item_description",
      "rate",
      "units",
      "item_type",
      "isTaxable",
      "isExpendable",
      "isService",
      "inventory_type",
    ] as const
  ) {
    if (r[k] !== undefined) out[k] = r[k];
  }
  if (categoryId !== undefined) out.category_id = categoryId;
  return out as Partial<NewItem>;
}

/** The checks that read the database: categories by name, the item numbers taken, the Serialized rule. */
async function checkAgainstDb(tx: Reader, user: CurrentUser, rows: BatchRow[], errors: FieldError[]) {
  const cats = await categoryIds(tx, user, rows);
  const existing = await existingItems(tx, rows);
  const plan: { row: BatchRow; current?: Item; categoryId?: number | null }[] = [];
  for (const r of rows) {
    const current = existing.get(r.item_number.toLowerCase());
    let categoryId: number | null | undefined = r.item_category === null ? null : undefined;
    if (r.item_category) {
      categoryId = cats.get(r.item_category.toLowerCase());
      if (categoryId === undefined) errors.push(rowError(r.row, "item_category", "Unknown item category"));
    }
    if (current && current.company_id !== user.company_id) {
      errors.push(rowError(r.row, "item_number", "An item with this number already exists."));
    } else if (
      current && r.inventory_type === "Serialized" && current.inventory_type !== "Serialized" &&
      (await holdsMoreThanOne(tx, current.id))
    ) {
      errors.push(rowError(r.row, "inventory_type", "Its inventory holds more than 1 on a row"));
    }
    plan.push({ row: r, current, categoryId });
  }
  return plan;
}

/**
 * POST /api/sales/items/batch: sales-admin only. A JSON array of rows with the spec's item batch
 * columns. The whole batch is checked before anything is saved; any error answers 422 naming each
 * bad row (1-based, as sent) and column, and nothing is saved. Item numbers already in the catalogue
 * are updated, the others created, all in one transaction.
 */
export async function saveItemBatch(ctx: Ctx, body: unknown): Promise<ItemBatchResult> {
  requireAbility(ctx.user, "sales.admin");
  const { rows, errors } = checkBatchRows(body);
  const { created, updated } = await ctx.tdb.write(async (tx) => {
    const plan = await checkAgainstDb(tx, ctx.user, rows, errors);
    if (errors.length) throw batchErrors(errors);
    const fresh = plan.filter((p) => !p.current).map((p) => ({
      inventory_type: "Itemized" as const,
      ...values(p.row, p.categoryId),
      item_number: p.row.item_number,
      company_id: ctx.user.company_id,
      created_by_id: ctx.user.id,
    }));
    for (const part of chunks(fresh, 40)) await tx.insert(items).values(part);
    const stamp = nowStamp();
    let updated = 0;
    for (const p of plan) {
      if (!p.current) continue;
      await tx.update(items).set({ ...values(p.row, p.categoryId), updated_at: stamp })
        .where(eq(items.id, p.current.id));
      updated++;
    }
    return { created: fresh.length, updated };
  });
  return { created, updated, message: `${plural(created, "item")} created, ${updated} updated` };
}

/** How the preview names an item's fields. */
const FIELD_LABELS: Record<string, string> = {
  item_description: "Item",
  rate: "Rate",
  units: "Units",
  item_type: "Type",
  isTaxable: "Taxable",
  isExpendable: "Expendable",
  isService: "Service",
  inventory_type: "Inventory Type",
};

const shown = (v: unknown): string =>
  v === null || v === undefined || v === ""
    ? "(blank)"
    : typeof v === "boolean"
    ? (v ? "Yes" : "No")
    : String(v);

/** The names of the caller's categories by id (the categories the updated items hold now). */
async function categoryNames(db: Reader, ids: number[]): Promise<Map<number, string>> {
  const names = new Map<number, string>();
  for (const part of chunks([...new Set(ids)])) {
    const hits = await db.select({ id: categories.id, name: categories.name }).from(categories)
      .where(inJson(categories.id, part));
    for (const h of hits) names.set(h.id, h.name);
  }
  return names;
}

/**
 * POST /api/sales/items/batch/preview: the same body and checks as the upload (422 alike), nothing written:
 * per row, whether it creates an item or replaces the fields of the one with its Item Number, each changed
 * field before and after (a blank cell clears it, a column left out keeps it). Read outside the write queue,
 * so the upload checks again when it saves.
 */
export async function previewItemBatch(ctx: Ctx, body: unknown): Promise<ItemBatchPreview> {
  requireAbility(ctx.user, "sales.admin");
  const { rows, errors } = checkBatchRows(body);
  const plan = await checkAgainstDb(ctx.db, ctx.user, rows, errors);
  if (errors.length) throw batchErrors(errors);
  const held = await categoryNames(
    ctx.db,
    plan.flatMap((p) => (p.current?.category_id ? [p.current.category_id] : [])),
  );
  const out: ItemBatchPreviewRow[] = plan.map((p) => {
    if (!p.current) return { n: p.row.row, item_number: p.row.item_number, existing: false, changes: [] };
    const current = p.current as unknown as Record<string, unknown>;
    const changes = Object.entries(values(p.row, p.categoryId)).flatMap(([k, after]) => {
      if (k === "category_id") {
        const before = p.current!.category_id;
        return before === after ? [] : [{
          field: "Category",
          before: shown(before ? held.get(before) : null),
          after: shown(p.row.item_category),
        }];
      }
      const before = current[k];
      return before === after || (before ?? null) === (after ?? null)
        ? []
        : [{ field: FIELD_LABELS[k] ?? k, before: shown(before), after: shown(after) }];
    });
    return { n: p.row.row, item_number: p.current.item_number, existing: true, changes };
  });
  const updated = out.filter((r) => r.existing).length;
  const created = out.length - updated;
  return {
    rows: out,
    created,
    updated,
    message: `${plural(created, "item")} to create, ${updated} to replace`,
  };
}

/** 422 "N rows have errors", every error listed in row order. */
function batchErrors(errors: FieldError[]): AppError {
  const rowOf = (e: FieldError) => Number(e.path.split(".")[1]);
  const sorted = errors.map((e, i) => ({ e, i })).sort((a, b) => rowOf(a.e) - rowOf(b.e) || a.i - b.i)
    .map((x) => x.e);
  const n = new Set(sorted.map(rowOf)).size;
  return new AppError("invalid", `${plural(n, "row")} ${n === 1 ? "has" : "have"} errors`, sorted);
}
