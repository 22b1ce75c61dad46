import { AppError } from "../../lib/errors.ts";
import type { MergeFooters, MergeReply, MergeRequest } from "./pdf_merge_job.ts";
import { Semaphore } from "../../lib/semaphore.ts";

/**
 * Appending stored PDFs to a report (decisions 005 and 011). pdf-lib runs in a Worker, one worker per
 * merge terminated afterwards, so a slow or hostile attachment never holds the event loop every tenant
 * shares; the report's own pages are still drawn here with pdfkit (our own, small, bounded output).
 * A process-wide bound keeps the workers (each holding every parsed object of its files) from piling
 * up: a few run, a few wait, the rest are told to come back.
 */
export const MERGE_LIMITS = { running: 2, waiting: 4, timeoutMs: 30_000, retryAfterSeconds: 5 };
export const MERGE_BUSY = "Other documents are being put together right now. Try again in a few seconds.";
export const mergeTooSlow = (ms: number) =>
  `The attached PDF files took too long to add to this document (over ${ms / 1000} seconds). ` +
  "They can still be opened on their own.";

/**
 * What the caller draws once it knows which attachments can be read: its own pages, and for each
 * attachment that cannot (null page count) the pages to put in its place, or null when its own pages
 * already say so. Or the finished document, when nothing is left to append.
 */
export type MergePlan = Uint8Array | {
  report: Uint8Array;
  notices: (Uint8Array | null)[];
  /** A footer on each appended page naming its attachment (pdf_merge_job.ts). */
  footers?: MergeFooters;
};

/** Each attachment's page count, null where it cannot be read or copied. */
export type PlanMerge = (pages: (number | null)[]) => Promise<MergePlan>;

const slots = new Semaphore(MERGE_LIMITS.running, MERGE_LIMITS.waiting);
const busy = () =>
  new AppError("throttled", MERGE_BUSY, undefined, { "Retry-After": String(MERGE_LIMITS.retryAfterSeconds) });

/** Runs and waiting merges right now (tests, and whoever watches the process). */
export const mergeLoad = () => slots.load;

/**
 * The document `plan` draws, followed by the pages of each attachment it can read (pdf-lib, in a
 * worker). An attachment that cannot be read or copied never fails the merge: `plan` is asked again
 * with it marked null. 429 when too many merges are under way; 422 when one takes over `timeoutMs`
 * (the worker is terminated: nothing more of that file is read).
 */
export function mergePdfs(
  attachments: Uint8Array[],
  plan: PlanMerge,
  timeoutMs = MERGE_LIMITS.timeoutMs,
): Promise<Uint8Array> {
  return slots.run(() => runWorker(attachments, plan, timeoutMs), busy);
}

/** One worker for one merge, terminated whatever happens so its memory goes back at once. */
async function runWorker(attachments: Uint8Array[], plan: PlanMerge, timeoutMs: number) {
  const worker = new Worker(new URL("./pdf_merge_worker.js", import.meta.url).href, { type: "module" });
  let timer: ReturnType<typeof setTimeout> | undefined;
  let settled = false;
  try {
    return await new Promise<Uint8Array>((resolve, reject) => {
      timer = setTimeout(() => reject(new AppError("invalid", mergeTooSlow(timeoutMs))), timeoutMs);
      // Copied, not transferred: the caller's bytes stay usable (and a copy is a memcpy, not a parse).
      // Nothing is sent once the answer is known (a plan finishing after the time limit).
      const send = (msg: MergeRequest) => settled || worker.postMessage(msg);
      let pages: (number | null)[] = [];
      const next = async () => {
        const drawn = await plan(pages);
        if (drawn instanceof Uint8Array) return resolve(drawn);
        send({ type: "merge", report: drawn.report, notices: drawn.notices, footers: drawn.footers });
      };
      worker.onmessage = (e: MessageEvent<MergeReply>) => {
        const reply = e.data;
        if (reply.type === "done") return resolve(reply.pdf);
        if (reply.type === "failed") return reject(new Error(`pdf merge: ${reply.message}`));
        if (reply.type === "pages") pages = reply.pages;
        else pages = pages.map((p, i) => (i === reply.index ? null : p));
        next().catch(reject);
      };
      worker.onerror = (e) => {
        // The worker itself failed (the job catches every pdf-lib error): a fault of ours, a 500.
        e.preventDefault();
        reject(new Error(`pdf merge worker: ${e.message}`));
      };
      send({ type: "load", attachments });
    });
  } finally {
    settled = true;
    clearTimeout(timer);
    worker.terminate();
  }
}
