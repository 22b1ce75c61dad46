import ExcelJS from "exceljs";

export interface XlsxColumn {
  header: string;
  key: string;
  width?: number;
}

export const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

// A spreadsheet program may read a cell starting with one of these as a formula (CSV injection);
// a leading quote keeps it text wherever the cell is copied to.
const FORMULA_START = /^[=+\-@\t\r]/;

/** A cell value as written: strings that could start a formula are neutralised. */
export function safeCell(v: unknown): unknown {
  if (typeof v === "string") return FORMULA_START.test(v) ? `'${v}` : v;
  if (v === null || v === undefined) return "";
  if (typeof v === "number" || typeof v === "boolean" || v instanceof Date) return v;
  return safeCell(Array.isArray(v) ? v.join(", ") : JSON.stringify(v));
}

/** `<name>-YYYY-MM-DD.xlsx`, the date in UTC (the server has no tenant time zone). */
export function xlsxFileName(name: string, today = new Date()): string {
  return `${name}-${today.toISOString().slice(0, 10)}.xlsx`;
}

/** One worksheet with a bold header row, answered as a download named for the day. */
export async function xlsxResponse(
  name: string,
  columns: XlsxColumn[],
  rows: Record<string, unknown>[],
  today = new Date(),
): Promise<Response> {
  const wb = new ExcelJS.Workbook();
  wb.created = today;
  const ws = wb.addWorksheet(name.slice(0, 31) || "Sheet1");
  ws.columns = columns.map((c) => ({ header: c.header, key: c.key, width: c.width ?? 20 }));
  ws.getRow(1).font = { bold: true };
  for (const row of rows) {
    ws.addRow(Object.fromEntries(columns.map((c) => [c.key, safeCell(row[c.key])])));
  }
  const buf = await wb.xlsx.writeBuffer();
  const file = xlsxFileName(name, today).replace(/["\\\r\n]/g, "_");
  return new Response(new Uint8Array(buf as ArrayBuffer), {
    headers: {
      "Content-Type": XLSX_TYPE,
      "Content-Disposition": `attachment; filename="${file}"`,
      "Cache-Control": "no-store",
    },
  });
}
