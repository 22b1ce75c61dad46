import { DEFAULT_TIME_ZONE, today as todayIn, zonedParts } from "../../lib/format.ts";
import { ZipWriter } from "./zip_writer.ts";

export interface XlsxColumn {
  header: string;
  key: string;
  width?: number;
  /** The column holds stored instants (ISO, UTC): written as date-times on the company's clock. */
  instant?: boolean;
}

export interface XlsxOptions {
  /** The company's time zone (settings.timeZone): instants and the file's date are on its clock. */
  timeZone?: string;
}

export type XlsxRows = Iterable<Record<string, unknown>> | AsyncIterable<Record<string, unknown>>;

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

/** `<name>-YYYY-MM-DD.xlsx`, the date on the company's clock (UTC without one). */
export function xlsxFileName(name: string, today = new Date(), timeZone = DEFAULT_TIME_ZONE): string {
  return `${name}-${todayIn(today, timeZone)}.xlsx`;
}

/** An instant as the spreadsheet's date-time: its wall-clock time in the zone (spreadsheets have no zones). */
function wallClock(v: unknown, timeZone: string): unknown {
  if (typeof v !== "string" || v === "") return v ?? "";
  const p = zonedParts(v, timeZone);
  if (!p) return safeCell(v);
  return new Date(Date.UTC(+p.year, +p.month - 1, +p.day, +p.hour, +p.minute));
}

// XML 1.0 cannot carry most control characters at all: old rows holding one must not break the file.
// deno-lint-ignore no-control-regex
const NOT_XML = /[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]/g;
const escapeXml = (s: string) =>
  s.replace(NOT_XML, "").replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");

