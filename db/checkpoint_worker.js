/**
 * The checkpoint worker (db/checkpointer.ts is the parent's side, decision 030). A checkpoint copies the WAL's
 * pages into the database file and fsyncs both: on a busy disk that is hundreds of milliseconds, which on the
 * server's one JavaScript thread held every tenant's requests. Here it runs on a thread of its own, with its own
 * connection to the same SQLite library, opened for the checkpoint and closed after it.
 *
 * JavaScript on purpose, as the other workers (decision 010): a TypeScript worker is type-checked again each time
 * one starts under `deno test`.
 *
 * Message in: { path }. Message out: { path, ok, frames?, checkpointed?, message? }.
 */
import { DatabaseSync } from "node:sqlite";
import { existsSync } from "node:fs";
import { pathToFileURL } from "node:url";

self.onmessage = (e) => {
  const { path } = e.data;
  // No WAL beside it: nothing to copy (the last connection to close checkpointed and removed it).
  if (!existsSync(`${path}-wal`)) {
    self.postMessage({ path, ok: true, frames: 0, checkpointed: 0 });
    return;
  }
  let db;
  try {
    // mode=rw: a file that a restore has removed meanwhile is not created again, empty.
    const url = pathToFileURL(path);
    url.search = "?mode=rw";
    db = new DatabaseSync(url);
    // PASSIVE: copies what no reader still needs, never waits for the server's readers or its writer.
    const row = db.prepare("PRAGMA wal_checkpoint(PASSIVE)").get();
    self.postMessage({ path, ok: true, frames: row.log, checkpointed: row.checkpointed });
  } catch (error) {
    self.postMessage({ path, ok: false, message: error instanceof Error ? error.message : String(error) });
  } finally {
    try {
      db?.close();
    } catch {
      // closing after a failed open
    }
  }
};
