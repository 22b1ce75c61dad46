import {
  DATE_TIME_XLSX_FORMAT,
  DATE_XLSX_FORMAT,
  DEFAULT_TIME_ZONE,
  MONEY_XLSX_FORMAT,
  PRESSURE_XLSX_FORMAT,
  today as todayIn,
  UNIT_PRICE_XLSX_FORMAT,
  UT_XLSX_FORMAT,
  wallClockMinute,
} from "../../lib/format.ts";
import { yieldToEventLoop } from "../../lib/event_loop.ts";
import { ZipWriter } from "./zip_writer.ts";

export interface XlsxColumn {
  header: string;
  key: string;
  width?: number;
  /** The column holds stored instants (ISO, UTC): written as date-times on the company's clock. */
  instant?: boolean;
  /**
   * The column holds days: a calendar date (`YYYY-MM-DD`) is written as that day, a stored instant as its day
   * on the company's clock; a date cell either way, MM-DD-YYYY like every date of every download.
   */
  date?: boolean;
  /**
   * Numbers shown as money (`money`: cents, `#,##0.00`), as a unit price (`unitPrice`: 2 to 4 decimals,
   * `#,##0.00##`, as lib/format.ts prints them, decision 015), as a UT reading (`ut`: 3 decimals) or a test
   * pressure (`pressure`: whole psi, `15,000 psi`, decision 044). The cell stays a number.
   */
  format?: "money" | "unitPrice" | "ut" | "pressure";
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

// XML 1.0 cannot carry most control characters at all: old rows holding one must not break the file.
// deno-lint-ignore no-control-regex
const NOT_XML = /[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]/g;
// deno-lint-ignore no-control-regex
const NEEDS_ESCAPE = /[&<>"\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]/;
const escapeXml = (s: string) =>
  NEEDS_ESCAPE.test(s)
    ? s.replace(NOT_XML, "").replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;")
    : s;

function columnName(i: number): string {
  let s = "";
  for (let n = i + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

const DAY_MS = 86_400_000;
const EXCEL_EPOCH_DAYS = 25569; // 1970-01-01 as an Excel serial day

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
      `${XML}<styleSheet ${NS}><numFmts count="6"><numFmt numFmtId="164" formatCode="${DATE_XLSX_FORMAT}"/>` +
      `<numFmt numFmtId="165" formatCode="${DATE_TIME_XLSX_FORMAT}"/>` +
      `<numFmt numFmtId="166" formatCode="${MONEY_XLSX_FORMAT}"/>` +
      `<numFmt numFmtId="167" formatCode="${UNIT_PRICE_XLSX_FORMAT}"/>` +
      `<numFmt numFmtId="168" formatCode="${escapeXml(UT_XLSX_FORMAT)}"/>` +
      `<numFmt numFmtId="169" formatCode="${escapeXml(PRESSURE_XLSX_FORMAT)}"/></numFmts>` +
      `<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font>` +
      `<font><b/><sz val="11"/><name val="Calibri"/></font></fonts>` +
      `<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>` +
      `<borders count="1"><border/></borders><cellStyleXfs count="1"><xf/></cellStyleXfs>` +
      `<cellXfs count="8"><xf/><xf fontId="1" applyFont="1"/><xf numFmtId="164" applyNumberFormat="1"/>` +
      `<xf numFmtId="165" applyNumberFormat="1"/><xf numFmtId="166" applyNumberFormat="1"/>` +
      `<xf numFmtId="167" applyNumberFormat="1"/><xf numFmtId="168" applyNumberFormat="1"/>` +
      `<xf numFmtId="169" applyNumberFormat="1"/></cellXfs>` +
      `</styleSheet>`,
    ],
  ];
}

const ascii = (s: string) => enc.encode(s);
const ROW_OPEN = ascii('<row r="');
const ROW_CLOSE = ascii("</row>");
const CLOSE_TAG = ascii('">');
const NUMBER = ascii("><v>");
const VALUE_END = ascii("</v></c>");
const TRUE = ascii(' t="b"><v>1</v></c>');
const FALSE = ascii(' t="b"><v>0</v></c>');
// A blank cell as the one shared string "": readers see an empty text, as spreadsheet programs write it.
const BLANK = ascii(' t="s"><v>0</v></c>');
const TEXT = ascii(' t="inlineStr"><is><t xml:space="preserve">');
const TEXT_END = ascii("</t></is></c>");
const STYLE = [
  ascii('"'),
  ascii('" s="1"'),
  ascii('" s="2"'),
  ascii('" s="3"'),
  ascii('" s="4"'),
  ascii('" s="5"'),
  ascii('" s="6"'),
  ascii('" s="7"'),
];
/** The cell style of a column's `format`: 4 money, 5 unit price, 6 UT, 7 pressure (styles.xml's cellXfs). */
const FORMAT_STYLE = { money: 4, unitPrice: 5, ut: 6, pressure: 7 } as const;

/** A chunk of the sheet is handed on once it passes this size. */
const CHUNK = 64 * 1024;

/**
 * The sheet's bytes, written straight into one buffer that is reused chunk after chunk: a download of
 * 200,000 rows built its XML as strings first, about 7 KB of short-lived strings a row (1.4 GB in all), and
 * the collections of that garbage were the server's pauses while it streamed (decision 012).
 */
class SheetBytes {
  private buf = new Uint8Array(CHUNK * 2);
  private pos = 0;

