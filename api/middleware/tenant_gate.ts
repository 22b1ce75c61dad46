import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../lib/context.ts";
import { AppError } from "../lib/errors.ts";
import { Semaphore } from "../lib/semaphore.ts";

/** Requests of one tenant waiting for a turn before they are refused (429). */
const MAX_WAITING = 256;

const busy = () =>
  new AppError(
    "throttled",
    "Too many requests for this business at once. Try again in a moment.",
    undefined,
    {
      "Retry-After": "1",
    },
  );

/**
 * Each tenant gets at most TENANT_CONCURRENCY requests being worked on at once; the rest wait their turn
 * (costing nothing but a promise). The server has one JavaScript thread: without this, a tenant with many
 * busy users fills it and every other tenant's request, and /healthz, waits behind all of theirs. With it,
 * a quiet tenant's request meets at most a few of each busy tenant's.
 */
export function tenantGate(concurrency: number) {
  const gates = new Map<number, Semaphore>();
  return createMiddleware<AppEnv>(async (c, next) => {
    const id = c.get("tenant").tenant.id;
    let gate = gates.get(id);
    if (!gate) gates.set(id, gate = new Semaphore(concurrency, MAX_WAITING));
    await gate.run(() => next(), busy);
  });
}
