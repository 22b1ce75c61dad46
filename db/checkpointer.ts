/**
 * WAL checkpoints off the JavaScript thread (decision 030): the parent's side of db/checkpoint_worker.js.
 *
 * SQLite checkpoints a WAL database itself, inside the commit that passes `wal_autocheckpoint` pages: it copies
 * the pages into the database file and fsyncs it, on the thread that committed. In the server that is the one
 * thread every tenant's requests run on, and on a busy disk a checkpoint held it for up to 1.8 s (the soak,
 * docs/reliability.md). The server's connections (db/sqlite_client.ts, `syncOffThread`) therefore raise
 * `wal_autocheckpoint` to a backstop and ask for checkpoints here: one worker, one checkpoint at a time, each file
 * at most once in the queue.
 *
 * The worker lives while a client with `syncOffThread` is open (`retain`/`release`), so a script that closes its
 * clients can exit.
 */

interface Reply {
  path: string;
  ok: boolean;
  frames?: number;
  checkpointed?: number;
  message?: string;
}

/** Counters for /metrics and tests. */
export const checkpointStats = { requested: 0, done: 0, failed: 0, framesCopied: 0 };

let worker: Worker | null = null;
let users = 0;
/** Files waiting for their checkpoint, in order; `running` is the one in the worker now. */
const queue: string[] = [];
const queued = new Set<string>();
let running: string | null = null;
let idleWaiters: (() => void)[] = [];

/** A client that may ask for checkpoints is open. */
export function retainCheckpointer() {
  users++;
}

/** That client is closed; the worker stops with the last one, once its checkpoint is done. */
export function releaseCheckpointer() {
  users = Math.max(0, users - 1);
  stopIfUnused();
}

/** Forget a file's waiting checkpoint (its client closed: the last connection to close checkpoints it). */
export function forgetCheckpoint(path: string) {
  if (!queued.delete(path)) return;
  queue.splice(queue.indexOf(path), 1);
}

/** Checkpoint this file soon, on the worker. */
export function requestCheckpoint(path: string) {
  if (queued.has(path) || running === path) return;
  checkpointStats.requested++;
  queued.add(path);
  queue.push(path);
  next();
}

/** Resolves when no checkpoint is waiting or running (tests, shutdown). */
export function checkpointsIdle(): Promise<void> {
  if (!running && !queue.length) return Promise.resolve();
  return new Promise((resolve) => idleWaiters.push(resolve));
}

function next() {
  if (running || !queue.length) return;
  running = queue.shift()!;
  queued.delete(running);
  if (!worker) {
    worker = new Worker(new URL("./checkpoint_worker.js", import.meta.url).href, { type: "module" });
    worker.onmessage = (e: MessageEvent<Reply>) => finished(e.data);
    worker.onerror = (e) => {
      // The worker itself failed (not a checkpoint's error): a new one takes the next file.
      e.preventDefault();
      console.error(JSON.stringify({ checkpoint_worker_error: e.message }));
      worker?.terminate();
      worker = null;
      finished({ path: running!, ok: false, message: e.message });
    };
  }
  worker.postMessage({ path: running });
}

function finished(reply: Reply) {
  if (reply.ok) {
    checkpointStats.done++;
    checkpointStats.framesCopied += reply.checkpointed ?? 0;
  } else {
    // A full disk, a file removed by a restore: the WAL stays and the next request tries again; the
    // connections' own backstop (`wal_autocheckpoint`) bounds it meanwhile.
    checkpointStats.failed++;
    console.error(JSON.stringify({ checkpoint_failed: reply.path, message: reply.message }));
  }
  running = null;
  next();
  if (!running) {
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const w of waiters) w();
    stopIfUnused();
  }
}

function stopIfUnused() {
  if (users === 0 && !running && !queue.length && worker) {
    worker.terminate();
    worker = null;
  }
}
