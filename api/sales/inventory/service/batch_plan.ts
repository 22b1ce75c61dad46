import { inArray, sql } from "drizzle-orm";
import type { z } from "zod";
import { categories, inventory, items } from "../../../../db/schema/mod.ts";
import type { TenantDatabase, Tx } from "../../../../db/client.ts";
import { AppError, type FieldError } from "../../../../lib/errors.ts";
import {
  belowOutMessage,
  InventoryBatchRow,
  isBlankBatchRow,
  MAX_BATCH_ROWS,
  quantityProblem,
  REQUIRED,
  UNKNOWN_BUSINESS_UNIT,
  UNKNOWN_CATEGORY,
  UNKNOWN_ITEM,
} from "../schemas.ts";
import { inJson } from "../../../../db/in_json.ts";
import { batchLabel } from "../batch_labels.ts";

// Checking an inventory batch upload: the rows' cells (parseRows), then the rows against the
// database (plan). Nothing here writes: the preview reads outside the write queue.

/** A write transaction, or the database for the preview's reads. */
export type Reader = Tx | TenantDatabase;

/** A row as sent (1-based), parsed. */
export interface Sent {
  n: number;
  row: InventoryBatchRow;
}

const CHUNK = 400;
/** SQLite's NOCASE folds ASCII letters only; keys built in code must fold the same way. */
const nocase = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());
/** A cell's error: `path` names the wire column, the message the column as the template's header reads. */
export const cellError = (n: number, column: string, message: string): FieldError => ({
  path: `rows.${n}.${column}`,
  message: `Row ${n}, ${batchLabel(column)}: ${message}`,
});

/** The body's rows: a JSON array, or `{business_unit_id, rows}` whose unit fills rows without one. */
function sentRows(body: unknown): { rows: unknown[]; unit: unknown } {
  if (Array.isArray(body)) return { rows: body, unit: undefined };
  const b = (body ?? {}) as { rows?: unknown; business_unit_id?: unknown };
  if (!Array.isArray(b.rows)) {
    throw new AppError("invalid", "Expected a list of rows", [{
      path: "rows",
      message: "Expected a list of rows",
    }]);
  }
  return { rows: b.rows, unit: b.business_unit_id };
}

/** Every non-blank row, parsed cell by cell; the errors name row and column. */
export function parseRows(body: unknown): { parsed: Sent[]; errors: FieldError[]; partial: Sent[] } {
  const { rows, unit } = sentRows(body);
  const parsed: Sent[] = [];
  const errors: FieldError[] = [];
  // Rows with a bad cell, with their good cells: checked against the database too, so every error of a
  // row is reported at once (an unknown item beside a bad quantity), not one kind per upload.
  const partial: Sent[] = [];
  rows.forEach((raw, i) => {
    const n = i + 1;
    if (!raw || typeof raw !== "object" || Array.isArray(raw)) {
      errors.push({ path: `rows.${n}`, message: `Row ${n}: Must be an object` });
      return;
    }
    if (isBlankBatchRow(raw)) return;
    const withUnit = { business_unit_id: unit, ...raw } as Record<string, unknown>;
    if (withUnit.business_unit_id === undefined || withUnit.business_unit_id === null) {
      withUnit.business_unit_id = unit;
    }
    const r = InventoryBatchRow.safeParse(withUnit);
    if (r.success) parsed.push({ n, row: r.data });
    else {
      errors.push(...r.error.issues.map((iss) => cellError(n, String(iss.path[0] ?? "row"), iss.message)));
      const good: Record<string, unknown> = {};
      for (const [key, field] of Object.entries(InventoryBatchRow.shape)) {
        const one = (field as z.ZodType).safeParse(withUnit[key]);
        good[key] = one.success ? one.data : null;
      }
      partial.push({ n, row: good as InventoryBatchRow });
    }
  });
  if (parsed.length + new Set(errors.map((e) => e.path.split(".")[1])).size > MAX_BATCH_ROWS) {
    const message = `At most ${MAX_BATCH_ROWS} rows per upload`;
    throw new AppError("invalid", message, [{ path: "rows", message }]);
  }
  if (!parsed.length && !errors.length) {
    throw new AppError("invalid", "No rows to upload", [{ path: "rows", message: "No rows to upload" }]);
  }
  return { parsed, errors, partial };
}

/**
 * The database's errors of rows that already have cell errors, less those on a column already named
 * (a missing business unit is not also an unknown one).
 */
export async function partialErrors(
  tx: Reader,
  partial: Sent[],
  cellErrors: FieldError[],
): Promise<FieldError[]> {
  if (!partial.length) return [];
  const named = new Set(cellErrors.map((e) => e.path));
  const usable = partial.filter((p) => typeof p.row.item_number === "string");
  const { errors } = await plan(tx, usable);
  return errors.filter((e) => !named.has(e.path));
}

