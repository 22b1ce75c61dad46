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

interface Lane {
  active: number;
  waiting: (() => void)[];
  /** in the rotation of lanes with a task that may start */
  queued: boolean;
}

/**
 * Turns shared fairly between lanes (tenants): at most `max` tasks run at once, at most `perLane` of one
 * lane, and each lane queues at most `laneWaiting` more (first in, first out); beyond that `run` refuses at
 * once with `busy()`. A freed turn goes to the lanes with a task waiting in rotation, so a lane never waits
 * behind another lane's backlog, only for one of its running tasks to end; with `perLane < max` a turn is
 * left for another lane even while one lane is flooded.
 */
export class FairQueue {
  private active = 0;
  private lanes = new Map<string | number, Lane>();
  private rotation: (string | number)[] = [];

  constructor(readonly max: number, readonly perLane: number, readonly laneWaiting: number) {}

  get load() {
    let waiting = 0;
    for (const l of this.lanes.values()) waiting += l.waiting.length;
    return { active: this.active, waiting, lanes: this.lanes.size };
  }

  /** Whether `run` in `lane` would be refused right now (a caller may skip its own work before it). */
  full(lane: string | number): boolean {
    const l = this.lanes.get(lane);
    return !!l && l.waiting.length >= this.laneWaiting;
  }

  /** `laneWaiting` may be raised for one lane of trusted work (a command line tool's, say). */
  async run<T>(
    lane: string | number,
    fn: () => Promise<T>,
    busy: () => Error,
    laneWaiting = this.laneWaiting,
  ): Promise<T> {
    let l = this.lanes.get(lane);
    if (!l) this.lanes.set(lane, l = { active: 0, waiting: [], queued: false });
    if (this.active < this.max && l.active < this.perLane && !l.waiting.length) {
      this.active++;
      l.active++;
    } else {
      if (l.waiting.length >= laneWaiting) throw busy();
      // The turn is handed over counted (`dispatch` counts it before resolving).
      await new Promise<void>((resolve) => {
        l!.waiting.push(resolve);
        this.enqueue(lane, l!);
        this.dispatch();
      });
    }
    try {
      return await fn();
    } finally {
      this.active--;
      l.active--;
      this.enqueue(lane, l);
      this.dispatch();
      if (!l.active && !l.waiting.length) this.lanes.delete(lane);
    }
  }

  private enqueue(lane: string | number, l: Lane) {
    if (!l.queued && l.waiting.length && l.active < this.perLane) {
      l.queued = true;
      this.rotation.push(lane);
    }
  }

  private dispatch() {
    while (this.active < this.max && this.rotation.length) {
      const lane = this.rotation.shift()!;
      const l = this.lanes.get(lane);
      if (!l) continue;
      l.queued = false;
      if (!l.waiting.length || l.active >= this.perLane) continue;
      this.active++;
      l.active++;
      const resolve = l.waiting.shift()!;
      this.enqueue(lane, l); // to the back of the rotation if it has more
      resolve();
    }
  }
}
