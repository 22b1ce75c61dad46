import type { Client, InStatement, Transaction, TransactionMode } from "@libsql/client";
import { sql } from "drizzle-orm";
import { AppError } from "../lib/errors.ts";
import type { Tenant } from "./catalog/schema.ts";
import {
  isFileUrl,
  migrateTenant,
  openClient,
  resolveDbUrl,
  type TenantDatabase,
  tenantDrizzle,
  type Tx,
} from "./client.ts";
import { dirname } from "node:path";
import { yieldToEventLoop } from "../lib/event_loop.ts";
import { clientBytes, isFileClient, trimIdleConnections } from "./sqlite_client.ts";

/** A local file as it was when its database was opened: a delete removes it, a restore or a create replaces it. */
export interface FileIdentity {
  path: string;
  dev: number;
  ino: number | null;
}

/** The file now at `path` is the one opened (same device and inode). */
function stillThere(f: FileIdentity): boolean {
  try {
    const st = Deno.statSync(f.path);
    return st.ino === f.ino && st.dev === f.dev;
  } catch {
    return false;
  }
}

/**
 * `PRAGMA user_version` of a tenant file that a restore has replaced. The restore sets it inside a write
 * transaction on the old file; every write here checks it inside its own transaction, so once the
 * restore has fenced the old file nothing more can be committed (and acknowledged) there: the write is
 * refused with 503 and its retry reaches the new file.
 */
export const RETIRED = 0x52455452;

export const retiredError = () =>
  new AppError("unavailable", "This business's data is being restored. Try again in a moment.", undefined, {
    "Retry-After": "1",
  });

/** The catalog pointed at a file that is not there (anymore): a restore or delete is switching it. */
export const unavailableError = () =>
  new AppError("unavailable", "This business's data is being moved. Try again in a moment.", undefined, {
    "Retry-After": "1",
  });

/**
 * A write met another instance's lock (or its remote transaction was lost) and retries ran out: nothing
 * of it was saved.
 */
export const busyError = () =>
  new AppError(
    "unavailable",
    "The database is busy with other servers' writes, so nothing was saved. Try again in a moment.",
    undefined,
    { "Retry-After": "1" },
  );

/**
 * Errors that mean "not committed, try again": another process holds the file's write lock
 * (`SQLITE_BUSY`, after the short busy wait), or a libSQL server dropped the transaction (its stream
 * expired, or it timed out waiting for another writer). The transaction was rolled back, so re-running
 * it whole is safe.
 */
export function isRetryable(e: unknown): boolean {
  for (
    let x = e as { message?: string; code?: string; cause?: unknown } | undefined;
    x;
    x = x.cause as typeof x
  ) {
    const code = String(x.code ?? "");
    if (/^SQLITE_(BUSY|LOCKED)/.test(code) || code === "STREAM_EXPIRED") return true;
    if (
      /database is locked|stream (has )?expired|stream not found|transaction timed[- ]out/i.test(
        String(x.message),
      )
    ) {
      return true;
    }
  }
  return false;
}

/** How long the driver itself waits for a local file's lock, blocking the thread: kept short. */
export const BUSY_WAIT_MS = 20;

/** Re-runs of a write group that met another instance's lock: about 3 s in all, then 503. */
const RETRY_DELAYS_MS = [5, 10, 20, 40, 80, 120, 160, 200, 250, 300, 350, 400, 450, 500];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** A delay with jitter, so two instances that met do not retry in step. */
const backoff = (ms: number) => sleep(ms / 2 + Math.random() * ms);

/** Writes committed together at most: enough to share one fsync, short enough not to hold the thread. */
const MAX_GROUP = 32;

/** How long a group may run its writes before it lets other requests in. */
const YIELD_MS = 10;

interface Queued {
  fn: (tx: Tx) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  /** changes no row any list counts (`WriteOptions.keepsTotals`) */
  keepsTotals?: boolean;
}

