import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../lib/context.ts";
import { AppError } from "../../lib/errors.ts";
import { yieldToEventLoop, yieldToEventLoopSoon } from "../../lib/event_loop.ts";

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

interface Lane {
  active: number;
  waiting: (() => void)[];
  /** in the rotation of lanes with a request that may start */
  queued: boolean;
}

/**
 * Turns for requests: at most `perTenant` of one tenant and `total` of all tenants are worked on at once;
 * the rest wait (costing nothing but a promise), each tenant in its own line, and a freed turn goes to the
 * tenants in rotation, so a quiet tenant's request waits for at most one turn of each busy tenant, never for
 * their whole backlog.
 *
 * Why both limits: the server has one JavaScript thread, which runs every request's code and, for local
 * files, every SQLite statement. A new request, another tenant's or `/healthz`, waits for everything ready
 * to run ahead of it, so the number of requests in progress, not the number waiting, sets everyone's
 * latency. Requests on remote databases (sqld) spend their time waiting for the network: raise
 * SERVER_CONCURRENCY there.
 */
export class FairGate {
  private active = 0;
  private lanes = new Map<number, Lane>();
  private rotation: number[] = [];

  constructor(readonly total: number, readonly perTenant: number, readonly maxWaiting = MAX_WAITING) {}

  get load() {
    let waiting = 0;
    for (const l of this.lanes.values()) waiting += l.waiting.length;
    return { active: this.active, waiting, tenants: this.lanes.size };
  }

  async run<T>(tenant: number, fn: () => Promise<T>): Promise<T> {
    let lane = this.lanes.get(tenant);
    if (!lane) this.lanes.set(tenant, lane = { active: 0, waiting: [], queued: false });
    if (this.active < this.total && lane.active < this.perTenant && !lane.waiting.length) {
      this.active++;
      lane.active++;
      // Even a free turn starts from the event loop. The runtime hands requests over in the order they came
      // and only between event-loop turns: started at once, every request ran in the turn that read it, so
      // the runtime read the next one only after it, and a new request (another tenant's, `/healthz`) waited
      // behind every request already sent, whatever the gate would have chosen. Yielding first lets the
      // runtime read every request that has come in, so the waiting ones queue here, where turns are fair.
      // Alone (an idle server), a message turn (microseconds); with others in progress, a timer turn, which
      // spreads them over turns (lib/event_loop.ts).
      await (this.active > 1 ? yieldToEventLoop() : yieldToEventLoopSoon());
    } else {
      if (lane.waiting.length >= this.maxWaiting) throw busy();
      // The turn is handed over counted (`dispatch` counts it before resolving).
      await new Promise<void>((resolve) => {
        lane!.waiting.push(resolve);
        this.enqueue(tenant, lane!);
        this.dispatch();
      });
    }
    try {
      return await fn();
    } finally {
      this.active--;
      lane.active--;
      this.enqueue(tenant, lane);
      this.dispatch();
      if (!lane.active && !lane.waiting.length) this.lanes.delete(tenant);
    }
  }

  private enqueue(tenant: number, lane: Lane) {
    if (!lane.queued && lane.waiting.length && lane.active < this.perTenant) {
      lane.queued = true;
      this.rotation.push(tenant);
    }
  }

  private dispatch() {
    while (this.active < this.total && this.rotation.length) {
      const tenant = this.rotation.shift()!;
      const lane = this.lanes.get(tenant)!;
      lane.queued = false;
      if (!lane.waiting.length || lane.active >= this.perTenant) continue;
      this.active++;
      lane.active++;
      const resolve = lane.waiting.shift()!;
      this.enqueue(tenant, lane); // to the back of the rotation if it has more
      // Started from the event loop, not as a microtask of the request that just ended (a tenant's backlog
      // handed over directly would run in one event-loop turn while every other request waits).
      yieldToEventLoop().then(resolve);
    }
  }
}

/** The gate as middleware: after the tenant is known, before the session is loaded. */
export function tenantGate(gate: FairGate) {
  return createMiddleware<AppEnv>(async (c, next) => {
    await gate.run(c.get("tenant").tenant.id, () => next());
  });
}
