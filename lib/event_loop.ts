/**
 * A real turn of the event loop for other requests. Local SQLite runs statements synchronously and settles
 * its promises as microtasks, so a chain of awaits on it never lets the runtime read another request, of any
 * tenant, or answer `/healthz`; only a task does. Used between write groups, download pages and handed-over
 * request turns.
 *
 * A timer turn (`setTimeout(fn, 0)`): Deno runs it after its timer tick, about 2 ms when idle. That delay is
 * what spreads a busy server's work over turns; with message turns in these places, the 10-minute soak
 * saw `/healthz` at up to 260-322 ms and turns of 190-310 ms, against at most 142 ms with timers
 * (decision 016, revised 2026-11-25). The message turn for a request alone in the gate is server-only:
 * api/middleware/message_turn.ts (this file is shared with the browser's bundle).
 */
export const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

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
