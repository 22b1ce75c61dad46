import ExcelJS from "exceljs";
import type { Ctx } from "../../lib/context.ts";
import { AppError, invalid } from "../../lib/errors.ts";
import { tooLarge } from "../../files/service.ts";
import { requireSalesAdmin } from "../access.ts";
import { MAX_BATCH_ROWS } from "../items/schemas.ts";
import { splitDelimited } from "../../../ui/lib/paste.ts";

export const UNREADABLE = "The file must be an .xlsx or .csv spreadsheet";
/** The batch limit plus a header row. */
const MAX_ROWS = MAX_BATCH_ROWS + 1;
/** What the unpacked parts of an xlsx may add up to: a full batch is a few MB; this stops zip bombs. */
const MAX_UNZIPPED = 200 * 1024 * 1024;

export interface ParsedSheet {
  rows: string[][];
}

const unreadable = () => invalid("file", UNREADABLE);

/**
 * POST /api/sales/batch/parse: a chosen spreadsheet as text cells for the batch upload grid, nothing
 * stored. xlsx: its first sheet (dates as YYYY-MM-DD, numbers as plain text); otherwise a CSV (RFC
 * 4180 quoting; `;` or tab separated when its first line says so). Sales-admin only, like the uploads
 * the grid feeds.
 */
export async function parseBatchFile(ctx: Ctx, file: unknown): Promise<ParsedSheet> {
  requireSalesAdmin(ctx.user);
  if (!(file instanceof File)) throw invalid("file", "Choose a file");
  const maxMb = ctx.config.MAX_UPLOAD_MB;
  if (file.size > maxMb * 1024 * 1024) throw tooLarge(maxMb);
  const data = new Uint8Array(await file.arrayBuffer());
  const rows = isZip(data) ? await xlsxRows(data) : csvRows(data);
  while (rows.length && rows[rows.length - 1].every((c) => c.trim() === "")) rows.pop();
  if (rows.length > MAX_ROWS) {
    throw new AppError("invalid", `At most ${MAX_BATCH_ROWS} rows per upload`, [{
      path: "file",
      message: `At most ${MAX_BATCH_ROWS} rows per upload`,
    }]);
  }
  return { rows };
}

const isZip = (d: Uint8Array) => d[0] === 0x50 && d[1] === 0x4b && d[2] === 0x03 && d[3] === 0x04;

/** The sizes a zip's central directory declares for its entries, added up; undefined when unreadable. */
export function zipUnpackedSize(d: Uint8Array): number | undefined {
  const view = new DataView(d.buffer, d.byteOffset, d.byteLength);
  let end = -1;
  for (let i = d.length - 22; i >= Math.max(0, d.length - 22 - 65535); i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      end = i;
      break;
    }
  }
  if (end < 0) return undefined;
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  let total = 0;
  for (let n = 0; n < count; n++) {
    if (at + 46 > d.length || view.getUint32(at, true) !== 0x02014b50) return undefined;
    const size = view.getUint32(at + 24, true);
    if (size === 0xffffffff) return Infinity; // zip64: far beyond any batch
    total += size;
    at += 46 + view.getUint16(at + 28, true) + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  return total;
}

async function xlsxRows(data: Uint8Array): Promise<string[][]> {
  const unpacked = zipUnpackedSize(data);
  if (unpacked === undefined) throw unreadable();
  if (unpacked > MAX_UNZIPPED) throw new AppError("too_large", "The spreadsheet is too large to read.");
  const wb = new ExcelJS.Workbook();
  try {
    await wb.xlsx.load(data as never);
  } catch {
    throw unreadable();
  }
  const sheet = wb.worksheets[0];
  if (!sheet) throw unreadable();
  const rows: string[][] = [];
  sheet.eachRow({ includeEmpty: false }, (row, n) => {
    if (n > MAX_ROWS + 1) return;
    const values = (row.values as unknown[]).slice(1);
    const cells = Array.from(values, cellText);
    while (cells.length && cells[cells.length - 1] === "") cells.pop();
    if (!cells.length) return;
    while (rows.length < n - 1) rows.push([]);
    rows[n - 1] = cells;
  });
  return rows;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** A date as YYYY-MM-DD (Excel dates carry no zone: exceljs reads them as UTC), with its time if any. */
function dateText(d: Date): string {
  const t = new Date(Math.round(d.getTime() / 1000) * 1000);
  const day = t.toISOString().slice(0, 10);
  const [h, m, s] = [t.getUTCHours(), t.getUTCMinutes(), t.getUTCSeconds()];
  if (!h && !m && !s) return day;
  return `${day} ${pad(h)}:${pad(m)}${s ? `:${pad(s)}` : ""}`;
}

/** One cell as the text a user sees: formulas by their result, rich text joined, 15 significant digits. */
export function cellText(v: unknown): string {
  if (v === null || v === undefined) return "";
  if (typeof v === "string") return v;
  if (typeof v === "number") return Number.isFinite(v) ? String(Number(v.toPrecision(15))) : "";
  if (typeof v === "boolean") return v ? "TRUE" : "FALSE";
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? "" : dateText(v);
  const o = v as Record<string, unknown>;
  if (Array.isArray(o.richText)) return o.richText.map((r: { text?: string }) => r.text ?? "").join("");
  if ("result" in o) return cellText(o.result);
  if ("formula" in o || "sharedFormula" in o) return "";
  if (typeof o.text === "string") return o.text;
  if (typeof o.error === "string") return o.error;
  return "";
}

/** UTF-8 (BOM or not), UTF-16 with its BOM, else Windows-1252 (Excel's "CSV" on Windows). */
function decode(d: Uint8Array): string {
  if (d[0] === 0xff && d[1] === 0xfe) return new TextDecoder("utf-16le").decode(d.subarray(2));
  if (d[0] === 0xfe && d[1] === 0xff) return new TextDecoder("utf-16be").decode(d.subarray(2));
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(d);
  } catch {
    return new TextDecoder("windows-1252").decode(d);
  }
}

function csvRows(data: Uint8Array): string[][] {
  const text = decode(data);
  // Control characters other than tab and line ends: a binary file (an image, a PDF, an old .xls).
  // deno-lint-ignore no-control-regex
  if (/[\x00-\x08\x0e-\x1f]/.test(text)) throw unreadable();
  const first = text.slice(0, text.search(/\r|\n|$/));
  const count = (sep: string) => first.split(sep).length - 1;
  const sep = [",", ";", "\t"].reduce((best, s) => (count(s) > count(best) ? s : best), ",");
  return splitDelimited(text, sep);
}
