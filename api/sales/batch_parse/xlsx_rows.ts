import { readZip, ZipError } from "../../lib/zip.ts";
import { MAX_CELLS, MAX_ROWS, tooLarge, tooManyRows, unreadable, ZIP_LIMITS } from "./limits.ts";
import { cellText } from "./cells.ts";

const WORKBOOK = "xl/workbook.xml";
const WORKBOOK_RELS = "xl/_rels/workbook.xml.rels";
/** The entries exceljs reads as sheets: its own pattern, unanchored like its own, so none escapes the count. */
const SHEET = /xl\/worksheets\/sheet\d+[.]xml/;
/** Entry names as exceljs takes them: a leading slash dropped. */
const bare = (name: string) => name.replace(/^\//, "");
/** The opening tags that matter: rows, cells and cell values (`v`, or `is` for inline strings). */
const TAGS = /<(?:\w+:)?(row|c|v|is)[\s>/]/g;

/** A sheet's cells, and its rows holding at least one value (rows of formatting only do not count). */
function sheetSize(xml: string): { cells: number; rows: number } {
  let cells = 0;
  let rows = 0;
  let counted = true;
  for (const [, tag] of xml.matchAll(TAGS)) {
    if (tag === "row") counted = false;
    else if (tag === "c") cells++;
    else if (!counted) {
      rows++;
      counted = true;
    }
  }
  return { cells, rows };
}

/** The path of the workbook's first sheet (what exceljs answers as `worksheets[0]`), if it can be told. */
function firstSheetPath(texts: Map<string, string>): string | undefined {
  const sheet = /<(?:\w+:)?sheet\s[^>]*?\br:id="([^"]+)"/.exec(texts.get(WORKBOOK) ?? "");
  if (!sheet) return undefined;
  const rels = texts.get(WORKBOOK_RELS) ?? "";
  for (const rel of rels.match(/<Relationship\s[^>]*>/g) ?? []) {
    if (/\bId="([^"]+)"/.exec(rel)?.[1] !== sheet[1]) continue;
    const target = /\bTarget="([^"]+)"/.exec(rel)?.[1];
    return target && (target.startsWith("/") ? target.slice(1) : `xl/${target}`);
  }
  return undefined;
}

/**
 * Checks an xlsx before exceljs builds it in memory: the zip's real unpacked bytes and entries
 * (lib/zip.ts), the cells in all sheets, and the rows holding a value in the first sheet.
 */
export function checkXlsx(data: Uint8Array): void {
  let entries;
  try {
    entries = readZip(data, ZIP_LIMITS, (n) => [WORKBOOK, WORKBOOK_RELS].includes(bare(n)) || SHEET.test(n));
  } catch (e) {
    if (e instanceof ZipError) throw e.kind === "too_large" ? tooLarge() : unreadable();
    throw e;
  }
  const decoder = new TextDecoder();
  const texts = new Map(entries.map((e) => [bare(e.name), decoder.decode(e.data)]));
  const first = firstSheetPath(texts);
  let cells = 0;
  for (const [name, xml] of texts) {
    if (!SHEET.test(name)) continue;
    const size = sheetSize(xml);
    if (name === first && size.rows > MAX_ROWS) throw tooManyRows();
    cells += size.cells;
    if (cells > MAX_CELLS) throw tooLarge();
  }
}

/** The first sheet's cells as text, trailing empty cells dropped; rows past MAX_ROWS are not kept. */
export async function xlsxRows(data: Uint8Array): Promise<string[][]> {
  checkXlsx(data);
  // Loaded here, not at the top: only a worker reading an xlsx pays for exceljs.
  const { default: ExcelJS } = await import("exceljs");
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