function columnName(i: number): string {
  let s = "";
  for (let n = i + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

const DAY_MS = 86_400_000;
const EXCEL_EPOCH_DAYS = 25569; // 1970-01-01 as an Excel serial day

/** One cell; style 1 is the bold header, 2 a date, 3 a date and time. */
function cell(ref: string, v: unknown, style = 0): string {
  const s = style ? ` s="${style}"` : "";
  if (typeof v === "number") return Number.isFinite(v) ? `<c r="${ref}"${s}><v>${v}</v></c>` : "";
  if (typeof v === "boolean") return `<c r="${ref}"${s} t="b"><v>${v ? 1 : 0}</v></c>`;
  if (v instanceof Date) {
    if (Number.isNaN(v.getTime())) return "";
    return `<c r="${ref}" s="${style || 2}"><v>${v.getTime() / DAY_MS + EXCEL_EPOCH_DAYS}</v></c>`;
  }
  const text = String(v ?? "");
  // A blank cell as the one shared string "": readers see an empty text, as spreadsheet programs write it.
  if (text === "") return `<c r="${ref}"${s} t="s"><v>0</v></c>`;
  return `<c r="${ref}"${s} t="inlineStr"><is><t xml:space="preserve">${escapeXml(text)}</t></is></c>`;
}

const enc = new TextEncoder();
const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
const REL_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const PKG_REL_NS = "http://schemas.openxmlformats.org/package/2006/relationships";

function staticParts(sheetName: string): [string, string][] {
  const ct = "application/vnd.openxmlformats-officedocument.spreadsheetml";
  return [
    [
      "[Content_Types].xml",
      `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
      `<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
      `<Default Extension="xml" ContentType="application/xml"/>` +
      `<Override PartName="/xl/workbook.xml" ContentType="${ct}.sheet.main+xml"/>` +
      `<Override PartName="/xl/worksheets/sheet1.xml" ContentType="${ct}.worksheet+xml"/>` +
      `<Override PartName="/xl/styles.xml" ContentType="${ct}.styles+xml"/>` +
      `<Override PartName="/xl/sharedStrings.xml" ContentType="${ct}.sharedStrings+xml"/></Types>`,
    ],
    [
      "_rels/.rels",
      `${XML}<Relationships xmlns="${PKG_REL_NS}"><Relationship Id="rId1" ` +
      `Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ],
    [
      "xl/workbook.xml",
      `${XML}<workbook ${NS} xmlns:r="${REL_NS}"><sheets><sheet name="${escapeXml(sheetName)}" ` +
      `sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ],
    [
      "xl/_rels/workbook.xml.rels",
      `${XML}<Relationships xmlns="${PKG_REL_NS}">` +
      `<Relationship Id="rId1" Type="${REL_NS}/worksheet" Target="worksheets/sheet1.xml"/>` +
      `<Relationship Id="rId2" Type="${REL_NS}/styles" Target="styles.xml"/>` +
      `<Relationship Id="rId3" Type="${REL_NS}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
    ],
    ["xl/sharedStrings.xml", `${XML}<sst ${NS} count="1" uniqueCount="1"><si><t></t></si></sst>`],
    [
      "xl/styles.xml",
      `${XML}<styleSheet ${NS}><numFmts count="2"><numFmt numFmtId="164" formatCode="yyyy-mm-dd"/>` +
      `<numFmt numFmtId="165" formatCode="yyyy-mm-dd hh:mm"/></numFmts>` +
      `<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font>` +
      `<font><b/><sz val="11"/><name val="Calibri"/></font></fonts>` +
      `<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>` +
      `<borders count="1"><border/></borders><cellStyleXfs count="1"><xf/></cellStyleXfs>` +
      `<cellXfs count="4"><xf/><xf fontId="1" applyFont="1"/><xf numFmtId="164" applyNumberFormat="1"/>` +
      `<xf numFmtId="165" applyNumberFormat="1"/></cellXfs>` +
      `</styleSheet>`,
    ],
  ];
}

/** The sheet's XML in chunks of a few hundred rows: the rows are read only as the download is. */
async function* sheetXml(
  columns: XlsxColumn[],
  rows: XlsxRows,
  timeZone: string,
): AsyncGenerator<Uint8Array> {
  const refs = columns.map((_, i) => columnName(i));
  const cols = columns.map((c, i) =>
    `<col min="${i + 1}" max="${i + 1}" width="${c.width ?? 20}" customWidth="1"/>`
  );
  let xml = `${XML}<worksheet ${NS}><cols>${cols.join("")}</cols><sheetData><row r="1">` +
    columns.map((c, i) => cell(`${refs[i]}1`, c.header, 1)).join("") + "</row>";
  let n = 1;
  for await (const row of rows) {
    n++;
    xml += `<row r="${n}">`;
    for (let i = 0; i < columns.length; i++) {
      const v = row[columns[i].key];
      xml += columns[i].instant
        ? cell(`${refs[i]}${n}`, wallClock(v, timeZone), 3)
        : cell(`${refs[i]}${n}`, safeCell(v));
    }
    xml += "</row>";
    if (xml.length > 64 * 1024) {
      yield enc.encode(xml);
      xml = "";
    }
  }
  yield enc.encode(xml + "</sheetData></worksheet>");
}

/**
 * One worksheet with a bold header row, streamed as a download named for the day: rows (an array, or an
 * async iterable reading the database page by page) are written as they come and compressed natively,
 * so a 200,000-row export holds a few hundred KB at a time and never blocks the server for long.
 */
export function xlsxResponse(
  name: string,
  columns: XlsxColumn[],
  rows: XlsxRows,
  today = new Date(),
  opts: XlsxOptions = {},
): Response {
  const timeZone = opts.timeZone ?? DEFAULT_TIME_ZONE;
  const sheetName = name.replace(/[\\/?*[\]:]/g, " ").slice(0, 31) || "Sheet1";
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>(undefined, undefined, {
    highWaterMark: 16,
  });
  const writer = writable.getWriter();
  const zip = new ZipWriter(async (chunk) => {
    await writer.ready;
    await writer.write(chunk);
  }, today);
  (async () => {
    for (const [path, text] of staticParts(sheetName)) await zip.file(path, [enc.encode(text)]);
    await zip.file("xl/worksheets/sheet1.xml", sheetXml(columns, rows, timeZone));
    await zip.finish();
    await writer.close();
  })().catch((e) => {
    // Mid-download the status is sent: the client sees a broken transfer, never a short valid file.
    console.error(JSON.stringify({ error: `xlsx ${name}: ${String(e)}`, stack: (e as Error)?.stack }));
    writer.abort(e).catch(() => {});
  });
  const file = xlsxFileName(name, today, timeZone).replace(/["\\\r\n]/g, "_");
  return new Response(readable, {
    headers: {
      "Content-Type": XLSX_TYPE,
      "Content-Disposition": `attachment; filename="${file}"`,
      "Cache-Control": "no-store",
    },
  });
}