export interface WriteOptions {
  /**
   * The write changes no row that a list counts or sums (a sign-in's throttle counters, a revoked session):
   * it leaves the cached totals as they are (`cachedTotal`). Every sign-in wrote, and the next read of each
   * large list counted it again: 12-16 ms for Sales Data's 200,000 lines and the inventory's Totals row.
   */
  keepsTotals?: boolean;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/**
 * One open tenant database. Reads go straight to the client; writes go through `write`, which runs
 * them one at a time, so concurrent requests of this process never meet SQLITE_BUSY and a check inside
 * a write sees what it is about to change. Writes waiting together are committed together (group
 * commit): one transaction and one fsync for the group, each write in its own savepoint, so one that
 * fails is undone alone and answers its own error. Each is acknowledged only after the commit.
 */
export class TenantDb {
  private queue: Queued[] = [];
  private draining: Promise<void> = Promise.resolve();
  private running = false;
  private totals = new Map<string, unknown>();
  /**
   * What a write of the group running now learnt that holds for the group's later writes (they run one
   * after another in its transaction); a new map for each group and each re-run of one. See startDueLines.
   */
  groupNotes = new Map<string, unknown>();
  private totalsVersion = -1;

  constructor(
    readonly tenant: Tenant,
    readonly url: string,
    readonly client: Client,
    readonly db: TenantDatabase,
  ) {
    this.local = isFileUrl(url);
    this.groupDb = pipelinedDrizzle(client, (durable) => this.committed = durable) ?? db;
  }

  /**
   * The write groups' drizzle: over a local file, its transactions commit without waiting for durability,
   * which `commitGroup` then waits for while the next group runs (pipelined group commits).
   */
  private readonly groupDb: TenantDatabase;
  /** What the last group's commit must wait for before it is acknowledged (set by its COMMIT). */
  private committed: Promise<void> | undefined;
  /** Groups committed and waiting to be durable before they are answered. */
  private answering = new Set<Promise<void>>();

  /** Settles once the last group's commit is durable (or could not be made so); undefined once it has. */
  private syncing: Promise<void> | undefined;
  /** Wakes a group waiting for writes to join it (`joiners`) when one is queued. */
  private arrived: (() => void) | null = null;

  private syncingUntil(durable: Promise<void>) {
    const ignore = () => {};
    const settled = durable.then(ignore, ignore);
    this.syncing = settled;
    settled.then(() => {
      if (this.syncing === settled) this.syncing = undefined;
    });
  }

  /** A local file, whose commits are made durable off the thread. */
  private readonly local: boolean;

  /** Whether a restore has fenced this file (db/tenants.ts RETIRED). */
  private async retired(): Promise<boolean> {
    const rs = await this.client.execute("PRAGMA user_version");
    return rs.rows[0]?.[0] === RETIRED;
  }

  /** Writes queued and not yet taken into a commit group. */
  get writesWaiting(): number {
    return this.queue.length;
  }

