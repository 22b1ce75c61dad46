import { AppError } from "../../lib/errors.ts";
import { Semaphore } from "../../lib/semaphore.ts";

/**
 * Turning a photo upright (image_orient.ts) decodes and encodes its pixels in JavaScript: a few hundred
 * milliseconds of CPU for the largest photo, which must not hold the event loop every tenant shares
 * (decisions 010, 011), so it runs in a Worker, one per photo, terminated afterwards. Memory: the decoder
 * holds about 19 bytes a pixel (its blocks, planes and RGBA output), the turned copy 4 more and the encoder's
 * output as a JavaScript array some 8 bytes a byte written: for a 1600 x 1600 photo about 60 MB, freed when
 * the worker ends. One runs at a time in a process (photos arrive upright from the app; this is for API
 * callers and browsers without its code), four wait, the rest are told to come back.
 */
export const ORIENT_LIMITS = { running: 1, waiting: 4, timeoutMs: 20_000, retryAfterSeconds: 5 };
export const ORIENT_BUSY = "Other photos are being turned upright right now. Try again in a few seconds.";

const slots = new Semaphore(ORIENT_LIMITS.running, ORIENT_LIMITS.waiting);
const busy = () =>
  new AppError("throttled", ORIENT_BUSY, undefined, {
    "Retry-After": String(ORIENT_LIMITS.retryAfterSeconds),
  });

/** Why a JPEG could not be turned: jpeg-js refused it (arithmetic coding, damaged data, over the bounds). */
export class OrientFailed extends Error {}

/**
 * `jpeg` with its pixels turned as EXIF `orientation` (2-8) asks, re-encoded without metadata; `maxSide`
 * bounds the decoder. Rejects with `OrientFailed` when the JPEG cannot be decoded, an AppError when the
 * process is busy (429) or the work takes longer than the limit (422).
 */
export function orientJpeg(
  jpeg: Uint8Array,
  orientation: number,
  maxSide: number,
  timeoutMs = ORIENT_LIMITS.timeoutMs,
): Promise<Uint8Array> {
  return slots.run(() => runWorker(jpeg, orientation, maxSide, timeoutMs), busy);
}

async function runWorker(jpeg: Uint8Array, orientation: number, maxSide: number, timeoutMs: number) {
  const worker = new Worker(new URL("./image_orient_worker.js", import.meta.url).href, { type: "module" });
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await new Promise<Uint8Array>((resolve, reject) => {
      timer = setTimeout(
        () => reject(new AppError("invalid", "The image took too long to turn upright: send it upright.")),
        timeoutMs,
      );
      worker.onmessage = (e: MessageEvent<{ jpeg?: Uint8Array; failed?: string }>) => {
        if (e.data.jpeg) resolve(e.data.jpeg);
        else reject(new OrientFailed(e.data.failed ?? "no image"));
      };
      worker.onerror = (e) => {
        e.preventDefault();
        reject(new Error(`image orient worker: ${e.message}`));
      };
      worker.postMessage({ jpeg, orientation, maxSide });
    });
  } finally {
    clearTimeout(timer);
    worker.terminate();
  }
}
