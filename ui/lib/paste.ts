/**
 * Cells from a spreadsheet: text copied from Excel, LibreOffice or Google Sheets (tab-separated; a
 * cell holding a tab, a line break or a quote comes quoted, quotes doubled) or a CSV file (RFC 4180),
 * and where such a block lands in the batch upload grid. No DOM here: the server reads CSV with it too.
 */

/** A grid column: the key sent to the server and the label shown. */
export interface BatchColumn {
  key: string;
  label: string;
}

/** The cells of delimited text, line by line (CRLF, LF or CR); trailing empty lines dropped. */
export function splitDelimited(text: string, sep: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let i = 0;
  const n = text.length;
  const endOfCell = (j: number) => j >= n || text[j] === sep || text[j] === "\n" || text[j] === "\r";
  // Cells are found by searching, not walked a character at a time: a 14 MB file is read in well
  // under a second (decision 010's CSV).
  const cellEnd = new RegExp(`[${sep.replace(/[\\\]^-]/g, "\\$&")}\r\n]`, "g");
  while (i < n) {
    let cell: string | undefined;
    if (text[i] === '"') {
      const parts: string[] = [];
      let j = i + 1;
      for (;;) {
        const q = text.indexOf('"', j);
        if (q < 0) {
          j = n;
          break;
        }
        parts.push(text.slice(j, q));
        if (text[q + 1] !== '"') {
          j = q;
          break;
        }
        parts.push('"');
        j = q + 2;
      }
      // Only a quote that closes right before a separator or line end made a quoted cell.
      if (j < n && endOfCell(j + 1)) {
        cell = parts.join("");
        i = j + 1;
      }
    }
    if (cell === undefined) {
      cellEnd.lastIndex = i;
      const j = cellEnd.exec(text)?.index ?? n;
      cell = text.slice(i, j);
      i = j;
    }
    row.push(cell);
    if (text[i] === sep) {
      i++;
      if (i === n) row.push("");
      continue;
    }
    i += text[i] === "\r" && text[i + 1] === "\n" ? 2 : 1;
    rows.push(row);
    row = [];
  }
  if (row.length) rows.push(row);
  while (rows.length && rows[rows.length - 1].every((c) => c.trim() === "")) rows.pop();
  return rows;
}

export const splitTsv = (text: string) => splitDelimited(text, "\t");

const norm = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, "");

/**
 * The grid column each cell of a header line names (its key, label or an alias; case, spaces and
 * underscores ignored; an alias mapped to "" is a known header whose cells are dropped), or undefined
 * when the line is data: some filled cell names no column, or it is one lone cell.
 */
export function headerColumns(
  lines: string[][],
  columns: readonly BatchColumn[],
  aliases: Record<string, string> = {},
): (number | null)[] | undefined {
  const first = lines[0];
  if (!first) return undefined;
  const names = new Map<string, number | null>();
  columns.forEach((c, i) => {
    names.set(norm(c.key), i);
    names.set(norm(c.label), i);
  });
  for (const [alias, key] of Object.entries(aliases)) {
    const i = columns.findIndex((c) => c.key === key);
    names.set(norm(alias), i < 0 ? null : i);
  }
  const found = first.map((cell) => (cell.trim() === "" ? null : names.get(norm(cell))));
  const named = found.filter((f) => f !== null).length;
  if (!named || found.some((f) => f === undefined)) return undefined;
  // A single word pasted into one cell is a value, even when it names a column.
  if (lines.length === 1 && first.filter((c) => c.trim() !== "").length === 1) return undefined;
  return found.map((f) => f ?? null);
}

/**
 * A block of cells written into the grid at (row, column), both 0-based: down and right from there,
 * or, under a header line, into the columns it names (the header itself dropped). Rows are added as
 * needed; cells beyond the last column are dropped. Answers a new grid; rows not written are the
 * same arrays as before.
 */
export function pasteBlock(
  grid: string[][],
  at: { row: number; column: number },
  lines: string[][],
  columns: readonly BatchColumn[],
  aliases: Record<string, string> = {},
): string[][] {
  const header = headerColumns(lines, columns, aliases);
  const body = header ? lines.slice(1) : lines;
  const target = (j: number) =>
    header ? header[j] ?? null : at.column + j < columns.length ? at.column + j : null;
  const out = grid.slice();
  body.forEach((cells, i) => {
    const r = at.row + i;
    const row = out[r] ? out[r].slice() : columns.map(() => "");
    cells.forEach((v, j) => {
      const c = target(j);
      if (c !== null) row[c] = v;
    });
    out[r] = row;
  });
  for (let r = 0; r < out.length; r++) out[r] ??= columns.map(() => "");
  return out;
}

export const isBlankRow = (row: string[]) => row.every((v) => v.trim() === "");

/**
 * The rows to send: every row up to the last non-blank one, blank rows included, so the server's
 * 1-based row numbers are the grid's. Each row has the columns holding a value in any row; a column
 * left empty throughout is left out, so an upload never blanks what it does not mention.
 */
export function gridRows(grid: string[][], columns: readonly BatchColumn[]): Record<string, string>[] {
  let last = grid.length - 1;
  while (last >= 0 && isBlankRow(grid[last])) last--;
  const rows = grid.slice(0, last + 1);
  const used = columns.map((c, i) => ({ key: c.key, i })).filter(({ i }) =>
    rows.some((r) => (r[i] ?? "").trim() !== "")
  );
  return rows.map((r) => Object.fromEntries(used.map(({ key, i }) => [key, r[i] ?? ""])));
}

const ROW_PATH = /^rows\.(\d+)(?:\.(.+))?$/;

/**
 * The server's errors (`rows.<n>.<column>`, n 1-based) on the grid: messages by "row.column" (both
 * 0-based; the first error of a cell wins), the rows named (an error on a field outside the grid marks
 * its row only) and the first of them, to scroll to.
 */
export function errorMarks(
  errors: readonly { path: string; message: string }[],
  columns: readonly BatchColumn[],
) {
  const cells = new Map<string, string>();
  const rows = new Set<number>();
  let first: { row: number; column: number } | undefined;
  for (const e of errors) {
    const m = ROW_PATH.exec(e.path);
    if (!m) continue;
    const row = Number(m[1]) - 1;
    const column = columns.findIndex((c) => c.key === m[2]);
    rows.add(row);
    first ??= { row, column: Math.max(0, column) };
    if (column >= 0 && !cells.has(`${row}.${column}`)) cells.set(`${row}.${column}`, e.message);
  }
  return { cells, rows, first };
}