  get size() {
    return this.pos;
  }

  private room(n: number) {
    if (this.pos + n <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.pos + n));
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
  }

  bytes(b: Uint8Array) {
    this.room(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }

  /** A whole number 0 <= n < 2^53 as its digits. */
  digits(n: number) {
    let len = 1;
    for (let x = n; x >= 10; x = Math.floor(x / 10)) len++;
    this.room(len);
    for (let i = this.pos + len - 1; i >= this.pos; i--) {
      this.buf[i] = 48 + (n % 10);
      n = Math.floor(n / 10);
    }
    this.pos += len;
  }

  text(s: string) {
    // UTF-16 to UTF-8: at most 3 bytes a code unit.
    this.room(s.length * 3);
    const buf = this.buf;
    let p = this.pos;
    // ASCII byte by byte: the encoder's view and result objects, for every cell, were the writer's garbage.
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) {
        p += enc.encodeInto(i === 0 ? s : s.slice(i), buf.subarray(p)).written;
        break;
      }
      buf[p++] = c;
    }
    this.pos = p;
  }

  /**
   * The bytes so far, as a view of the buffer: the buffer is written over from the next call on, so the
   * reader must be done with the chunk before it asks for more (the zip writer is: it checksums and
   * compresses each chunk before it takes the next).
   */
  take(): Uint8Array {
    const out = this.buf.subarray(0, this.pos);
    this.pos = 0;
    return out;
  }

  /**
   * One cell at column `open` (`<c r="B`) of row `row`; style 1 is the bold header, 2 a date, 3 a date and
   * time, 4 money, 5 a unit price, 6 a UT reading, 7 a pressure. A value that is no number (NaN, an invalid date) leaves the cell out.
   */
  cell(open: Uint8Array, row: number, v: unknown, style = 0) {
    if (typeof v === "number") {
      if (!Number.isFinite(v)) return;
      this.head(open, row, style);
      this.bytes(NUMBER);
      this.number(v);
      this.bytes(VALUE_END);
    } else if (typeof v === "boolean") {
      this.head(open, row, style);
      this.bytes(v ? TRUE : FALSE);
    } else if (v instanceof Date) {
      const t = v.getTime();
      if (Number.isNaN(t)) return;
      this.head(open, row, style || 2);
      this.bytes(NUMBER);
      this.number(t / DAY_MS + EXCEL_EPOCH_DAYS);
      this.bytes(VALUE_END);
    } else {
      const text = String(v ?? "");
      this.head(open, row, style);
      if (text === "") return this.bytes(BLANK);
      this.bytes(TEXT);
      this.text(escapeXml(text));
      this.bytes(TEXT_END);
    }
  }

  /** An instant (ISO, UTC) as a date-time on the zone's clock; a value that is not one is text. */
  instant(open: Uint8Array, row: number, v: unknown, timeZone: string) {
    if (typeof v !== "string" || v === "") return this.cell(open, row, v ?? "", 3);
    const wall = wallClockMinute(v, timeZone);
    if (Number.isNaN(wall)) return this.cell(open, row, safeCell(v), 3);
    this.head(open, row, 3);
    this.bytes(NUMBER);
    this.number(wall / DAY_MS + EXCEL_EPOCH_DAYS);
    this.bytes(VALUE_END);
  }

  /**
   * A day as a date cell: a calendar date (`YYYY-MM-DD`) as that day, an instant as its day on the zone's
   * clock; a value that is neither is text.
   */
  day(open: Uint8Array, row: number, v: unknown, timeZone: string) {
    if (typeof v !== "string" || v === "") return this.cell(open, row, v ?? "", 2);
    let t = Number.NaN;
    if (/^\d{4}-\d{2}-\d{2}$/.test(v)) t = Date.parse(`${v}T00:00:00Z`);
    else if (v.length > 10 && v[10] === "T") {
      const wall = wallClockMinute(v, timeZone);
      t = wall - (((wall % DAY_MS) + DAY_MS) % DAY_MS);
    }
    if (Number.isNaN(t)) return this.cell(open, row, safeCell(v), 0);
    this.head(open, row, 2);
    this.bytes(NUMBER);
    this.number(t / DAY_MS + EXCEL_EPOCH_DAYS);
    this.bytes(VALUE_END);
  }

  private head(open: Uint8Array, row: number, style: number) {
    this.bytes(open);
    this.digits(row);
    this.bytes(STYLE[style]);
  }

  private number(v: number) {
    if (Number.isSafeInteger(v)) {
      if (v < 0) {
        this.room(1);
        this.buf[this.pos++] = 45; // "-"
      }
      this.digits(Math.abs(v));
    } else this.text(String(v));
  }
}

