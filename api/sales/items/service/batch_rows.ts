// The item batch's row checks that need no database: shapes, numbers, yes/no, duplicates.
import { INVENTORY_TYPES, type InventoryType } from "../../../../lib/enums.ts";
import { invalid } from "../../../../lib/errors.ts";
import type { FieldError } from "../../../../lib/errors.ts";
import {
  atMost,
  DECIMALS,
  decimalsMessage,
  MAX_MONEY,
  type TextKind,
  textProblem,
} from "../../../lib/validate.ts";
import { hasAtMostDecimals } from "../../../../lib/format.ts";
import { MAX_BATCH_ROWS } from "../schemas.ts";
import { ITEM_BATCH_LABELS, type ItemBatchColumn } from "../rules.ts";

/** One kept row, its values checked. `undefined` means the column was absent: left as stored. */
export interface BatchRow {
  /** 1-based, counted over the rows as sent */
  row: number;
  item_number: string;
  item_description?: string;
  rate?: number | null;
  item_category?: string | null;
  units?: string;
  item_type?: string;
  isTaxable?: boolean;
  isExpendable?: boolean;
  isService?: boolean;
  inventory_type?: InventoryType;
}

const TRUE = new Set(["true", "yes", "y", "1", "x"]);
const FALSE = new Set(["false", "no", "n", "0"]);

/** A spreadsheet's yes/no: true/false, yes/no, 1/0, x; empty is false. undefined: not yes/no. */
export function parseBatchBool(v: unknown): boolean | undefined {
  if (v === null || v === "" || v === false || v === 0) return false;
  if (v === true || v === 1) return true;
  if (typeof v !== "string") return undefined;
  const t = v.trim().toLowerCase();
  return t === "" || FALSE.has(t) ? false : TRUE.has(t) ? true : undefined;
}

/** Empty (or blank) strings are null; strings are trimmed; numbers and booleans pass. */
function cell(v: unknown): unknown {
  if (typeof v !== "string") return v;
  const t = v.trim();
  return t === "" ? null : t;
}

/** A cell as text (numbers as typed), or an error message. */
function asText(v: unknown, max: number, kind: TextKind = "name"): string | null | { error: string } {
  if (v === null) return null;
  if (typeof v === "number" || typeof v === "boolean") v = String(v);
  if (typeof v !== "string") return { error: "Must be text" };
  // This route reads its body itself (not through valid()), so the app-wide text rule is applied here.
  const problem = textProblem(v, kind);
  if (problem) return { error: problem };
  return v.length > max ? { error: `At most ${max} characters` } : v;
}

/** 125, "125.50", "$1,250.00"; null is no rate. At most 4 decimals, as the single save (`unitPrice`). */
function asRate(v: unknown): number | null | { error: string } {
  if (v === null) return null;
  const n = typeof v === "number"
    ? v
    : typeof v === "string"
    ? Number(v.replace(/^\$/, "").replace(/,/g, ""))
    : NaN;
  if (!Number.isFinite(n)) return { error: "Must be a number" };
  if (n > MAX_MONEY) return { error: atMost(MAX_MONEY) };
  if (n < 0) return { error: "Must be at least 0" };
  return hasAtMostDecimals(n, DECIMALS.money) ? n : { error: decimalsMessage("Rate", DECIMALS.money) };
}

function asType(v: unknown): InventoryType | undefined | { error: string } {
  if (v === null) return undefined;
  const found = INVENTORY_TYPES.find((t) => typeof v === "string" && t.toLowerCase() === v.toLowerCase());
  return found ?? { error: `Must be one of ${INVENTORY_TYPES.join(", ")}` };
}

const TEXT: [ItemBatchColumn, keyof BatchRow, number][] = [
  ["item_description", "item_description", 1000],
  ["item_category", "item_category", 200],
  ["units", "units", 100],
  ["type", "item_type", 100],
];
const BOOLS = ["isTaxable", "isExpendable", "isService"] as const;

/** A row's error: `path` names the wire column, the message the column as the template's header reads. */
export function rowError(row: number, column: ItemBatchColumn, message: string): FieldError {
  return { path: `rows.${row}.${column}`, message: `Row ${row}, ${ITEM_BATCH_LABELS[column]}: ${message}` };
}

const isError = (v: unknown): v is { error: string } => typeof v === "object" && v !== null && "error" in v;

/** One row as sent: its values, or nothing when it has no item number (dropped). */
function checkRow(raw: unknown, row: number, errors: FieldError[]): BatchRow | undefined {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    errors.push(rowError(row, "item_number", "Each row must be an object of the batch columns"));
    return undefined;
  }
  const src = raw as Record<string, unknown>;
  const number = asText(cell(src.item_number) ?? null, 100);
  if (number === null) return undefined;
  const out: Record<string, unknown> = { row };
  const put = (column: ItemBatchColumn, key: string, v: unknown) => {
    if (isError(v)) errors.push(rowError(row, column, v.error));
    else out[key] = v;
  };
  put("item_number", "item_number", number);
  for (const [column, key, max] of TEXT) {
    if (column in src) {
      put(column, key, asText(cell(src[column]), max, column === "item_description" ? "free" : "name"));
    }
  }
  for (const key of ["units", "item_type", "item_description"]) if (out[key] === null) out[key] = "";
  if ("rate" in src) put("rate", "rate", asRate(cell(src.rate)));
  for (const column of BOOLS) {
    if (!(column in src)) continue;
    const b = parseBatchBool(cell(src[column]));
    put(column, column, b === undefined ? { error: "Must be yes or no" } : b);
  }
  if ("inventory_type" in src) put("inventory_type", "inventory_type", asType(cell(src.inventory_type)));
  return out as unknown as BatchRow;
}

/**
 * The batch as sent: a JSON array of rows (at most 5000). Rows without an item number are dropped;
 * a repeated item number is an error on its later row. Answers the kept rows and every error found.
 */
export function checkBatchRows(body: unknown): { rows: BatchRow[]; errors: FieldError[] } {
  if (!Array.isArray(body)) throw invalid("rows", "Expected a list of rows");
  if (body.length > MAX_BATCH_ROWS) throw invalid("rows", `At most ${MAX_BATCH_ROWS} rows`);
  const errors: FieldError[] = [];
  const rows: BatchRow[] = [];
  const seen = new Map<string, number>();
  body.forEach((raw, i) => {
    const r = checkRow(raw, i + 1, errors);
    if (!r || typeof r.item_number !== "string") return;
    const key = r.item_number.toLowerCase();
    const first = seen.get(key);
    if (first !== undefined) {
      errors.push(rowError(r.row, "item_number", `Repeats the item number of row ${first}`));
      return;
    }
    seen.set(key, r.row);
    rows.push(r);
  });
  return { rows, errors };
}
