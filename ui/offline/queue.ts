import { api, ApiError, type FieldError } from "../lib/api.ts";
import { OFFLINE_QUEUE_EVENT } from "../lib/events.ts";
import { announce } from "./channel.ts";

/**
 * Writes made without a network, kept in IndexedDB until they are sent (ui/offline/sync.ts). Each has
 * the Idempotency-Key it was first sent with, so a send whose answer was lost is applied once however
 * often it is retried. A record the server refuses keeps its refusal (`conflict`) until the user sends
 * it again or discards it: nothing is dropped silently.
 */
export type QueuedKind = "inspection" | "batch";

export const PATHS: Record<QueuedKind, string> = {
  inspection: "/api/pt/inspections",
  batch: "/api/pt/inspections/batch",
};

export interface Conflict {
  status: number;
  detail: string;
  errors: FieldError[];
}

export interface QueuedRecord {
  /** the queue's order */
  seq: number;
  key: string;
  /** whose record it is: only they send it */
  userId: number;
  jobId: number;
  jobNumber: string;
  kind: QueuedKind;
  /** the JSON body, as the form would have sent it (a batch's PDF as a data URL) */
  body: Record<string, unknown>;
  /** ISO instant */
  queuedAt: string;
  conflict?: Conflict;
}

export type NewRecord = Omit<QueuedRecord, "seq" | "key" | "queuedAt" | "conflict">;

const DB = "offline-writes";
const STORE = "queue";

let opened: Promise<IDBDatabase> | undefined;
function db(): Promise<IDBDatabase> {
  return opened ??= new Promise((resolve, reject) => {
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => {
      const store = req.result.createObjectStore(STORE, { keyPath: "seq", autoIncrement: true });
      store.createIndex("user", "userId");
    };
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => {
      opened = undefined;
      reject(req.error);
    };
  });
}

/** One request in its own transaction, settled when the transaction commits. */
async function run<T>(mode: IDBTransactionMode, fn: (s: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const tx = (await db()).transaction(STORE, mode);
  const req = fn(tx.objectStore(STORE));
  return await new Promise<T>((resolve, reject) => {
    tx.oncomplete = () => resolve(req.result);
    tx.onerror = tx.onabort = () => reject(tx.error ?? req.error);
  });
}

/** This page's islands and the browser's other tabs read the queue again. */
const changed = () => {
  globalThis.dispatchEvent(new CustomEvent(OFFLINE_QUEUE_EVENT));
  announce();
};

/** A random key; crypto.randomUUID exists only in secure contexts. */
export function newKey(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join(
    "",
  );
}

export async function enqueue(rec: NewRecord & { key?: string }): Promise<void> {
  await run(
    "readwrite",
    (s) => s.add({ ...rec, key: rec.key ?? newKey(), queuedAt: new Date().toISOString() }),
  );
  changed();
}

/** The user's records, oldest first. */
export async function queued(userId: number): Promise<QueuedRecord[]> {
  const all = await run("readonly", (s) => s.index("user").getAll(userId) as IDBRequest<QueuedRecord[]>);
  return all.sort((a, b) => a.seq - b.seq);
}

/** The record as stored now (another tab may have sent or discarded it), or undefined. */
export async function queuedRecord(seq: number): Promise<QueuedRecord | undefined> {
  return await run("readonly", (s) => s.get(seq) as IDBRequest<QueuedRecord | undefined>);
}

export async function removeQueued(seq: number): Promise<void> {
  await run("readwrite", (s) => s.delete(seq));
  changed();
}

/**
 * Sets or clears (undefined: send it again) a record's refusal, if it is still queued: read and written
 * in one transaction, so a record another tab sent or discarded meanwhile is not put back.
 */
export async function setConflict(rec: QueuedRecord, conflict: Conflict | undefined): Promise<void> {
  const tx = (await db()).transaction(STORE, "readwrite");
  const store = tx.objectStore(STORE);
  const get = store.get(rec.seq) as IDBRequest<QueuedRecord | undefined>;
  get.onsuccess = () => {
    if (!get.result) return;
    const { conflict: _old, ...rest } = get.result;
    store.put(conflict ? { ...rest, conflict } : rest);
  };
  await new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = tx.onabort = () => reject(tx.error);
  });
  changed();
}

/**
 * Sends a new record now, or queues it when the browser is offline or the network fails. The key goes
 * with the first try too: a send whose answer was lost is queued with the same key and applied once.
 */
export async function sendOrQueue<T>(
  rec: NewRecord,
): Promise<{ queued: true } | { queued: false; answer: T }> {
  const key = newKey();
  if (navigator.onLine !== false) {
    try {
      const answer = await api<T>(PATHS[rec.kind], {
        method: "POST",
        json: rec.body,
        headers: { "idempotency-key": key },
      });
      return { queued: false, answer };
    } catch (e) {
      if (!(e instanceof ApiError) || e.status !== 0) throw e;
    }
  }
  await enqueue({ ...rec, key });
  return { queued: true };
}

/** The message a form shows when its record was queued. */
export const QUEUED_MESSAGE = "Saved on this device: it will sync when the connection returns";
