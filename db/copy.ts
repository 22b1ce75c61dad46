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

/** Rows per read and per insert statement. */
const PAGE_ROWS = 200;
/**
 * Bytes of a page of a table with blobs (stored files): well under sqld's default response limit
 * (`--max-response-size`, 10 MB), blobs travelling as base64 (decision 020).
 */
const PAGE_BYTES = 4 * 1024 * 1024;

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
  /** rows copied per table (external-content full-text indexes are rebuilt, not counted) */
  counts: Map<string, number>;
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
    const counts = new Map<string, number>();
    for (const t of tables) {
      if (virtuals.includes(t.name) && externalContent(t.sql)) continue;
      counts.set(t.name, await copyRows(tx, to, t));
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
    return { counts, rows: [...counts.values()].reduce((a, b) => a + b, 0) };
  } finally {
    tx.close();
  }
}

/** The rowid after which the next page starts, and up to which it goes (undefined: the page limit). */
interface Page {
  after: unknown;
  upto?: unknown;
}

/**
 * Where a page of a table with blobs ends: as many rows as fit in PAGE_BYTES (at least one), measured
 * with length(), which SQLite answers without reading the blobs themselves.
 */
async function blobPage(tx: Transaction, table: string, names: string[], after: unknown): Promise<Page> {
  const size = names.map((n) => `coalesce(length(${quote(n)}), 0)`).join(" + ");
  const where = after === undefined ? "" : "WHERE _rowid_ > ?";
  const sizes = await tx.execute({
    sql: `SELECT _rowid_, ${size} FROM ${quote(table)} ${where} ORDER BY _rowid_ LIMIT ${PAGE_ROWS}`,
    args: after === undefined ? [] : [after as bigint],
  });
  let total = 0, upto: unknown;
  for (const r of sizes.rows) {
    total += Number(r[1]);
    if (upto !== undefined && total > PAGE_BYTES) break;
    upto = r[0];
  }
  return { after, upto };
}

/** A table's rows in rowid order, a page at a time, each page one insert statement. */
async function copyRows(tx: Transaction, to: Client, t: SchemaRow): Promise<number> {
  const columns = (await tx.execute(`PRAGMA table_info(${quote(t.name)})`)).rows;
  const names = columns.map((c) => String(c.name));
  const hasBlob = columns.some((c) => /BLOB/i.test(String(c.type)));
  const withoutRowid = /WITHOUT\s+ROWID/i.test(t.sql);
  const list = names.map(quote).join(", ");
  const select = `SELECT ${withoutRowid ? "0" : "_rowid_"}, ${list} FROM ${quote(t.name)}`;
  let count = 0;
  let after: unknown;
  for (;;) {
    let page;
    if (withoutRowid) {
      page = await tx.execute({ sql: `${select} LIMIT ? OFFSET ?`, args: [PAGE_ROWS, count] });
    } else {
      const { upto } = hasBlob ? await blobPage(tx, t.name, names, after) : { upto: undefined };
      if (hasBlob && upto === undefined) return count;
      const where = [after === undefined ? "" : "_rowid_ > ?", upto === undefined ? "" : "_rowid_ <= ?"]
        .filter(Boolean);
      page = await tx.execute({
        sql: `${select} ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY _rowid_ LIMIT ?`,
        args: [...[after, upto].filter((v) => v !== undefined) as bigint[], PAGE_ROWS],
      });
    }
    if (!page.rows.length) return count;
    const one = `(${names.map(() => "?").join(", ")})`;
    await to.migrate([{
      sql: `INSERT INTO ${quote(t.name)} (${list}) VALUES ${page.rows.map(() => one).join(", ")}`,
      args: page.rows.flatMap((r) => names.map((_, i) => r[i + 1])),
    }]);
    count += page.rows.length;
    after = page.rows[page.rows.length - 1][0];
    if (!hasBlob && page.rows.length < PAGE_ROWS) return count;
  }
}

/** Checks a copy holds as many rows in each table as the source had (`counts` from copyDatabase). */
export async function verifyCopy(to: Client, counts: Map<string, number>): Promise<void> {
  for (const [table, n] of counts) {
    const [row] = (await to.execute(`SELECT count(*) FROM ${quote(table)}`)).rows;
    if (Number(row[0]) !== n) throw new Error(`the copy of ${table} has ${row[0]} rows, not ${n}`);
  }
}
