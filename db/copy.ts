/**
 * Copies one libSQL database into another, empty one, through the clients: the way a tenant on a libSQL
 * server is backed up into a local SQLite file and a backup file is loaded into a new namespace (decision
 * 020). The source is read in one read transaction, so the copy is one consistent snapshot while writers
 * go on. Tables first, rows next (foreign keys off, triggers not yet there: the rows arrive as they
 * were), then full-text indexes rebuilt from their content tables, then indexes and triggers.
 */
import type { Client, InStatement, Transaction } from "@libsql/client";

interface SchemaRow {
  type: string;
  name: string;
  sql: string;
}

/** Rows per read and per insert statement; tables with blobs (stored files) go a few rows at a time. */
const PAGE_ROWS = 200;
const BLOB_PAGE_ROWS = 4;

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
const FTS_SHADOWS = ["_data", "_idx", "_content", "_docsize", "_config"];

/** Tables a copy leaves alone: SQLite's own (sqlite_sequence is copied by value), libSQL's, shadows. */
function skipped(name: string, virtuals: string[]): boolean {
  return name.startsWith("sqlite_") || name.startsWith("libsql_") || name.startsWith("_litestream") ||
    virtuals.some((v) => FTS_SHADOWS.some((s) => name === v + s));
}

/** `content='table'`: an external-content full-text index, rebuilt from its table rather than copied. */
const externalContent = (sql: string) => /content\s*=\s*'[^']+'/i.test(sql);

export interface CopyResult {
  tables: number;
  rows: number;
}

/** Copies `from` into the empty `to`; both clients should use `intMode: "bigint"` so integers stay exact. */
export async function copyDatabase(from: Client, to: Client): Promise<CopyResult> {
  const tx = await from.transaction("read");
  try {
    const schema = (await tx.execute(
      "SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY rowid",
    )).rows as unknown as SchemaRow[];
    const virtuals = schema.filter((s) => /^CREATE VIRTUAL TABLE/i.test(s.sql)).map((s) => s.name);
    const tables = schema.filter((s) => s.type === "table" && !skipped(s.name, virtuals));
    await to.migrate(tables.map((t) => t.sql));
    let rows = 0;
    for (const t of tables) {
      if (virtuals.includes(t.name) && externalContent(t.sql)) continue;
      rows += await copyRows(tx, to, t);
    }
    const sequence = schema.some((s) => s.name === "sqlite_sequence")
      ? (await tx.execute("SELECT name, seq FROM sqlite_sequence")).rows
      : [];
    const last: InStatement[] = [
      ...sequence.map((r) => ({
        sql: "UPDATE sqlite_sequence SET seq = ? WHERE name = ?",
        args: [r.seq, r.name],
      })),
      ...tables.filter((t) => virtuals.includes(t.name) && externalContent(t.sql)).map((t) =>
        `INSERT INTO ${quote(t.name)}(${quote(t.name)}) VALUES ('rebuild')`
      ),
      ...schema.filter((s) => ["index", "view", "trigger"].includes(s.type) && !skipped(s.name, virtuals))
        .map((s) => s.sql),
    ];
    await to.migrate(last);
    return { tables: tables.length, rows };
  } finally {
    tx.close();
  }
}

/** A table's rows in rowid order, a page at a time, each page one insert statement. */
async function copyRows(tx: Transaction, to: Client, t: SchemaRow): Promise<number> {
  const columns = (await tx.execute(`PRAGMA table_info(${quote(t.name)})`)).rows;
  const names = columns.map((c) => String(c.name));
  const hasBlob = columns.some((c) => /BLOB/i.test(String(c.type)));
  const limit = hasBlob ? BLOB_PAGE_ROWS : PAGE_ROWS;
  const withoutRowid = /WITHOUT\s+ROWID/i.test(t.sql);
  const list = names.map(quote).join(", ");
  let count = 0;
  let after: unknown;
  for (;;) {
    const from = `SELECT ${withoutRowid ? "0" : "_rowid_"}, ${list} FROM ${quote(t.name)}`;
    const page = withoutRowid
      ? await tx.execute({ sql: `${from} LIMIT ? OFFSET ?`, args: [limit, count] })
      : after === undefined
      ? await tx.execute({ sql: `${from} ORDER BY _rowid_ LIMIT ?`, args: [limit] })
      : await tx.execute({
        sql: `${from} WHERE _rowid_ > ? ORDER BY _rowid_ LIMIT ?`,
        args: [after as bigint, limit],
      });
    if (!page.rows.length) return count;
    const one = `(${names.map(() => "?").join(", ")})`;
    await to.migrate([{
      sql: `INSERT INTO ${quote(t.name)} (${list}) VALUES ${page.rows.map(() => one).join(", ")}`,
      args: page.rows.flatMap((r) => names.map((_, i) => r[i + 1])),
    }]);
    count += page.rows.length;
    after = page.rows[page.rows.length - 1][0];
    if (page.rows.length < limit) return count;
  }
}
