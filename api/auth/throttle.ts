import { type SQL, sql } from "drizzle-orm";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import { DatabaseSync } from "node:sqlite";
import type { TenantDb } from "../../db/tenants.ts";
import { AppError } from "../../lib/errors.ts";
import { isDiskFull } from "../lib/db_helpers.ts";

const MINUTE = 60 * 1000;

interface LockRule {
  /** failures (counting attempts still being checked) allowed before the key is locked */
  max: number;
  /** how long failures are remembered */
  window: number;
  /** first lockout; each further one in the same window doubles it, up to `maxLock` */
  lock: number;
  maxLock: number;
}

interface DelayRule {
  /** how long failures are remembered (from the first of them) */
  window: number;
  /** failures in the window before any delay */
  free: number;
  /** the first delay (ms), doubled every `doubleEvery` failures more, up to `cap` */
  first: number;
  doubleEvery: number;
  cap: number;
}

/**
 * Only a key that an attacker cannot share with the owner locks (decision 041): the account and address
 * pair, or the account and device pair of a browser that signed in to the account before. Five failures
 * cost that pair one minute, doubling to at most a quarter of an hour.
 */
export const LOCK: LockRule = { max: 5, window: 15 * MINUTE, lock: MINUTE, maxLock: 15 * MINUTE };

/**
 * The broad counters never refuse: they delay the password check of a browser the account does not know,
 * from 1 s growing to at most 20 s. Per account (the email as typed, whether or not it names an account),
 * failures from anywhere; per address, failures on accounts that exist (a made-up email never slows a real
 * user down). A trusted device's attempts count on its own pair alone and are never delayed.
 */
export const DELAYS = {
  account: { window: 60 * MINUTE, free: 10, first: 1000, doubleEvery: 5, cap: 20_000 },
  address: { window: 15 * MINUTE, free: 20, first: 1000, doubleEvery: 5, cap: 20_000 },
} satisfies Record<string, DelayRule>;

/** The delay a broad counter with `failures` in its window sets. */
export function delayAfter(rule: DelayRule, failures: number): number {
  if (failures < rule.free) return 0;
  return Math.min(rule.cap, rule.first * 2 ** Math.floor((failures - rule.free) / rule.doubleEvery));
}

/**
 * Attempts of one tenant waiting out a delay at once, per process: more are answered 429 at once. Kept
 * below the tenant's turns (TENANT_CONCURRENCY, 6 by default), since a waiting attempt holds one.
 */
export const WAITING_PER_TENANT = 3;

/**
 * How long an attempt's place in its counter outlives it at most: far beyond a delay and a password check
 * (the hashing queue answers 429 rather than wait long), so only an instance that died mid-check leaves one.
 */
const PENDING_MS = MINUTE;

/** Longest email (RFC 5321, and what a user save accepts) and address kept in a key. */
export const MAX_EMAIL = 254;
const MAX_ADDRESS = 64;

export interface LoginAttempt {
  email: string;
  address: string;
  /** a device cookie's id, when the browser signed in to this account before */
  device?: string;
}

/** One attempt's hold on its counters: settle it exactly once, as a failure or a success. */
export interface ThrottleTicket {
  /** a wrong password; `known`: the email names an account (only those count for the address) */
  fail(known: boolean): Promise<void>;
  succeed(): Promise<void>;
  /** the attempt ended without a verdict (the server was busy): it counts for nothing */
  release(): Promise<void>;
}

export interface ThrottleOptions {
  /** waits out a delay; tests pass one that records it */
  sleep?: (ms: number) => Promise<void>;
}

/** Runs statements: a write transaction on the tenant's database, or on the in-memory fallback. */
interface Runner {
  run(q: SQL): Promise<{ rowsAffected: number }>;
  all<T>(q: SQL): Promise<T[]>;
}

/** Where counters are kept for one attempt: `key` names a counter there. */
interface Store {
  key(k: string): string;
  transact<T>(keys: string[], fn: (r: Runner) => Promise<T>): Promise<T>;
}

