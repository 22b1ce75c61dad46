/**
 * At most `max` tasks at once, at most `maxWaiting` queued behind them; beyond that `run` refuses at
 * once with `busy()`, so a flood is answered quickly instead of piling up memory and latency.
 */
export class Semaphore {
  private active = 0;
  private waiting: (() => void)[] = [];

  constructor(readonly max: number, readonly maxWaiting: number) {}

  get load() {
    return { active: this.active, waiting: this.waiting.length };
  }

  async run<T>(fn: () => Promise<T>, busy: () => Error): Promise<T> {
    if (this.active >= this.max) {
      if (this.waiting.length >= this.maxWaiting) throw busy();
      // The releasing task hands its slot over: `active` stays counted.
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.active++;
    }
    try {
      return await fn();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}