/** The sheet's XML in chunks of about 64 KB: the rows are read only as the download is. */
async function* sheetXml(
  columns: XlsxColumn[],
  rows: XlsxRows,
  timeZone: string,
): AsyncGenerator<Uint8Array> {
  const opens = columns.map((_, i) => ascii(`<c r="${columnName(i)}`));
  const styles = columns.map((c) => (c.format ? FORMAT_STYLE[c.format] : 0));
  const cols = columns.map((c, i) =>
    `<col min="${i + 1}" max="${i + 1}" width="${c.width ?? 20}" customWidth="1"/>`
  );
  const out = new SheetBytes();
  out.text(`${XML}<worksheet ${NS}><cols>${cols.join("")}</cols><sheetData>`);
  const row = (n: number) => {
    out.bytes(ROW_OPEN);
    out.digits(n);
    out.bytes(CLOSE_TAG);
  };
  row(1);
  columns.forEach((c, i) => out.cell(opens[i], 1, c.header, 1));
  out.bytes(ROW_CLOSE);
  let n = 1;
  for await (const r of rows) {
    n++;
    row(n);
    for (let i = 0; i < columns.length; i++) {
      const v = r[columns[i].key];
      if (columns[i].instant) out.instant(opens[i], n, v, timeZone);
      else if (columns[i].date) out.day(opens[i], n, v, timeZone);
      else {
        const cell = safeCell(v);
        out.cell(opens[i], n, cell, typeof cell === "number" ? styles[i] : 0);
      }
    }
    out.bytes(ROW_CLOSE);
    if (out.size > CHUNK) yield out.take();
  }
  out.text("</sheetData></worksheet>");
  yield out.take();
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
    // The request's own turn ends with its answer (the headers go out); each part then has a turn of its
    // own: a server's first download ran its sign-in, first read, six parts and first rows in one turn of
    // 26-60 ms, the code and the compressors all cold, and every other request waited for it (decision 012b).
    await yieldToEventLoop();
    for (const [path, text] of staticParts(sheetName)) {
      await zip.file(path, [enc.encode(text)]);
      await yieldToEventLoop();
    }
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