const sleeping = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Failed sign-ins, counted in the tenant's database (`login_throttle`, decision 019), so every instance
 * serving the tenant meets the same limits. Each change is one guarded statement inside a write
 * transaction: an attempt takes its place only while its pair is neither locked nor at its limit, whatever
 * another instance does at the same moment. When the tenant's disk is full, an attempt's counters are kept
 * in this process's memory instead (decision 041): sign-in goes on, still counted.
 */
export class LoginThrottle {
  private memory = new MemoryCounters();
  private waiting = new Map<number, number>();
  private sleep: (ms: number) => Promise<void>;

  constructor(private now: () => number = Date.now, opts: ThrottleOptions = {}) {
    this.sleep = opts.sleep ?? sleeping;
  }

  /** Counters kept in memory because the disk was full (tests, and whoever watches the process). */
  get memoryLoad() {
    return this.memory.load;
  }

  /**
   * Refuses (429) a locked pair or one whose allowance is taken by attempts in flight, and holds one place
   * in it; then waits out the broad counters' delay, or refuses (429) when `waitingPerTenant` attempts of the
   * tenant already wait.
   */
  async begin(
    tdb: TenantDb,
    a: LoginAttempt,
    waitingPerTenant = WAITING_PER_TENANT,
  ): Promise<ThrottleTicket> {
    const account = a.email.trim().toLowerCase().slice(0, MAX_EMAIL);
    const address = a.address.slice(0, MAX_ADDRESS);
    const lock = a.device ? `d:${account}:${a.device}` : `p:${account}:${address}`;
    const byAccount = `a:${account}`, byAddress = `i:${address}`;
    const keys = a.device ? [lock] : [lock, byAccount, byAddress];
    let store: Store = databaseStore(tdb);
    const take = (s: Store) =>
      s.transact(keys, async (r) => {
        const t = this.now();
        await r.run(sql`delete from login_throttle where expires_at <= ${t}`);
        if (!await takePlace(r, s.key(lock), t)) throw await refusal(r, s.key(lock), t);
        if (a.device) return 0;
        const rows = await r.all<{ key: string; failures: number }>(sql`
          select key, failures from login_throttle
          where key in (${s.key(byAccount)}, ${s.key(byAddress)}) and window_ends > ${t}`);
        let delay = 0;
        for (const row of rows) {
          const rule = row.key === s.key(byAccount) ? DELAYS.account : DELAYS.address;
          delay = Math.max(delay, delayAfter(rule, row.failures));
        }
        return delay;
      });
    let delay: number;
    try {
      delay = await take(store);
    } catch (e) {
      if (!isDiskFull(e)) throw e;
      store = this.memory.of(tdb);
      delay = await take(store);
    }

    let settled = false;
    const settle = async (f: (r: Runner, s: Store, t: number) => Promise<unknown>) => {
      if (settled) return;
      settled = true;
      try {
        await store.transact(keys, (r) => f(r, store, this.now()));
      } catch (e) {
        if (!isDiskFull(e) || store !== databaseStore(tdb)) throw e;
        // The disk filled while the password was checked: this verdict is kept in memory.
        const memory = this.memory.of(tdb);
        await memory.transact(keys, (r) => f(r, memory, this.now()));
      }
    };
    const ticket: ThrottleTicket = {
      fail: (known) =>
        settle(async (r, s, t) => {
          await failPair(r, s.key(lock), t);
          if (a.device) return;
          await countFailure(r, s.key(byAccount), DELAYS.account, t);
          if (known) await countFailure(r, s.key(byAddress), DELAYS.address, t);
        }),
      // The right password clears this browser's own pair; the broad counters keep counting others' failures.
      succeed: () => settle((r, s) => clear(r, s.key(lock))),
      release: () => settle((r, s) => leave(r, s.key(lock))),
    };
    if (delay > 0) {
      try {
        await this.wait(tdb.tenant.id, delay, waitingPerTenant);
      } catch (e) {
        await ticket.release();
        throw e;
      }
    }
    return ticket;
  }

