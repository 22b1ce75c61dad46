import { AppError, invalid } from "../../../lib/errors.ts";
import { Semaphore } from "../../../lib/semaphore.ts";
import type { SheetResult } from "./read_sheet.ts";

/**
 * Spreadsheets are read in a Worker, one worker per parse, so a slow or hostile file never holds the
 * event loop every tenant shares. A process-wide bound keeps the workers (each up to a few hundred MB
 * while exceljs reads) from piling up: a few run, a few wait, the rest are told to come back.
 */
export const PARSE_LIMITS = { running: 2, waiting: 2, timeoutMs: 20_000, retryAfterSeconds: 5 };
export const BUSY = "Other spreadsheets are being read right now. Try again in a few seconds.";
export const tooSlow = (ms: number) =>
  `The spreadsheet took too long to read (over ${ms / 1000} seconds). Split it into smaller files.`;

const slots = new Semaphore(PARSE_LIMITS.running, PARSE_LIMITS.waiting);
const busy = () =>
  new AppError("throttled", BUSY, undefined, { "Retry-After": String(PARSE_LIMITS.retryAfterSeconds) });

/** Parses running and waiting right now (tests, and whoever watches the process). */
export const parseLoad = () => slots.load;

/** One worker for one parse, terminated whatever happens so its memory goes back at once. */
async function runWorker(data: Uint8Array, timeoutMs: number): Promise<SheetResult> {
  const worker = new Worker(new URL("./parse_worker.js", import.meta.url).href, { type: "module" });
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await new Promise<SheetResult>((resolve, reject) => {
      timer = setTimeout(() => reject(invalid("file", tooSlow(timeoutMs))), timeoutMs);
      worker.onmessage = (e: MessageEvent<SheetResult>) => resolve(e.data);
      worker.onerror = (e) => {
        // The worker itself failed (it catches every parse error): a fault of ours, a 500.
        e.preventDefault();
        reject(new Error(`batch parse worker: ${e.message}`));
      };
      worker.postMessage(data, [data.buffer]);
    });
  } finally {
    clearTimeout(timer);
    worker.terminate();
  }
}

/** The rows of a spreadsheet, read off the request thread; 429 when too many parses are under way. */
export async function parseInWorker(
  data: Uint8Array,
  timeoutMs = PARSE_LIMITS.timeoutMs,
): Promise<string[][]> {
  const result = await slots.run(() => runWorker(data, timeoutMs), busy);
  if ("rows" in result) return result.rows;
  throw new AppError(result.error.code, result.error.message, result.error.errors);
}
