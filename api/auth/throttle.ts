import { sql } from "drizzle-orm";
import type { Tx } from "../../db/client.ts";
import type { TenantDb } from "../../db/tenants.ts";
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

/**
 * How long an attempt's place in its counters outlives it at most: far beyond a password check (the
 * hashing queue answers 429 rather than wait long), so only an instance that died mid-check leaves one.
 */
const PENDING_MS = MINUTE;

export interface LoginAttempt {
  email: string;
  address: string;
  /** a device cookie's id, when the browser signed in to this account before */
  device?: string;
}

/** One attempt's hold on its counters: settle it exactly once, as a failure or a success. */
export interface ThrottleTicket {
  fail(): Promise<void>;
  succeed(): Promise<void>;
  /** the attempt ended without a verdict (the server was busy): it counts for nothing */
  release(): Promise<void>;
}

type Held = { key: string; rule: Rule };

/**
 * Failed sign-ins, counted in the tenant's database (`login_throttle`, decision 019), so every instance
 * serving the tenant meets the same limits. Each change is one guarded statement inside a write
 * transaction: an attempt takes its place only while its counters are under their limits, whatever
 * another instance does at the same moment. The address cap is per tenant (its database).
 */
export class LoginThrottle {
  constructor(private now: () => number = Date.now) {}

  private keys(a: LoginAttempt): Held[] {
    const account = a.email.trim().toLowerCase();
    if (a.device) return [{ key: `d:${account}:${a.device}`, rule: RULES.pair }];
    return [
      { key: `p:${account}:${a.address}`, rule: RULES.pair },
      { key: `a:${account}`, rule: RULES.account },
      { key: `i:${a.address}`, rule: RULES.address },
    ];
  }

  /** Refuses (429) a locked key or one whose allowance is taken by attempts in flight; holds one. */
  async begin(tdb: TenantDb, a: LoginAttempt): Promise<ThrottleTicket> {
    const held = this.keys(a);
    await tdb.write(async (tx) => {
      const t = this.now();
      await tx.run(sql`delete from login_throttle where expires_at <= ${t}`);
      for (const h of held) {
        if (!await take(tx, h, t)) throw await refusal(tx, h.key, t);
      }
    }, { keepsTotals: true });
    let settled = false;
    const settle = async (f: (tx: Tx, h: Held, t: number) => Promise<unknown>) => {
      if (settled) return;
      settled = true;
      await tdb.write(async (tx) => {
        const t = this.now();
        for (const h of held) await f(tx, h, t);
      }, { keepsTotals: true });
    };
    return {
      fail: () => settle(fail),
      // The right password clears this browser's own pair (or device) counter; the account and address
      // caps keep counting others' failures.
      succeed: () => settle((tx, h) => h.rule === RULES.pair ? clear(tx, h.key) : leave(tx, h.key)),
      release: () => settle((tx, h) => leave(tx, h.key)),
    };
  }
}

/**
 * Takes a place in one counter if it has room: a dead row (its window, lock and attempts in flight all
 * over) starts afresh; a locked one or one at its limit changes nothing. Answers whether it took one.
 */
async function take(tx: Tx, { key, rule }: Held, t: number): Promise<boolean> {
  const windowEnds = t + rule.window;
  const pendingUntil = t + PENDING_MS;
  const dead = sql`login_throttle.expires_at <= ${t}`;
  const pending =
    sql`(case when login_throttle.pending_until <= ${t} then 0 else login_throttle.pending end)`;
  const r = await tx.run(sql`
    insert into login_throttle (key, failures, pending, pending_until, window_ends, locked_until, lockouts,
                                expires_at)
    values (${key}, 0, 1, ${pendingUntil}, ${windowEnds}, 0, 0, ${Math.max(windowEnds, pendingUntil)})
    on conflict (key) do update set
      failures = case when ${dead} then 0 else failures end,
      lockouts = case when ${dead} then 0 else lockouts end,
      locked_until = case when ${dead} then 0 else locked_until end,
      window_ends = case when ${dead} then ${windowEnds} else window_ends end,
      pending = ${pending} + 1,
      pending_until = ${pendingUntil},
      expires_at = max(case when ${dead} then ${windowEnds} else window_ends end,
                       case when ${dead} then 0 else locked_until end, ${pendingUntil})
    where ${dead} or (login_throttle.locked_until <= ${t}
                      and login_throttle.failures + ${pending} < ${rule.max})`);
  return r.rowsAffected > 0;
}

async function refusal(tx: Tx, key: string, t: number): Promise<AppError> {
  const row = await tx.get<{ locked_until: number }>(
    sql`select locked_until from login_throttle where key = ${key}`,
  );
  const wait = row && row.locked_until > t ? row.locked_until - t : 1000;
  return new AppError("throttled", "Too many failed sign-in attempts. Try again later.", undefined, {
    "Retry-After": String(Math.ceil(wait / 1000)),
  });
}

/** The attempt's place given back: the last one out also drops the in-flight deadline. */
const released = {
  pending: sql`max(pending - 1, 0)`,
  pendingUntil: sql`(case when pending <= 1 then 0 else pending_until end)`,
};

function leave(tx: Tx, key: string) {
  return tx.run(sql`
    update login_throttle set pending = ${released.pending}, pending_until = ${released.pendingUntil},
      expires_at = max(window_ends, locked_until, ${released.pendingUntil})
    where key = ${key}`);
}

/** A failure: the `max`th in a row locks the key for `lock`, doubling with each lockout in the window. */
function fail(tx: Tx, { key, rule }: Held, t: number) {
  const locks = sql`(failures + 1 >= ${rule.max})`;
  const lockedUntil = sql`(case when ${locks}
    then ${t} + min(${rule.maxLock}, ${rule.lock} * (1 << min(lockouts, 20))) else locked_until end)`;
  return tx.run(sql`
    update login_throttle set
      pending = ${released.pending},
      pending_until = ${released.pendingUntil},
      failures = case when ${locks} then 0 else failures + 1 end,
      locked_until = ${lockedUntil},
      lockouts = case when ${locks} then lockouts + 1 else lockouts end,
      expires_at = max(window_ends, ${lockedUntil}, ${released.pendingUntil})
    where key = ${key}`);
}

/** The right password: the counter starts afresh (the row goes once no other attempt holds it). */
async function clear(tx: Tx, key: string) {
  await tx.run(sql`
    update login_throttle set pending = ${released.pending}, pending_until = ${released.pendingUntil},
      failures = 0, locked_until = 0, lockouts = 0,
      expires_at = max(window_ends, ${released.pendingUntil})
    where key = ${key}`);
  await tx.run(sql`delete from login_throttle where key = ${key} and pending = 0`);
}
