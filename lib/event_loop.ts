import { MessageChannel } from "node:worker_threads";

/**
 * A real turn of the event loop for other requests. Local SQLite runs statements synchronously and settles
 * its promises as microtasks, so a chain of awaits on it never lets the runtime read another request, of any
 * tenant, or answer `/healthz`; only a task does. Used between write groups, download pages, long reads and
 * handed-over request turns. Server-only (`node:worker_threads`).
 *
 * The turns are batched and the batch is bounded (4 ms of work). Only a timer turn lets the runtime read new
 * requests: Deno runs it after its timer tick, about 2 ms when idle; message turns and `setImmediate` run
 * before it polls for I/O, so a chain of them starved `/healthz` (`scripts/reliability/turn_kinds.ts`; the
 * figures are in decision 043, round 3). But a timer turn per waiter resumed every waiting request in the
 * same batch of timers, before the runtime read anything new: with SERVER_CONCURRENCY requests each taking a
 * 2 ms slice, `/healthz` waited for all of them (p99 358 ms in the big-ticket soak). So a timer turn starts a
 * batch, the waiters are resumed one at a time in FIFO order by message turns (each after the previous one's
 * microtasks ran, so its work is counted), each at most once a batch (so every yield still lets the runtime
 * read new requests before the same work goes on, as a timer turn did), and once 4 ms of the batch has passed
 * the rest wait for the next timer turn.
 */
export const yieldToEventLoop: () => Promise<void> = batchedTurns(4);

/**
 * Turns as `yieldToEventLoop` gives them, batched up to `batchMs` of work (ms) before the runtime reads new
 * requests. `scripts/reliability/turn_kinds.ts` measures other bounds.
 */
export function batchedTurns(batchMs: number): () => Promise<void> {
  const waiting: (() => void)[] = [];
  let armed = false;
  let batchStart = 0;
  let due = 0;
  // Resumes the first waiter; the next message is delivered once the waiter's microtasks have run.
  const resumeNext = () => {
    due--;
    waiting.shift()?.();
    postMessage();
  };
  const postMessage = messageTask(() => {
    if (!waiting.length) armed = false;
    else if (due > 0 && performance.now() - batchStart < batchMs) resumeNext();
    else setTimeout(startBatch, 0);
  });
  const startBatch = () => {
    batchStart = performance.now();
    // Those waiting when the batch starts, each once: one that yields again waits for the next timer turn.
    due = waiting.length;
    resumeNext();
  };

  return () =>
    new Promise((resolve) => {
      waiting.push(resolve);
      if (!armed) {
        armed = true;
        setTimeout(startBatch, 0);
      }
    });
}

/**
 * A turn of the event loop without the timer's delay: a message to ourselves, about 15 µs. Still a task (the
 * runtime reads the requests that came in before it: `api/healthz_order_test.ts` fails with a microtask), but
 * every message queued is delivered in the turn that finds them, so it is for a request alone in the gate
 * (api/middleware/tenant_gate.ts), where the timer's 2 ms was most of an authenticated request's fixed cost
 * (decision 016, revised after decision 030).
 */
export const yieldToEventLoopSoon: () => Promise<void> = (() => {
  const waiting: (() => void)[] = [];
  const postMessage = messageTask(() => waiting.shift()?.());
  return () =>
    new Promise<void>((resolve) => {
      waiting.push(resolve);
      postMessage();
    });
})();

/**
 * Messages to this thread: each call of the answer runs `onMessage` as a task of its own, after the microtasks
 * of the code that posted it. A message not yet delivered keeps the process alive (a CLI's long work, a test);
 * with none, the port does not.
 */
function messageTask(onMessage: () => void): () => void {
  let channel: MessageChannel | undefined;
  let pending = 0;
  return () => {
    if (!channel) {
      const c = channel = new MessageChannel();
      c.port1.on("message", () => {
        if (--pending === 0) c.port1.unref();
        onMessage();
      });
      c.port1.unref();
      c.port2.unref();
    }
    if (pending++ === 0) channel.port1.ref();
    channel.port2.postMessage(0);
  };
}

/**
 * How long a download's turn runs before other requests get one (from a timer turn). Measured with the
 * 200,000-line Sales Data download (`npm run bench -- --only xlsx`, 2026-11-27): 4 ms, 15.7-16.5 s and other
 * requests at most 28-35 ms; 5 ms, 13.7 s and 32.5 ms; 8 ms, 12.0-14.4 s and 50-58 ms (budgets 20 s and 50 ms).
 */
const DOWNLOAD_SLICE_MS = 5;

/**
 * For a long loop of synchronous steps (a download's rows): `due()` is true once `ms` have passed since the
 * last turn given, and then starts the count again; the loop then awaits `yieldToEventLoop()`. What runs
 * between two checks (a row, and what its consumers do with it) stays in one turn, the rest is spread.
 */
export function timeSlices(ms = DOWNLOAD_SLICE_MS): { due(): boolean } {
  let since = performance.now();
  return {
    due() {
      const now = performance.now();
      if (now - since < ms) return false;
      since = now;
      return true;
    },
  };
}
