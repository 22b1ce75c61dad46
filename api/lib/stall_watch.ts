/**
 * Long event-loop turns, named. One JavaScript thread runs every tenant's requests and, for local files,
 * every SQLite statement, so a turn that runs long holds up everyone, `/healthz` included. A timer that
 * should fire every `TICK_MS` notices when it fires late; past the threshold it logs one JSON line with
 * how late, and the requests in progress at that moment (the longest-running first): the turn that ran long
 * belonged to one of them. `STALL_LOG_MS` sets the threshold (0: off).
 */

const TICK_MS = 20;
/** Requests named in a stall's log line. */
const NAMED = 8;

interface Running {
  method: string;
  path: string;
  host?: string;
  start: number;
}

/** The requests in progress, for the stall log. */
export class InFlight {
  private running = new Map<number, Running>();
  private next = 0;
  /** The longest stall seen (ms) and how many passed the threshold, for /metrics. */
  stats = { stalls: 0, longestMs: 0 };

  /** `host`: the Host header, which names the tenant. */
  begin(method: string, path: string, host?: string): number {
    const id = this.next++;
    this.running.set(id, { method, path, host, start: performance.now() });
    return id;
  }

  end(id: number) {
    this.running.delete(id);
  }

  /** The longest-running requests first, with their age in ms. */
  oldest(now: number, n = NAMED) {
    return [...this.running.values()].sort((a, b) => a.start - b.start).slice(0, n).map((r) => ({
      method: r.method,
      path: r.path,
      ...(r.host ? { host: r.host } : {}),
      ms: Math.round(now - r.start),
    }));
  }

  get size() {
    return this.running.size;
  }
}

export type StallReport = { stall_ms: number; in_flight: number; requests: ReturnType<InFlight["oldest"]> };

/**
 * Starts the watch; returns its stop function. `report` gets each stall (by default one JSON line on
 * stderr).
 */
export function watchStalls(
  inflight: InFlight,
  thresholdMs: number,
  report: (r: StallReport) => void = (r) =>
    console.error(JSON.stringify({ t: new Date().toISOString(), ...r })),
): () => void {
  if (thresholdMs <= 0) return () => {};
  let due = performance.now() + TICK_MS;
  const timer = setInterval(() => {
    const now = performance.now();
    const late = now - due;
    due = now + TICK_MS;
    if (late > inflight.stats.longestMs) inflight.stats.longestMs = late;
    if (late < thresholdMs) return;
    inflight.stats.stalls++;
    report({ stall_ms: Math.round(late), in_flight: inflight.size, requests: inflight.oldest(now) });
  }, TICK_MS);
  Deno.unrefTimer(timer);
  return () => clearInterval(timer);
}
