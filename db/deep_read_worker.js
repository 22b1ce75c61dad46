/**
 * The deep-read worker (db/deep_reads.ts is the parent's side). A list's page far down a long sort is one read
 * that walks every row before it (the last page of 200,000 lines sorted by item description: 220-270 ms):
 * here it runs on a thread of its own, with its own read-only connections to the same SQLite library, so the
 * server's one JavaScript thread goes on answering every other request meanwhile.
 *
 * A file's connection is kept while it is used and closed after IDLE_MS without a read (a file a restore has
 * replaced is then let go of soon). JavaScript on purpose, as the other workers (decision 010).
 *
 * Message in: { id, path, sql, args }. Message out: { id, ok: true, ids } (the first column of each row) or
 * { id, ok: false, message }.
 */
import { DatabaseSync } from "node:sqlite";
import { pathToFileURL } from "node:url";

const IDLE_MS = 5_000;
/** Statements kept prepared per file. */
const STATEMENTS = 32;

/** path -> { db, statements: Map<sql, StatementSync>, used } */
const open = new Map();
let sweep = null;

function connection(path) {
  let c = open.get(path);
  if (!c) {
    // mode=ro: a file that a restore has removed meanwhile is not created again, empty.
    const url = pathToFileURL(path);
    url.search = "?mode=ro";
    const db = new DatabaseSync(url, { readOnly: true });
    db.exec("PRAGMA busy_timeout = 5000");
    c = { db, statements: new Map(), used: 0 };
    open.set(path, c);
  }
  c.used = performance.now();
  sweep ??= setInterval(closeIdle, IDLE_MS);
  return c;
}

function closeIdle() {
  const now = performance.now();
  for (const [path, c] of open) {
    if (now - c.used < IDLE_MS) continue;
    open.delete(path);
    try {
      c.db.close();
    } catch {
      // already closed
    }
  }
  if (!open.size) {
    clearInterval(sweep);
    sweep = null;
  }
}

self.onmessage = (e) => {
  const { id, path, sql, args } = e.data;
  try {
    const c = connection(path);
    let st = c.statements.get(sql);
    if (!st) {
      st = c.db.prepare(sql);
      st.setReturnArrays(true);
      if (c.statements.size >= STATEMENTS) c.statements.delete(c.statements.keys().next().value);
      c.statements.set(sql, st);
    }
    const rows = st.all(...args);
    const ids = new Array(rows.length);
    for (let i = 0; i < rows.length; i++) ids[i] = Number(rows[i][0]);
    self.postMessage({ id, ok: true, ids });
  } catch (error) {
    self.postMessage({ id, ok: false, message: error instanceof Error ? error.message : String(error) });
  }
};
