/**
 * Deep reads off the JavaScript thread: the parent's side of db/deep_read_worker.js.
 *
 * A page far down a long list is one read that walks every row before it: OFFSET cannot jump, and a sort
 * through joined tables (Sales Data by item description, serial or customer; inspections by part) steps each
 * row through three or four tables. On the bench's sales tenant the last page of 200,000 lines took 65-270 ms in
 * those sorts, and every tenant's requests waited for it: the server has one JavaScript thread and local SQLite
 * runs on it. Such a read (`deepPageIds` in api/lib/db_helpers.ts) is run here instead, on one worker with
 * its own read-only connections; the request waits for its answer, nobody else does.
 *
 * One read at a time, in the order asked; at most MAX_WAITING wait, and MAX_WAITING_PER_FILE of one tenant, past
 * that the caller is refused (429): one tenant paging through the end of its lists cannot fill the queue for
 * the others. The worker starts with the first deep read and stops after IDLE_MS without one.
 */
import { AppError } from "../lib/errors.ts";

interface Job {
  id: number;
  path: string;
  sql: string;
  args: unknown[];
  resolve: (ids: number[]) => void;
  reject: (e: unknown) => void;
}

type Reply = { id: number; ok: true; ids: number[] } | { id: number; ok: false; message: string };

/** Reads waiting for the worker past which the next is refused: in all, and of one file (one tenant). */
export const MAX_WAITING = 32;
export const MAX_WAITING_PER_FILE = 4;
const IDLE_MS = 30_000;
const RETRY_AFTER_SECONDS = 1;

/** Counters for /metrics and tests. */
export const deepReadStats = { done: 0, failed: 0, refused: 0 };

let worker: Worker | null = null;
let stopTimer: ReturnType<typeof setTimeout> | undefined;
let running: Job | null = null;
const queue: Job[] = [];
let nextId = 0;

/**
 * The first column of every row `sql` answers (an id walk's page), read on the worker from the file at `path`.
 * Rejected with 429 when MAX_WAITING reads are already waiting, or MAX_WAITING_PER_FILE of this file.
 */
export function readIdsOffThread(path: string, sql: string, args: unknown[]): Promise<number[]> {
  if (queue.length >= MAX_WAITING || queue.filter((j) => j.path === path).length >= MAX_WAITING_PER_FILE) {
    deepReadStats.refused++;
    return Promise.reject(
      new AppError(
        "throttled",
        "Too many pages far down long lists are being read at once; try again in a moment.",
        undefined,
        { "Retry-After": String(RETRY_AFTER_SECONDS) },
      ),
    );
  }
  return new Promise((resolve, reject) => {
    queue.push({ id: nextId++, path, sql, args, resolve, reject });
    next();
  });
}

function start(): Worker {
  const w = new Worker(new URL("./deep_read_worker.js", import.meta.url).href, { type: "module" });
  w.onmessage = (e: MessageEvent<Reply>) => finished(e.data);
  w.onerror = (e) => {
    // The worker itself failed (not a read's error): the read in hand fails, a new worker takes the next.
    e.preventDefault();
    console.error(JSON.stringify({ deep_read_worker_error: e.message }));
    w.terminate();
    worker = null;
    if (running) finished({ id: running.id, ok: false, message: e.message });
  };
  return w;
}

function next() {
  if (running || !queue.length) return;
  clearTimeout(stopTimer);
  running = queue.shift()!;
  worker ??= start();
  worker.postMessage({ id: running.id, path: running.path, sql: running.sql, args: running.args });
}

function finished(reply: Reply) {
  const job = running;
  running = null;
  if (job && job.id === reply.id) {
    if (reply.ok) {
      deepReadStats.done++;
      job.resolve(reply.ids);
    } else {
      deepReadStats.failed++;
      job.reject(new Error(`deep read: ${reply.message}`));
    }
  }
  next();
  if (!running) {
    clearTimeout(stopTimer);
    stopTimer = setTimeout(stopDeepReads, IDLE_MS);
    Deno.unrefTimer(stopTimer);
  }
}

/** Stops the worker when nothing is waiting (idle, and at shutdown). */
export function stopDeepReads() {
  clearTimeout(stopTimer);
  if (running || queue.length || !worker) return;
  worker.terminate();
  worker = null;
}