  write<T>(fn: (tx: Tx) => Promise<T>, opts: WriteOptions = {}): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({
        fn,
        resolve: resolve as (v: unknown) => void,
        reject,
        keepsTotals: opts.keepsTotals,
      });
      this.arrived?.();
      if (!this.running) {
        this.running = true;
        this.draining = this.drain();
      }
    });
  }

  /**
   * Runs the queued writes a group at a time. A group is answered once its commit is durable; the next group
   * runs meanwhile (its commit shares the next WAL sync), so the thread is not idle while the disk syncs.
   */
  private async drain() {
    try {
      while (this.queue.length) {
        const { answered } = await this.commitGroup(this.queue.splice(0, MAX_GROUP));
        if (answered) {
          this.answering.add(answered);
          answered.finally(() => this.answering.delete(answered));
        }
        // Without it a backlog of groups would keep every other request (other tenants', /healthz)
        // waiting until it is gone.
        if (this.queue.length) await yieldToEventLoop();
      }
    } finally {
      this.running = false;
    }
  }

  /**
   * Commits a group; one that met another instance's lock before committing runs again whole (every
   * write is a function of its transaction alone), with a growing delay, and answers 503 when retries
   * run out.
   */
  /** Runs and commits a group; `answered` settles once its writes are answered (an async function's
   * promise would adopt it: the drain goes on before it settles). */
  private async commitGroup(group: Queued[]): Promise<{ answered?: Promise<void> }> {
    for (let attempt = 0;; attempt++) {
      const outcomes: Outcome[] = [];
      let durable: Promise<void> | undefined;
      try {
        this.committed = undefined;
        await this.runGroup(group, outcomes);
        durable = this.committed;
        if (durable) this.syncingUntil(durable);
      } catch (error) {
        if (isRetryable(error) && attempt < RETRY_DELAYS_MS.length) {
          await backoff(RETRY_DELAYS_MS[attempt]);
          continue;
        }
        // Not committed (a lone write's own error, the fence, a full disk, retries spent): nothing of the
        // group is saved.
        const answer = isRetryable(error) ? busyError() : error;
        for (const w of group) w.reject(answer);
        return {};
      }
      return { answered: this.answer(group, outcomes, durable) };
    }
  }

  /** A committed group's answers, once its commit is durable. */
  private async answer(group: Queued[], outcomes: Outcome[], durable: Promise<void> | undefined) {
    try {
      await durable;
      // Made durable off the thread (decision 030), a commit is answered a sync later: a restore may have
      // fenced the file meanwhile. Then the group's writes are in the file the restore replaced, so they are
      // answered as refused (503, and the retry reaches the restored file), never acknowledged and lost.
      if (this.local && await this.retired()) {
        for (const w of group) w.reject(retiredError());
        return;
      }
    } catch (error) {
      // The WAL could not be synced: nothing of the group is acknowledged.
      for (const w of group) w.reject(error);
      return;
    }
    group.forEach((w, i) => {
      const o = outcomes[i];
      if (o.ok) w.resolve(o.value);
      else w.reject(o.error);
    });
  }

  private async runGroup(group: Queued[], outcomes: Outcome[]) {
    await this.groupDb.transaction(async (tx) => {
      this.groupNotes = new Map();
      const fence = await tx.get<{ user_version: number }>(sql`PRAGMA user_version`);
      if (fence?.user_version === RETIRED) throw retiredError();
      let since = performance.now();
      const runFrom = async (first: number) => {
        for (let i = first; i < group.length; i++) {
          try {
            outcomes.push({ ok: true, value: await tx.transaction((sp) => group[i].fn(sp)) });
          } catch (error) {
            // The transaction itself is lost (another instance's lock, a dropped stream): the whole group
            // runs again rather than answering this write alone.
            if (isRetryable(error)) throw error;
            outcomes.push({ ok: false, error });
          }
          // A long group gives other requests (reads on other connections, /healthz) a turn.
          if (performance.now() - since > YIELD_MS) {
            await yieldToEventLoop();
            since = performance.now();
          }
        }
      };
      // A lone write needs no savepoint: its error undoes the whole transaction, which holds only it.
      if (group.length === 1) outcomes.push({ ok: true, value: await group[0].fn(tx) });
      else await runFrom(0);
      for (;;) {
        const more = await this.joiners(group.length);
        if (!more.length) break;
        group.push(...more);
        await runFrom(group.length - more.length);
      }
      if (outcomes.some((o, i) => o.ok && !group[i].keepsTotals)) await bumpVersion(tx);
    });
  }

  /**
   * Writes that join the group running now, before it commits: while the previous group's commit is being
   * synced, this one's sync could not start anyway (one runs at a time, decision 030), so committing now would
   * only cost a commit of its own (its WAL frames: a line save's insert touches a dozen index pages) for no
   * earlier answer. Until that sync is done the group takes in the writes that arrive (up to MAX_GROUP);
   * then it commits, and its sync starts at once. Without it, requests arriving one by one made groups of one.
   * The wait is never longer than that sync, which bounds how long this holds the file's write lock.
   */
  private async joiners(size: number): Promise<Queued[]> {
    const room = MAX_GROUP - size;
    if (room <= 0) return [];
    if (!this.queue.length) {
      const syncing = this.syncing;
      if (!syncing) return [];
      await Promise.race([syncing, new Promise<void>((resolve) => this.arrived = resolve)]);
      this.arrived = null;
    }
    return this.queue.splice(0, room);
  }

  /**
   * A list's total, counted once per version of the database: or several figures counted by one query (a
   * list's count and its Totals row), under one key. A count walks every matching index entry (4 ms at
   * 100,000 inspections, most of a list page's cost) while the page itself reads a few rows; the version is
   * one row that every instance's write transaction bumps, so a write on any instance makes the totals of all
   * of them stale. Writes that bypass `write` (the CLI, test factories) do not bump it.
   */
  async cachedTotal<T>(key: string, count: () => Promise<T>): Promise<T> {
    const [row] = await this.db.all<{ version: number }>(sql`select version from write_version where id = 1`);
    const version = row?.version ?? 0;
    if (this.totalsVersion !== version) {
      this.totals.clear();
      this.totalsVersion = version;
    }
    const known = this.totals.get(key) as T | undefined;
    if (known !== undefined) return known;
    const total = await count();
    // Counted at this version or later: a later write only means it is counted again next time.
    if (this.totalsVersion === version) {
      if (this.totals.size >= 1000) this.totals.clear();
      this.totals.set(key, total);
    }
    return total;
  }

  /** A local file's identity when it was opened (`TenantCache` closes it once the file is removed or replaced). */
  file: FileIdentity | undefined;

  async close() {
    while (this.running) await this.draining;
    await Promise.all(this.answering);
    this.client.close();
  }
}

