import { MessageChannel } from "node:worker_threads";

/**
 * A turn of the event loop without the timer's delay: a message to ourselves, about 15 µs. Still a task (the
 * runtime reads the requests that came in before it: `api/healthz_order_test.ts` fails with a microtask), but
 * every message queued is delivered in the turn that finds them, so it is for a request alone in the gate
 * (tenant_gate.ts), where the timer's 2 ms (lib/event_loop.ts) was most of an authenticated request's fixed
 * cost (decision 016, revised after decision 030).
 *
 * Server-only (`node:worker_threads`). lib/event_loop.ts uses the same kind of turn within its batches.
 */
let channel: MessageChannel | undefined;
const waiting: (() => void)[] = [];

function port(): MessageChannel {
  if (channel) return channel;
  const c = channel = new MessageChannel();
  c.port1.on("message", () => {
    waiting.shift()?.();
    if (!waiting.length) c.port1.unref();
  });
  // The ports keep a process alive only while a turn is waiting for its message (tests, the CLI).
  c.port1.unref();
  c.port2.unref();
  return c;
}

export const yieldToEventLoopSoon = (): Promise<void> =>
  new Promise((resolve) => {
    const c = port();
    if (!waiting.length) c.port1.ref();
    waiting.push(resolve);
    c.port2.postMessage(0);
  });
