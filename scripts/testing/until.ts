/**
 * Waits for `ready()` under a deadline, a timer turn at a time (so I/O, workers and other timers run
 * between checks): what a test waits for instead of a fixed sleep.
 */
export async function until(ready: () => boolean, what: string, ms = 30_000) {
  const deadline = performance.now() + ms;
  while (!ready()) {
    if (performance.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
