import { AppError } from "../../lib/errors.ts";
import { Semaphore } from "../../lib/semaphore.ts";

/**
 * The scan of an uploaded PDF for scripts (`pdfScript`, decision 042) runs in a Worker, one per upload,
 * terminated afterwards: pdf-lib parses the whole file synchronously (an 18 MB, 500-page file took 230-400
 * ms; a hostile one far longer), which must not hold the event loop every tenant shares (decisions 010 and
 * 011). As for merges, a few run, a few wait and the rest are told to come back.
 */
export const SCAN_LIMITS = { running: 2, waiting: 4, timeoutMs: 30_000, retryAfterSeconds: 5 };
export const SCAN_BUSY = "Other PDF files are being checked right now. Try again in a few seconds.";
export const scanTooSlow = (ms: number) =>
  `The PDF took too long to check for scripts (over ${ms / 1000} seconds); save it again (for example, ` +
  "print it to a new PDF) and upload it again.";

const slots = new Semaphore(SCAN_LIMITS.running, SCAN_LIMITS.waiting);
const busy = () =>
  new AppError("throttled", SCAN_BUSY, undefined, { "Retry-After": String(SCAN_LIMITS.retryAfterSeconds) });

/** The script or launch action found in `pdf` (`/JS`, `/Launch`...), or undefined; see `pdfScript`. */
export function findPdfScript(
  pdf: Uint8Array,
  unpacked: Uint8Array[],
  timeoutMs = SCAN_LIMITS.timeoutMs,
): Promise<string | undefined> {
  return slots.run(() => runWorker(pdf, unpacked, timeoutMs), busy);
}

async function runWorker(pdf: Uint8Array, unpacked: Uint8Array[], timeoutMs: number) {
  const worker = new Worker(new URL("./pdf_scripts_worker.js", import.meta.url).href, { type: "module" });
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await new Promise<string | undefined>((resolve, reject) => {
      timer = setTimeout(() => reject(new AppError("invalid", scanTooSlow(timeoutMs))), timeoutMs);
      worker.onmessage = (e: MessageEvent<{ found?: string | null; failed?: string }>) => {
        if (e.data.failed !== undefined) reject(new Error(`pdf scan: ${e.data.failed}`));
        else resolve(e.data.found ?? undefined);
      };
      worker.onerror = (e) => {
        e.preventDefault();
        reject(new Error(`pdf scan worker: ${e.message}`));
      };
      // Copied, not transferred: the caller stores these bytes afterwards.
      worker.postMessage({ pdf, unpacked });
    });
  } finally {
    clearTimeout(timer);
    worker.terminate();
  }
}
