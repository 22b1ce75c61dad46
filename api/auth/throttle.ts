import { AppError } from "../../lib/errors.ts";

const MINUTE = 60 * 1000;

interface Rule {
  /** failures (counting attempts still being checked) allowed before the key is locked */
  max: number;
  /** how long failures are remembered */
  window: number;
  /** first lockout; each further one in the same window doubles it, up to `maxLock` */
  lock: number;
  maxLock: number;
}

/**
 * The usual shape (OWASP): a tight limit per account and address pair with a short, growing lockout;
 * a browser that signed in to the account before (a device cookie) has its own pair instead, so no one
 * else's failures lock it out; a slower cap per account across addresses; a cap per address across
 * accounts. Five failures cost the pair one minute, never the owner a quarter of an hour.
 */
export const RULES = {
  pair: { max: 5, window: 15 * MINUTE, lock: MINUTE, maxLock: 15 * MINUTE },
  account: { max: 50, window: 60 * MINUTE, lock: 10 * MINUTE, maxLock: 60 * MINUTE },
  address: { max: 100, window: 15 * MINUTE, lock: 5 * MINUTE, maxLock: 60 * MINUTE },
} satisfies Record<string, Rule>;

interface Counter {
  failures: number;
  /** attempts begun and not yet settled: counted before hashing, so parallel guesses cannot slip by */
  pending: number;
  since: number;
  lockedUntil: number;
  lockouts: number;
}

export interface LoginAttempt {
  tenantId: number;
  email: string;
  address: string;
  /** a device cookie's id, when the browser signed in to this account before */
  device?: string;
}

/** One attempt's hold on its counters: settle it exactly once, as a failure or a success. */
export interface ThrottleTicket {
  fail(): void;
  succeed(): void;
  /** the attempt ended without a verdict (the server was busy): it counts for nothing */
  release(): void;
}

/** Failed sign-ins, in memory, per process. */
export class LoginThrottle {
  private counters = new Map<string, Counter>();

  constructor(private now: () => number = Date.now) {}

  private keys(a: LoginAttempt): [string, Rule][] {
    const account = `${a.tenantId}:${a.email.trim().toLowerCase()}`;
    if (a.device) return [[`d:${account}:${a.device}`, RULES.pair]];
    return [
      [`p:${account}:${a.address}`, RULES.pair],
      [`a:${account}`, RULES.account],
      [`i:${a.address}`, RULES.address],
    ];
  }

  private counter(key: string, rule: Rule): Counter {
    const t = this.now();
    let c = this.counters.get(key);
    if (c && c.pending === 0 && c.lockedUntil <= t && c.since + rule.window <= t) {
      this.counters.delete(key);
      c = undefined;
    }
    if (!c) {
      if (this.counters.size >= 100_000) this.sweep();
      c = { failures: 0, pending: 0, since: t, lockedUntil: 0, lockouts: 0 };
      this.counters.set(key, c);
    }
    return c;
  }

  private sweep() {
    const t = this.now();
    for (const [key, c] of this.counters) {
      if (c.pending === 0 && c.lockedUntil <= t && c.since + RULES.account.window <= t) {
        this.counters.delete(key);
      }
    }
    // Still full of live counters (a flood of made-up addresses): forget the oldest half.
    if (this.counters.size >= 100_000) {
      let n = 0;
      for (const key of this.counters.keys()) if (n++ % 2 === 0) this.counters.delete(key);
    }
  }

  /** Refuses (429) a locked key or one whose allowance is taken by attempts in flight; holds one. */
  begin(a: LoginAttempt): ThrottleTicket {
    const held = this.keys(a).map(([key, rule]) => ({ key, rule, c: this.counter(key, rule) }));
    const t = this.now();
    for (const { c, rule } of held) {
      const wait = c.lockedUntil > t ? c.lockedUntil - t : c.failures + c.pending >= rule.max ? 1000 : 0;
      if (wait > 0) {
        throw new AppError("throttled", "Too many failed sign-in attempts. Try again later.", undefined, {
          "Retry-After": String(Math.ceil(wait / 1000)),
        });
      }
    }
    for (const h of held) h.c.pending++;
    let settled = false;
    const settle = (f: (h: (typeof held)[number]) => void) => {
      if (settled) return;
      settled = true;
      for (const h of held) {
        h.c.pending--;
        f(h);
      }
    };
    return {
      fail: () =>
        settle(({ c, rule }) => {
          if (++c.failures < rule.max) return;
          c.lockedUntil = this.now() + Math.min(rule.maxLock, rule.lock * 2 ** c.lockouts);
          c.lockouts++;
          c.failures = 0;
        }),
      // The right password clears this browser's own pair (or device) counter; the account and address
      // caps keep counting others' failures.
      succeed: () =>
        settle(({ key, rule, c }) => {
          if (rule === RULES.pair) this.clear(key, c);
        }),
      release: () => settle(() => {}),
    };
  }

  private clear(key: string, c: Counter) {
    if (c.pending === 0) this.counters.delete(key);
    else Object.assign(c, { failures: 0, lockedUntil: 0, lockouts: 0 });
  }
}
