/**
 * Rows pasted from a spreadsheet (Excel, LibreOffice, Google Sheets copy cells as tab-separated
 * text; a cell holding a tab, a line break or a quote comes quoted, with quotes doubled).
 */

/** The cells of tab-separated text, line by line; trailing empty lines dropped. */
export function splitTsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let i = 0;
  const n = text.length;
  const endOfCell = (j: number) => j >= n || text[j] === "\t" || text[j] === "\n" || text[j] === "\r";
  while (i < n) {
    let cell: string | undefined;
    if (text[i] === '"') {
      let j = i + 1;
      let buf = "";
      while (j < n) {
        if (text[j] === '"' && text[j + 1] === '"') {
          buf += '"';
          j += 2;
        } else if (text[j] === '"') break;
        else buf += text[j++];
      }
      // Only a quote that closes right before a tab or line end made a quoted cell.
      if (j < n && endOfCell(j + 1)) {
        cell = buf;
        i = j + 1;
      }
    }
    if (cell === undefined) {
      let j = i;
      while (!endOfCell(j)) j++;
      cell = text.slice(i, j);
      i = j;
    }
    row.push(cell);
    if (text[i] === "\t") {
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

const norm = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, "");

/**
 * Pasted rows as objects keyed by `columns`. When every filled cell of the first line names a column
 * (its key, or a header in `aliases`, ignoring case, spaces and underscores) that line is the header:
 * cells go to the columns it names, and columns it lacks are left out of every row. Otherwise cells
 * are taken in `columns` order. An alias mapped to "" is a known header whose column is ignored.
 * Cells are kept as typed (empty ones as "", the server's null).
 */
export function parsePastedRows(
  text: string,
  columns: readonly string[],
  aliases: Record<string, string> = {},
): Record<string, string>[] {
  const lines = splitTsv(text);
  if (!lines.length) return [];
  const names = new Map<string, string>();
  for (const c of columns) names.set(norm(c), c);
  for (const [label, c] of Object.entries(aliases)) names.set(norm(label), c);
  const first = lines[0].map((cell) => (cell.trim() === "" ? null : names.get(norm(cell)) ?? false));
  const isHeader = first.some((c) => c) && first.every((c) => c !== false);
  const order: (string | null)[] = isHeader ? first.map((c) => (c ? c : null)) : columns.map((c) => c);
  const body = isHeader ? lines.slice(1) : lines;
  return body.map((cells) => {
    const row: Record<string, string> = {};
    order.forEach((key, i) => {
      if (key && !(key in row && row[key] !== "")) row[key] = cells[i] ?? "";
    });
    return row;
  });
}
