/**
 * A full collection of the JavaScript heap, asked for once many tenants were closed (db/tenants.ts's idle
 * sweep), when the server runs with `--expose-gc` (decision 043, round 3). V8 lets the heap grow to twice what
 * the last full collection left alive (decision 021); a sweep of many tenants touched once (each signed in to
 * and read) leaves that grown heap holding their requests' garbage until the next collection V8 chooses, and
 * RSS with it. Marking runs incrementally (`execution: "async"`), in V8's own small steps between tasks.
 *
 * Answers a function to give the count of tenants a sweep closed, or undefined without `--expose-gc`.
 */
export function collectAfterClosing(
  { minClosed = 8, minIntervalMs = 2_000 }: { minClosed?: number; minIntervalMs?: number } = {},
): ((closed: number) => boolean) | undefined {
  const gc = (globalThis as { gc?: (options?: { type: string; execution: string }) => unknown }).gc;
  if (typeof gc !== "function") return undefined;
  let closedSince = 0;
  let last = -Infinity;
  return (closed) => {
    closedSince += closed;
    const now = performance.now();
    if (closedSince < minClosed || now - last < minIntervalMs) return false;
    closedSince = 0;
    last = now;
    gc({ type: "major", execution: "async" });
    return true;
  };
}