/**
 * drizzle over a local file's client whose write transactions hand their COMMIT's durability wait to
 * `committed` instead of waiting for it (`FileTransaction.commitNow`); undefined for other clients.
 */
function pipelinedDrizzle(client: Client, committed: (durable: Promise<void> | undefined) => void) {
  const probe = client as unknown as { transaction(mode?: TransactionMode): Promise<Transaction> };
  if (!isFileClient(client)) return undefined;
  const wrapped = new Proxy(client, {
    get(target, p) {
      if (p === "transaction") {
        return async (mode?: TransactionMode) =>
          new PipelinedTransaction(await probe.transaction(mode), committed);
      }
      const v = Reflect.get(target, p, target);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
  return tenantDrizzle(wrapped);
}

/** A transaction of the file client whose commit answers at once, handing on the wait for durability. */
class PipelinedTransaction implements Transaction {
  constructor(
    private tx: Transaction,
    private committed: (durable: Promise<void> | undefined) => void,
  ) {}
  execute(stmt: InStatement) {
    return this.tx.execute(stmt);
  }
  batch(stmts: InStatement[]) {
    return this.tx.batch(stmts);
  }
  executeMultiple(sql: string) {
    return this.tx.executeMultiple(sql);
  }
  rollback() {
    return this.tx.rollback();
  }
  close() {
    this.tx.close();
  }
  get closed() {
    return this.tx.closed;
  }
  commit(): Promise<void> {
    try {
      this.committed((this.tx as unknown as { commitNow(): Promise<void> | undefined }).commitNow());
      return Promise.resolve();
    } catch (e) {
      return Promise.reject(e);
    }
  }
}

/** Every instance's cached totals are counted at a version: a committed change makes them stale. */
function bumpVersion(tx: Tx) {
  return tx.run(sql`insert into write_version (id, version) values (1, 1)
                    on conflict (id) do update set version = version + 1`);
}

export async function openTenantDb(dataDir: string, tenant: Tenant, migrate = true): Promise<TenantDb> {
  const url = resolveDbUrl(dataDir, tenant.db_url);
  const path = isFileUrl(url) ? url.slice("file:".length) : undefined;
  let identity: FileIdentity | undefined;
  if (path && path !== ":memory:") {
    // Opening a missing file would make a new, empty database under the tenant's name: the file of a record
    // read just before a restore switched it or a delete removed it. The retry finds the catalog as it is now.
    try {
      const st = Deno.statSync(path);
      identity = { path, dev: st.dev, ino: st.ino };
    } catch {
      throw unavailableError();
    }
  }
  // Commits and checkpoints fsync off the JavaScript thread (decision 030): a slow disk never holds other
  // tenants' requests.
  const client = await openClient(url, tenant.db_token, { busyMs: BUSY_WAIT_MS, syncOffThread: true });
  try {
    const db = tenantDrizzle(client);
    // Two instances opening the tenant at once: one migrates, the other waits its turn and finds it done.
    const migrated = migrate && await retryBusy(() => migrateTenant(db));
    // Planner statistics, so a job's inspections are found through the job_id index and each sort uses
    // its own index. A full (sampled, ~3 ms at 100,000 inspections) ANALYZE when there are none yet or a
    // migration just added indexes; otherwise `PRAGMA optimize`, which re-analyzes only tables that grew
    // a lot. A libSQL server (sqld) refuses both statements: it keeps its own. Another instance writing
    // at that moment only means the statistics wait for a later open.
    if (isFileUrl(url)) {
      const stats = await client.execute("select 1 from sqlite_master where name = 'sqlite_stat1'");
      await client.executeMultiple(
        stats.rows.length && !migrated
          ? "PRAGMA analysis_limit=1000; PRAGMA optimize;"
          : "PRAGMA analysis_limit=1000; ANALYZE;",
      ).catch((e) => {
        if (!isRetryable(e)) throw e;
      });
    }
    const tdb = new TenantDb(tenant, url, client, db);
    tdb.file = identity;
    return tdb;
  } catch (e) {
    client.close();
    throw e;
  }
}

/** `fn` again after a delay while it meets another instance's lock; 503 when retries run out. */
async function retryBusy<T>(fn: () => Promise<T>): Promise<T> {
  for (let attempt = 0;; attempt++) {
    try {
      return await fn();
    } catch (e) {
      if (!isRetryable(e)) throw e;
      if (attempt >= RETRY_DELAYS_MS.length) throw busyError();
      await backoff(RETRY_DELAYS_MS[attempt]);
    }
  }
}

/** Open tenant databases, bounded: the least recently used is closed when the cache is full. */
/**
 * A cache slot: the database (maybe still opening) and the requests holding it. Holds are counted
 * synchronously when a request asks, before any await, so an eviction or a restore that replaces the
 * slot meanwhile only marks it retired: it closes when its last request is done, never under one.
 */
class Slot {
  users = 0;
  retired = false;
  /** when a request last took or gave back the slot (performance.now()) */
  lastUsed = performance.now();
  /** its idle connections were closed since it was last used (`TenantCache.sweepIdle`) */
  trimmed = false;
  /** the database once open (for figures; requests await `db`) */
  ready: TenantDb | undefined;
  constructor(readonly tenant: Tenant, readonly db: Promise<TenantDb>) {
    db.then((d) => this.ready = d, () => undefined);
  }

  hold(): () => void {
    this.users++;
    this.lastUsed = performance.now();
    this.trimmed = false;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.lastUsed = performance.now();
      if (--this.users === 0 && this.retired) this.close();
    };
  }

  retire() {
    if (this.retired) return;
    this.retired = true;
    if (this.users === 0) this.close();
  }

  close(): Promise<void> {
    return this.db.then((d) => d.close()).catch(() => undefined);
  }
}

/**
 * How often the cache looks whether the files of its open databases are still the ones it opened. A CLI
 * `delete` or `restore` (another process) removes a tenant's file; its database here is then closed within
 * this time without any request, or on the next request of any tenant that comes more than
 * `FILE_CHECK_ON_REQUEST_MS` after the last look. A look is one `stat` of each directory holding open tenant
 * files (`DATA_DIR/tenants`), and a `stat` of each open file only when that directory changed lately (a file was
 * added, removed or renamed in it): about 8 microseconds, where a `stat` of 200 open files is 1.4-2 ms
 * (measured, decision 037).
 */
export const FILE_CHECK_MS = 1000;
const FILE_CHECK_ON_REQUEST_MS = 50;
/** A directory changed this recently is looked into at every look (its mtime is only as fine as a ms). */
const DIR_SETTLE_MS = 2000;

/**
 * What an open tenant left alone costs, and for how long (decision 043). Each SQLite connection of a tenant
 * holds its schema (about 420 KB for the tenant schema), its page cache (up to 2 MB) and its statements: 1,000
 * tenants each signed in and read once left 200 of them open and the server at 502 MB. A tenant without
 * requests for `trimMs` has its idle connections closed (one fresh connection stays, which has read nothing);
 * after `closeMs` it is closed, as an eviction would, once no request holds it (decisions 029, 030, 037: its
 * writes are answered and durable first). Its next request opens it again (a cold open: a few ms). At most
 * `warm` tenants without requests stay open (each up to FILE_CONNECTIONS x (schema + a 2 MB page cache + its
 * statements' byte bound) until trimmed), and the open tenants' estimated memory (`clientBytes`) stays under
 * `bytes`: past either, the least recently used idle ones are closed at the next sweep, so a sweep of many
 * tenants touched once (a sign-in each) does not hold 200 schemas, nor leave their freed memory scattered.
 */
export interface IdleLimits {
  /** idle this long (ms), a tenant's idle connections are closed (one fresh one kept) */
  trimMs: number;
  /** idle this long (ms), it is closed */
  closeMs: number;
  /** idle tenants kept open at most: past that, the least recently used are closed at the next sweep */
  warm: number;
  /**
   * open tenants' estimated bytes at most (`clientBytes`: connections, schemas, statements): past that, the
   * least recently used idle tenants are closed at the next sweep
   */
  bytes: number;
}

export const IDLE_LIMITS: IdleLimits = { trimMs: 5_000, closeMs: 60_000, warm: 32, bytes: 64 * 2 ** 20 };

/** How often the cache looks for idle tenants. */
const IDLE_SWEEP_MS = 1000;

/** Open tenant databases, bounded: the least recently used is closed when the cache is full. */
export class TenantCache {
  private open = new Map<string, Slot>();
  private fileTimer: ReturnType<typeof setInterval> | undefined;
  private idleTimer: ReturnType<typeof setInterval> | undefined;
  private lastFileCheck = 0;
  /** mtime (ms) of each directory of open files, when its files were last looked at */
  private dirsSeen = new Map<string, number>();

  constructor(private dataDir: string, private max: number, private idle: IdleLimits = IDLE_LIMITS) {}

  /** Told how many tenants each idle sweep closed, when it closed any (api/lib/heap_collect.ts). */
  onIdleClosed: ((closed: number) => void) | undefined;

  /** Changes some of the idle limits (`IdleLimits`): the byte bound from TENANT_CACHE_MB, tests' limits. */
  setIdleLimits(limits: Partial<IdleLimits>) {
    this.idle = { ...this.idle, ...limits };
  }

  /**
   * Trims the tenants idle for `idle.trimMs` and closes those idle for `idle.closeMs` (`IdleLimits`), and the
   * least recently used idle tenants past `idle.warm` of them or past `idle.bytes` of all open tenants' estimated
   * memory; answers how many were trimmed and closed. A tenant a request holds is never touched, and one closed
   * is closed once its writes are answered (`TenantDb.close`).
   *
   * Closing rather than trimming past `warm` (issue 30): 1,000 tenants each signed in to and read once left
   * 200 open (`TENANT_CACHE_SIZE`), and RSS at 322.7 MB after the last, although the trimmed ones' memory was
   * freed: freed between live allocations, malloc could not give it back. A tenant closed soon after its
   * request frees its memory for the next one to open instead.
   */
  sweepIdle(now = performance.now()): { trimmed: number; closed: number } {
    let trimmed = 0;
    let closed = 0;
    // Idle tenants, least recently used first (the map's order): those past `warm` are closed now, and
    // while the open tenants' bytes are over the bound.
    let warmOver = -this.idle.warm;
    let bytes = 0;
    for (const slot of this.open.values()) {
      if (!slot.ready) continue;
      if (!slot.users) warmOver++;
      bytes += clientBytes(slot.ready.client);
    }
    for (const [key, slot] of this.open) {
      if (slot.users || !slot.ready) continue;
      const idleMs = now - slot.lastUsed;
      if (idleMs >= this.idle.closeMs || warmOver > 0 || bytes > this.idle.bytes) {
        this.open.delete(key);
        bytes -= clientBytes(slot.ready.client);
        slot.retire();
        closed++;
        warmOver--;
      } else if (idleMs >= this.idle.trimMs && !slot.trimmed) {
        slot.trimmed = true;
        if (!slot.ready.writesWaiting) trimIdleConnections(slot.ready.client);
        trimmed++;
      }
    }
    if (!this.open.size) this.stopIdleSweeps();
    if (closed) this.onIdleClosed?.(closed);
    return { trimmed, closed };
  }

  private startIdleSweeps() {
    if (this.idleTimer !== undefined) return;
    const timer = setInterval(() => this.sweepIdle(), IDLE_SWEEP_MS);
    Deno.unrefTimer(timer);
    this.idleTimer = timer;
  }

  private stopIdleSweeps() {
    if (this.idleTimer === undefined) return;
    clearInterval(this.idleTimer);
    this.idleTimer = undefined;
  }

  /**
   * Closes (once their requests are done) the databases whose file was removed or replaced since it was
   * opened: a deleted tenant's files are let go, a restored tenant's old file too, without waiting for a
   * request of that tenant (whose host now answers 404 and never reaches the cache). Answers how many.
   */
  checkFiles(): number {
    this.lastFileCheck = performance.now();
    const changed = new Map<string, boolean>();
    const dirChanged = (dir: string) => {
      let known = changed.get(dir);
      if (known === undefined) {
        let mtime: number | undefined;
        try {
          mtime = Deno.statSync(dir).mtime?.getTime();
        } catch { /* gone: its files are gone too */ }
        known = mtime === undefined || mtime !== this.dirsSeen.get(dir) || Date.now() - mtime < DIR_SETTLE_MS;
        if (mtime === undefined) this.dirsSeen.delete(dir);
        else this.dirsSeen.set(dir, mtime);
        changed.set(dir, known);
      }
      return known;
    };
    let closed = 0;
    let local = 0;
    for (const [key, slot] of this.open) {
      const file = slot.ready?.file;
      if (!file) {
        if (!slot.ready && isFileUrl(resolveDbUrl(this.dataDir, slot.tenant.db_url))) local++;
        continue;
      }
      if (!dirChanged(dirname(file.path)) || stillThere(file)) {
        local++;
        continue;
      }
      this.open.delete(key);
      slot.retire();
      closed++;
    }
    if (!local) this.stopFileChecks();
    return closed;
  }

  private startFileChecks() {
    if (this.fileTimer !== undefined) return;
    const timer = setInterval(() => this.checkFiles(), FILE_CHECK_MS);
    Deno.unrefTimer(timer);
    this.fileTimer = timer;
  }

  private stopFileChecks() {
    if (this.fileTimer === undefined) return;
    clearInterval(this.fileTimer);
    this.fileTimer = undefined;
  }

  /** The tenant's database, held for one request: call `release` when the request is done. */
  async acquire(tenant: Tenant): Promise<{ tdb: TenantDb; release: () => void }> {
    if (this.fileTimer !== undefined && performance.now() - this.lastFileCheck > FILE_CHECK_ON_REQUEST_MS) {
      this.checkFiles();
    }
    const slot = this.slot(tenant);
    const release = slot.hold();
    try {
      const tdb = await slot.db;
      tdb.tenant.status = tenant.status;
      return { tdb, release };
    } catch (e) {
      release();
      throw e;
    }
  }

  /** Figures for /metrics: open tenant databases and the writes waiting in their queues. */
  stats(): { open: number; writesWaiting: number } {
    let writesWaiting = 0;
    for (const slot of this.open.values()) writesWaiting += slot.ready?.writesWaiting ?? 0;
    return { open: this.open.size, writesWaiting };
  }

  /** The tenant's database, not held (tests, tools): it stays open while the cache keeps it. */
  async get(tenant: Tenant): Promise<TenantDb> {
    const { tdb, release } = await this.acquire(tenant);
    release();
    return tdb;
  }

  /** The slot for this catalog record; synchronous, so no other request runs in between. */
  private slot(tenant: Tenant): Slot {
    const key = tenant.slug;
    const cached = this.open.get(key);
    this.open.delete(key);
    // A restore or move points the catalog elsewhere, or a rotated token replaces the one the client holds:
    // the stale slot is retired.
    if (
      cached && cached.tenant.db_url === tenant.db_url && cached.tenant.db_token === tenant.db_token &&
      cached.tenant.id === tenant.id
    ) {
      this.open.set(key, cached);
      return cached;
    }
    cached?.retire();
    const slot = new Slot(tenant, openTenantDb(this.dataDir, tenant));
    this.open.set(key, slot);
    this.startIdleSweeps();
    if (isFileUrl(resolveDbUrl(this.dataDir, tenant.db_url))) this.startFileChecks();
    slot.db.catch(() => this.open.get(key) === slot && this.open.delete(key));
    while (this.open.size > this.max) {
      const [oldest, evicted] = this.open.entries().next().value!;
      this.open.delete(oldest);
      evicted.retire();
    }
    return slot;
  }

  async closeAll() {
    this.stopFileChecks();
    this.stopIdleSweeps();
    const all = [...this.open.values()];
    this.open.clear();
    await Promise.all(all.map((s) => s.close()));
  }
}
