import { type Conflict, PATHS, queued, type QueuedRecord, removeQueued, setConflict } from "./queue.ts";

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

/** Sends the user's waiting records in the order they were made, stopping at the first "later". */
async function sendAll(userId: number): Promise<SyncResult> {
  const out: SyncResult = { sent: 0, refused: 0, stopped: false, signIn: false };
  for (const rec of await queued(userId)) {
    if (rec.conflict) continue;
    const outcome = await send(rec);
    if (outcome === "sent") out.sent++;
    else if (outcome === "refused") out.refused++;
    else {
      out.stopped = true;
      out.signIn = outcome === "signIn";
      break;
    }
  }
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