  /** A delay, holding one of the tenant's few waiting places (a timer, nothing more). */
  private async wait(tenant: number, ms: number, places: number) {
    const n = this.waiting.get(tenant) ?? 0;
    if (n >= places) {
      throw new AppError(
        "throttled",
        "Too many sign-in attempts are waiting right now. Try again in a few seconds.",
        undefined,
        { "Retry-After": String(Math.ceil(ms / 1000)) },
      );
    }
    this.waiting.set(tenant, n + 1);
    try {
      await this.sleep(ms);
    } finally {
      const left = this.waiting.get(tenant)! - 1;
      if (left) this.waiting.set(tenant, left);
      else this.waiting.delete(tenant);
    }
  }
}

/** The tenant's own database: every instance serving the tenant meets the same counters. */
function databaseStore(tdb: TenantDb): Store {
  let s = stores.get(tdb);
  if (!s) {
    stores.set(
      tdb,
      s = {
        key: (k) => k,
        transact: (_keys, fn) => tdb.write((tx) => fn(tx), { keepsTotals: true }),
      },
    );
  }
  return s;
}
const stores = new WeakMap<TenantDb, Store>();

/** Counters kept in this process (at most this many rows, of at most about 340 characters a key). */
const MEMORY_ROWS = 10_000;

/**
 * The fallback while a tenant's disk is full: the same table and statements in an in-memory SQLite database,
 * keys prefixed with the tenant's id. A counter is first copied from the tenant's database (a read works on a
 * full disk), so a pair locked there stays locked. At most MEMORY_ROWS rows, those nearest their end dropped
 * first: about 10 MB at the longest keys (decision 041). Per process: what it counts is forgotten when the
 * disk has room again (at most one lockout's worth per pair).
 */
class MemoryCounters {
  private db?: DatabaseSync;
  private dialect = new SQLiteSyncDialect();
  private turn: Promise<unknown> = Promise.resolve();
  private stores = new WeakMap<TenantDb, Store>();

  get load() {
    const row = this.db?.prepare("select count(*) as n from login_throttle").get() as
      | { n: number }
      | undefined;
    return { rows: row?.n ?? 0 };
  }

  private open(): DatabaseSync {
    if (this.db) return this.db;
    const db = new DatabaseSync(":memory:");
    db.exec(`create table login_throttle (
      key text primary key not null, failures integer default 0 not null, pending integer default 0 not null,
      pending_until integer default 0 not null, window_ends integer not null,
      locked_until integer default 0 not null, lockouts integer default 0 not null, expires_at integer not null);
      create index login_throttle_expiry_idx on login_throttle (expires_at);`);
    return this.db = db;
  }

  of(tdb: TenantDb): Store {
    let s = this.stores.get(tdb);
    if (!s) this.stores.set(tdb, s = this.storeOf(tdb));
    return s;
  }

  private storeOf(tdb: TenantDb): Store {
    const prefix = `${tdb.tenant.id}|`;
    const key = (k: string) => prefix + k;
    const transact = <T>(keys: string[], fn: (r: Runner) => Promise<T>): Promise<T> => {
      const run = async () => {
        const db = this.open();
        for (const k of keys) await this.seed(db, tdb, k, key(k));
        db.exec("begin");
        try {
          const out = await fn(this.runner(db));
          db.exec("commit");
          return out;
        } catch (e) {
          db.exec("rollback");
          throw e;
        } finally {
          const n = (db.prepare("select count(*) as n from login_throttle").get() as { n: number }).n;
          if (n > MEMORY_ROWS) {
            db.prepare(`delete from login_throttle where key in
              (select key from login_throttle order by expires_at limit ?)`).run(n - MEMORY_ROWS);
          }
        }
      };
      // One at a time: a transaction's statements are awaited, and another must not begin in between.
      const out = this.turn.then(run, run);
      this.turn = out.catch(() => {});
      return out;
    };
    return { key, transact };
  }

