import { announce } from "./channel.ts";
import {
  type Conflict,
  PATHS,
  queued,
  type QueuedRecord,
  queuedRecord,
  removeQueued,
  setConflict,
} from "./queue.ts";

export interface SyncResult {
  sent: number;
  /** records the server refused during this run */
  refused: number;
  /** stopped at a record the server could not take yet (offline, 5xx): it is tried again later */
  stopped: boolean;
  /** the session has ended: nothing is sent until the user signs in again */
  signIn: boolean;
}

type Outcome = "sent" | "refused" | "later" | "signIn";

/** One record, with its key: a 2xx is done, a 4xx is a refusal kept on the record, the rest is "later". */
async function send(rec: QueuedRecord): Promise<Outcome> {
  let res: Response;
  try {
    res = await fetch(PATHS[rec.kind], {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json", "idempotency-key": rec.key },
      body: JSON.stringify(rec.body),
      credentials: "same-origin",
    });
  } catch {
    return "later";
  }
  if (res.ok) {
    await removeQueued(rec.seq);
    return "sent";
  }
  if (res.status === 401) return "signIn";
  if (res.status === 408 || res.status === 429 || res.status >= 500) return "later";
  const data = await res.json().catch(() => ({}));
  const conflict: Conflict = {
    status: res.status,
    detail: typeof data?.detail === "string" ? data.detail : `The server refused it (${res.status}).`,
    errors: Array.isArray(data?.errors) ? data.errors : [],
  };
  await setConflict(rec, conflict);
  return "refused";
}

/**
 * Sends the user's waiting records in the order they were made, stopping at the first "later". The
 * queue is read inside the lock and each record again just before it is sent: what another tab sent or
 * discarded meanwhile is not sent again.
 */
async function sendAll(userId: number): Promise<SyncResult> {
  const out: SyncResult = { sent: 0, refused: 0, stopped: false, signIn: false };
  for (const { seq } of await queued(userId)) {
    const rec = await queuedRecord(seq);
    if (!rec || rec.conflict) continue;
    const outcome = await send(rec);
    if (outcome === "sent") out.sent++;
    else if (outcome === "refused") out.refused++;
    else {
      out.stopped = true;
      out.signIn = outcome === "signIn";
      break;
    }
  }
  // The other tabs refetch what they list: these records are on the server now.
  if (out.sent) announce({ synced: out.sent });
  return out;
}

let running: Promise<SyncResult> | undefined;

/**
 * Sends the queue once at a time: in this page (a second call joins the run) and across tabs (a Web
 * Lock, where the browser has it). A record sent twice anyway is applied once: it carries its key.
 */
export function syncQueue(userId: number): Promise<SyncResult> {
  const locks = (navigator as { locks?: LockManager }).locks;
  return running ??= (locks ? locks.request("offline-sync", () => sendAll(userId)) : sendAll(userId))
    .finally(() => {
      running = undefined;
    });
}
