import { MessageChannel } from "node:worker_threads";

/**
 * A real turn of the event loop for other requests. Local SQLite runs statements synchronously and settles
 * its promises as microtasks, so a chain of awaits on it never lets the runtime read another request, of any
 * tenant, or answer `/healthz`; only a task does. Used between write groups, download pages and handed-over
 * request turns.
 *
 * A timer turn (`setTimeout(fn, 0)`): Deno runs it after its timer tick, about 2 ms when idle. That delay is
 * what spreads a busy server's work over turns; with message turns (below) in these places, the 10-minute soak
 * saw `/healthz` at up to 260-322 ms and turns of 190-310 ms, against at most 142 ms with timers
 * (decision 016, revised 2026-11-25).
 */
export const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

const channel = new MessageChannel();
const waiting: (() => void)[] = [];
channel.port1.on("message", () => {
  waiting.shift()?.();
  if (!waiting.length) channel.port1.unref();
});
// The ports keep a process alive only while a turn is waiting for its message (tests, the CLI).
channel.port1.unref();
channel.port2.unref();

/**
 * A turn of the event loop without the timer's delay: a message to ourselves, about 15 µs. Still a task (the
 * runtime reads the requests that came in before it: `api/healthz_order_test.ts` fails with a microtask), but
 * every message queued is delivered in the turn that finds them, so it is for a request alone in the gate
 * (api/middleware/tenant_gate.ts), where the timer's 2 ms was most of an authenticated request's fixed cost.
 */
export const yieldToEventLoopSoon = (): Promise<void> =>
  new Promise((resolve) => {
    if (!waiting.length) channel.port1.ref();
    waiting.push(resolve);
    channel.port2.postMessage(0);
  });