/** Business units, inventory categories and the batch's items, keyed as the rows name them. */
async function references(tx: Reader, parsed: Sent[]) {
  const named = await tx.select({ id: categories.id, model: categories.model, name: categories.name })
    .from(categories).where(inArray(categories.model, ["Business Unit", "Inventory Category"]));
  const units = new Set(named.filter((c) => c.model === "Business Unit").map((c) => c.id));
  const cats = new Map(
    named.filter((c) => c.model === "Inventory Category").map((c) => [nocase(c.name), c.id]),
  );
  const numbers = [...new Set(parsed.map((p) => p.row.item_number!))];
  const itemsByNumber = new Map<string, { id: number; type: string }>();
  for (let i = 0; i < numbers.length; i += CHUNK) {
    const found = await tx.select({ id: items.id, number: items.item_number, type: items.inventory_type })
      .from(items).where(inJson(sql`${items.item_number} collate nocase`, numbers.slice(i, i + CHUNK)));
    for (const f of found) itemsByNumber.set(nocase(f.number), f);
  }
  return { units, cats, itemsByNumber };
}

export const stockKey = (itemId: number, unitId: number, serial: string) =>
  `${itemId}|${unitId}|${nocase(serial)}`;

/** The stored rows of the batch's items, by their identity. */
async function existingRows(tx: Reader, itemIds: number[]) {
  const found = new Map<string, { id: number; quantity: number; out: number }>();
  for (let i = 0; i < itemIds.length; i += CHUNK) {
    const rows = await tx.select({
      id: inventory.id,
      item_id: inventory.item_id,
      unit: inventory.business_unit_id,
      serial: inventory.serial_number,
      quantity: inventory.quantity,
      out: sql<number>`${inventory.quantity_out} + ${inventory.quantity_out_location}`,
    }).from(inventory).where(inJson(inventory.item_id, itemIds.slice(i, i + CHUNK)));
    for (const r of rows) found.set(stockKey(r.item_id, r.unit, r.serial), r);
  }
  return found;
}

export interface Planned extends Sent {
  itemId: number;
  type: string;
  categoryId: number | null;
  serial: string;
  existing?: { id: number; quantity: number; out: number };
}

/** Checks each parsed row against the database; the plan of what to write, and the errors. */
export async function plan(
  tx: Reader,
  parsed: Sent[],
): Promise<{ planned: Planned[]; errors: FieldError[] }> {
  const { units, cats, itemsByNumber } = await references(tx, parsed);
  const existing = await existingRows(tx, [...new Set([...itemsByNumber.values()].map((i) => i.id))]);
  const errors: FieldError[] = [];
  const planned: Planned[] = [];
  const firstRow = new Map<string, number>();
  for (const p of parsed) {
    const { n, row } = p;
    const fail = (column: string, message: string) => errors.push(cellError(n, column, message));
    const item = itemsByNumber.get(nocase(row.item_number!));
    if (!units.has(row.business_unit_id)) fail("business_unit_id", UNKNOWN_BUSINESS_UNIT);
    if (!item) fail("item_number", UNKNOWN_ITEM);
    const categoryId = row.category ? cats.get(nocase(row.category)) : null;
    if (categoryId === undefined) fail("category", UNKNOWN_CATEGORY);
    if (!item) continue;
    const serial = row.serial_number ?? "";
    if (item.type === "Serialized" && !serial) fail("serial_number", REQUIRED);
    const problem = row.quantity === null ? undefined : quantityProblem(row.quantity, item.type);
    if (problem) fail("quantity", problem);
    const key = stockKey(item.id, row.business_unit_id, serial);
    const seen = firstRow.get(key);
    if (seen) fail("serial_number", `Repeats row ${seen}`);
    else firstRow.set(key, n);
    const stored = existing.get(key);
    if (stored && row.quantity !== null && row.quantity < stored.out) {
      fail("quantity", belowOutMessage(stored.out));
    }
    planned.push({
      ...p,
      itemId: item.id,
      type: item.type,
      categoryId: categoryId ?? null,
      serial,
      existing: stored,
    });
  }
  return { planned, errors };
}

const rowOf = (e: FieldError) => Number(e.path.split(".")[1]);

/**
 * The batch checked whole: every row's cells, then the rows against the database; 422 with every error
 * (sorted by row) when any row is wrong, else the plan of what to write.
 */
export async function checkedBatch(tx: Reader, body: unknown): Promise<Planned[]> {
  const { parsed, errors: cellErrors, partial } = parseRows(body);
  const { planned, errors } = await plan(tx, parsed);
  const more = await partialErrors(tx, partial, cellErrors);
  const all = [...cellErrors, ...more, ...errors].sort((a, b) => rowOf(a) - rowOf(b));
  if (all.length) {
    const bad = new Set(all.map(rowOf)).size;
    throw new AppError("invalid", `${bad} ${bad === 1 ? "row has" : "rows have"} errors`, all);
  }
  return planned;
}

/** The count a planned row leaves: its Quantity replaces a stored count; a new row without one gets 1 or 0. */
export const quantityAfter = (p: Planned): number =>
  p.row.quantity ?? p.existing?.quantity ?? (p.type === "Serialized" ? 1 : 0);
