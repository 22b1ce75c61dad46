import { splitDelimited } from "../../../ui/lib/paste.ts";
import { MAX_ROWS, tooManyRows, unreadable } from "./limits.ts";

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

/**
 * Where row `max + 1` starts (or the text's end), quoting read as `splitDelimited` reads it: a quote
 * opening a cell hides line breaks only when it closes right before a separator or line end. Lets a
 * file of millions of short lines be refused without building millions of rows first.
 */
export function rowsEnd(text: string, sep: string, max: number): number {
  const n = text.length;
  const endOfCell = (j: number) => j >= n || text[j] === sep || text[j] === "\n" || text[j] === "\r";
  let i = 0;
  let rows = 0;
  while (i < n && rows < max) {
    if (text[i] === '"') {
      let j = i + 1;
      while (j < n && !(text[j] === '"' && text[j + 1] !== '"')) j += text[j] === '"' ? 2 : 1;
      if (j < n && endOfCell(j + 1)) i = j + 1;
    }
    while (!endOfCell(i)) i++;
    if (i >= n) break;
    if (text[i] === sep) i++;
    else {
      i += text[i] === "\r" && text[i + 1] === "\n" ? 2 : 1;
      rows++;
    }
  }
  return i;
}

/** A CSV's cells; at most MAX_ROWS rows, though blank lines may follow them. */
export function csvRows(data: Uint8Array): string[][] {
  const text = decode(data);
  // Control characters other than tab and line ends: a binary file (an image, a PDF, an old .xls).
  // deno-lint-ignore no-control-regex
  if (/[\x00-\x08\x0e-\x1f]/.test(text)) throw unreadable();
  const first = text.slice(0, text.search(/\r|\n|$/));
  const count = (sep: string) => first.split(sep).length - 1;
  const sep = [",", ";", "\t"].reduce((best, s) => (count(s) > count(best) ? s : best), ",");
  const end = rowsEnd(text, sep, MAX_ROWS);
  // What follows the allowed rows may only be blank lines (or rows of empty cells).
  if (!new RegExp(`^[\\s${sep === "\t" ? "\\t" : sep}]*$`).test(text.slice(end))) throw tooManyRows();
  return splitDelimited(text.slice(0, end), sep);
}
