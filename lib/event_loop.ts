/**
 * A real turn of the event loop for other requests. Local SQLite runs statements synchronously and settles
 * its promises as microtasks, so a chain of awaits on it never lets the runtime read another request, of any
 * tenant, or answer `/healthz`. Used between write groups, download pages and handed-over request turns.
 *
 * A message to ourselves, not a timer: Deno clamps `setTimeout(fn, 0)` to its timer tick, about 2 ms when the
 * server is idle, and every request's turn (api/middleware/tenant_gate.ts) waited that long, most of the
 * authenticated request's fixed cost (docs/performance.md). A message port's delivery is a task of the event
 * loop like a timer's (the runtime reads requests that came in before it: api/healthz_order_test.ts fails
 * with a microtask instead) and costs about 15 µs.
 */
import { MessageChannel } from "node:worker_threads";

const channel = new MessageChannel();
const waiting: (() => void)[] = [];
channel.port1.on("message", () => waiting.shift()?.());
// The ports must not keep a process alive on their own (tests, the CLI).
channel.port1.unref();
channel.port2.unref();

export const yieldToEventLoop = (): Promise<void> =>
  new Promise((resolve) => {
    waiting.push(resolve);
    channel.port2.postMessage(0);
  });
