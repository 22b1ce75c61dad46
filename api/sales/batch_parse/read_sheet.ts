import { AppError } from "../../../lib/errors.ts";
import { csvRows } from "./csv.ts";
import { MAX_ROWS, tooManyRows, unreadable } from "./limits.ts";
import { xlsxRows } from "./xlsx_rows.ts";

const isZip = (d: Uint8Array) => d[0] === 0x50 && d[1] === 0x4b && d[2] === 0x03 && d[3] === 0x04;

/**
 * A spreadsheet's first sheet as text cells: an xlsx (a zip) or else a CSV. Trailing blank rows are
 * dropped; more than MAX_ROWS rows is a 422. Runs inside parse_worker.ts, never on the request thread.
 */
export async function readSheet(data: Uint8Array): Promise<string[][]> {
  const rows = isZip(data) ? await xlsxRows(data) : csvRows(data);
  while (rows.length && rows[rows.length - 1].every((c) => c.trim() === "")) rows.pop();
  if (rows.length > MAX_ROWS) throw tooManyRows();
  return rows;
}

/** What a worker posts back: the rows, or an error as plain data (a class does not cross threads). */
export type SheetResult =
  | { rows: string[][] }
  | { error: Pick<AppError, "code" | "message" | "errors"> };

/** readSheet as a message: an unexpected failure on a hostile file reads as "unreadable", not a 500. */
export async function sheetResult(data: Uint8Array): Promise<SheetResult> {
  try {
    return { rows: await readSheet(data) };
  } catch (e) {
    const err = e instanceof AppError ? e : unreadable();
    return { error: { code: err.code, message: err.message, errors: err.errors } };
  }
}