  /** A counter not yet in memory starts as the tenant's database has it. */
  private async seed(db: DatabaseSync, tdb: TenantDb, k: string, memoryKey: string) {
    if (db.prepare("select 1 from login_throttle where key = ?").get(memoryKey)) return;
    let row: Record<string, number> | undefined;
    try {
      row = await tdb.db.get<Record<string, number>>(sql`
        select failures, pending, pending_until, window_ends, locked_until, lockouts, expires_at
        from login_throttle where key = ${k}`);
    } catch {
      return; // unreadable too: the counter starts afresh
    }
    if (!row) return;
    db.prepare(`insert into login_throttle (key, failures, pending, pending_until, window_ends, locked_until,
      lockouts, expires_at) values (?, ?, ?, ?, ?, ?, ?, ?)`).run(
      memoryKey,
      row.failures,
      row.pending,
      row.pending_until,
      row.window_ends,
      row.locked_until,
      row.lockouts,
      row.expires_at,
    );
  }

  private runner(db: DatabaseSync): Runner {
    const query = (q: SQL) => {
      const { sql: text, params } = this.dialect.sqlToQuery(q);
      return { statement: db.prepare(text), params: params as (string | number)[] };
    };
    return {
      run(q) {
        const { statement, params } = query(q);
        return Promise.resolve({ rowsAffected: Number(statement.run(...params).changes) });
      },
      all<T>(q: SQL) {
        const { statement, params } = query(q);
        return Promise.resolve(statement.all(...params) as T[]);
      },
    };
  }
}

/**
 * Takes a place in a pair's counter if it has room: a dead row (its window, lock and attempts in flight
 * all over) starts afresh; a locked one or one at its limit changes nothing. Answers whether it took one.
 */
async function takePlace(r: Runner, key: string, t: number): Promise<boolean> {
  const windowEnds = t + LOCK.window;
  const pendingUntil = t + PENDING_MS;
  const dead = sql`login_throttle.expires_at <= ${t}`;
  const pending =
    sql`(case when login_throttle.pending_until <= ${t} then 0 else login_throttle.pending end)`;
  const res = await r.run(sql`
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
                      and login_throttle.failures + ${pending} < ${LOCK.max})`);
  return res.rowsAffected > 0;
}

async function refusal(r: Runner, key: string, t: number): Promise<AppError> {
  const [row] = await r.all<{ locked_until: number }>(
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

function leave(r: Runner, key: string) {
  return r.run(sql`
    update login_throttle set pending = ${released.pending}, pending_until = ${released.pendingUntil},
      expires_at = max(window_ends, locked_until, ${released.pendingUntil})
    where key = ${key}`);
}

/** A failure: the `max`th in a row locks the pair for `lock`, doubling with each lockout in the window. */
function failPair(r: Runner, key: string, t: number) {
  const locks = sql`(failures + 1 >= ${LOCK.max})`;
  const lockedUntil = sql`(case when ${locks}
    then ${t} + min(${LOCK.maxLock}, ${LOCK.lock} * (1 << min(lockouts, 20))) else locked_until end)`;
  return r.run(sql`
    update login_throttle set
      pending = ${released.pending},
      pending_until = ${released.pendingUntil},
      failures = case when ${locks} then 0 else failures + 1 end,
      locked_until = ${lockedUntil},
      lockouts = case when ${locks} then lockouts + 1 else lockouts end,
      expires_at = max(window_ends, ${lockedUntil}, ${released.pendingUntil})
    where key = ${key}`);
}

/** One more failure on a broad counter; a counter whose window is over starts afresh. */
function countFailure(r: Runner, key: string, rule: DelayRule, t: number) {
  const over = sql`login_throttle.window_ends <= ${t}`;
  return r.run(sql`
    insert into login_throttle (key, failures, window_ends, expires_at)
    values (${key}, 1, ${t + rule.window}, ${t + rule.window})
    on conflict (key) do update set
      failures = case when ${over} then 1 else failures + 1 end,
      window_ends = case when ${over} then ${t + rule.window} else window_ends end,
      expires_at = case when ${over} then ${t + rule.window} else window_ends end`);
}

/** The right password: the counter starts afresh (the row goes once no other attempt holds it). */
async function clear(r: Runner, key: string) {
  await r.run(sql`
    update login_throttle set pending = ${released.pending}, pending_until = ${released.pendingUntil},
      failures = 0, locked_until = 0, lockouts = 0,
      expires_at = max(window_ends, ${released.pendingUntil})
    where key = ${key}`);
  await r.run(sql`delete from login_throttle where key = ${key} and pending = 0`);
}
