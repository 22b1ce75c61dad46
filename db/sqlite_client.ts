/**
 * The `Client` of `@libsql/client` for local files, over the runtime's own SQLite (`node:sqlite`), decision 029.
 *
 * `@libsql/client` reaches a local file through the `libsql` native module (Node-API). Under Deno that module
 * leaks: every statement that returns rows creates a Node-API external whose finalizer Deno never runs, about
 * 56 bytes each, so a server at 430 requests/s grew 8-10 MB of native memory a minute (decision 029;
 * db/sqlite_client_test.ts checks that a read keeps nothing). Deno's
 * `node:sqlite` is built into the runtime (no Node-API), keeps nothing per call and steps a statement in about
 * half the time.
 *
 * This keeps the client's contract that drizzle and the app rely on: `execute`, `batch`, `migrate`,
 * `transaction` (`write` begins IMMEDIATE), `executeMultiple`, `close`; rows that are both array-like (by index,
 * with a non-enumerable `length`) and named (own enumerable properties); integers as numbers (a RangeError past
 * 2^53) or as bigints (`intMode: "bigint"`); blobs as ArrayBuffer; errors as `LibsqlError` with the same codes
 * (`SQLITE_BUSY`, `SQLITE_FULL`, `SQLITE_CONSTRAINT` and its extended code). Every connection gets the busy
 * timeout, `foreign_keys=ON` and `synchronous=FULL` (libSQL's defaults, which node:sqlite does not all share),
 * except the server's tenant files, which commit with `synchronous=NORMAL` and answer a write only after an
 * fdatasync of the WAL off the thread (`syncOffThread`, below; decision 030),
 * and keeps its most recently used prepared statements, bounded by count and bytes (db/statement_cache.ts's
 * limits and counters); a connection whose dropped statements still hold too much of SQLite's heap is replaced
 * (decision 043).
 *
 * Only ever one SQLite library per process for a file: two copies in one process would release each other's
 * POSIX locks. db/client.ts opens every local file through this module; remote databases (sqld) still use
 * `@libsql/client` over HTTP.
 */
import { DatabaseSync, type StatementSync } from "node:sqlite";
import { Buffer } from "node:buffer";
import type {
  Client,
  InArgs,
  InStatement,
  InValue,
  ResultSet,
  Row,
  Transaction,
  TransactionMode,
} from "@libsql/client";
// The client's own error classes (it re-exports them from here): importing them from the client itself would
// load it, and the native library it loads, into every server.
import { LibsqlBatchError, LibsqlError } from "@libsql/core/api";
import {
  DROPPED_BYTES_PER_CONNECTION,
  STATEMENT_BYTES_PER_CONNECTION,
  statementBytes,
  statementCacheStats,
  STATEMENTS_PER_CONNECTION,
} from "./statement_cache.ts";
import {
  forgetCheckpoint,
  releaseCheckpointer,
  requestCheckpoint,
  retainCheckpointer,
} from "./checkpointer.ts";

export interface FileClientOptions {
  /** ms a statement waits for another connection's lock (SQLite's busy timeout) */
  busyMs: number;
  /** connections kept to the file */
  connections: number;
  /** integers as bigint instead of number */
  bigint?: boolean;
  /**
   * Durable without holding the JavaScript thread (decision 030), for the server's tenant files: a commit does
   * not fsync (`synchronous=NORMAL`); every call that may have written answers only after an fdatasync of the
   * WAL, run off the thread and shared by the commits made meanwhile; checkpoints run on a worker
   * (db/checkpointer.ts). Needs WAL mode.
   */
  syncOffThread?: boolean;
}

/** The file path of a `file:` URL (`file:/abs`, `file:///abs`, `file:rel`, `file::memory:`). */
function filePath(url: string): string {
  let rest = url.slice("file:".length);
  const query = rest.indexOf("?");
  if (query >= 0) rest = rest.slice(0, query);
  if (rest.startsWith("//")) {
    rest = rest.slice(2);
    if (rest.startsWith("localhost/")) rest = rest.slice("localhost".length);
    else if (!rest.startsWith("/")) throw new LibsqlError(`Invalid host in file URL: ${url}`, "URL_INVALID");
  }
  return decodeURIComponent(rest);
}

/**
 * Closes a local client's connections not in use (their page caches and statements), keeping one fresh
 * connection; answers how many were closed (0 for any other client). For a tenant left idle (db/tenants.ts).
 */
export function trimIdleConnections(client: Client): number {
  return client instanceof FileClient ? client.trim() : 0;
}

/**
 * What a connection holds of SQLite's heap besides its statements, estimated from the figures of decision 043:
 * about 63 KB when opened, about 440 KB once it has read the tenant's schema (its first statement), which
 * includes the pages that read put in its page cache. Pages read later are not counted (SQLite's status
 * counters are not reachable through node:sqlite): the page cache is bounded by `cache_size` (2 MB) a
 * connection, and an idle tenant's go with its trimmed connections (db/tenants.ts).
 */
const CONNECTION_BYTES = 64 * 1024;
const SCHEMA_BYTES = 376 * 1024;

/**
 * The memory a local client's connections hold, estimated (`CONNECTION_BYTES`, `SCHEMA_BYTES`, and its kept
 * statements' estimated bytes); 0 for any other client (a remote database's memory is its server's).
 */
export function clientBytes(client: Client): number {
  return client instanceof FileClient ? client.bytes() : 0;
}

/** Whether the client is one of this module's (a local file), whose transactions can `commitNow`. */
export function isFileClient(client: Client): boolean {
  return client instanceof FileClient;
}

/** The rows of one read, stepped through a few at a time (`fileCursor`). */
export interface FileCursor {
  /** Up to `n` more rows, each the array of its values; fewer at the end, and then the cursor is closed. */
  next(n: number): unknown[][];
  /** Ends the read and gives its connection back (again: nothing). */
  close(): void;
}

/**
 * One read whose rows are taken a few at a time, for a walk too long for one turn of the event loop (a
 * download's ids in a sort's order): the statement is stepped, never started again from its first row as an
 * OFFSET read is. It holds one of the pool's connections, and the snapshot its first step took, until its
 * last row or `close`: the caller closes it in a `finally`. One cursor of a client is open at a time (the next
 * waits), so cursors never hold more than one connection. Undefined for a client that is not a local file.
 */
export async function fileCursor(client: Client, stmt: InStatement): Promise<FileCursor | undefined> {
  if (!(client instanceof FileClient)) return undefined;
  return await client.cursor(stmt);
}

/**
 * The file a local client reads, with the values its own statements would bind for `args`, for a read run on
 * another thread's connection (db/deep_reads.ts); undefined for a remote or in-memory client.
 */
export function fileReadOf(client: Client, args: InValue[]): { path: string; args: Bindable[] } | undefined {
  if (!(client instanceof FileClient) || client.path === ":memory:") return undefined;
  return { path: client.path, args: args.map((v) => bindValue(v, false)) };
}

export function createFileClient(url: string, options: FileClientOptions): Client {
  const path = filePath(url);
  const memory = path === ":memory:";
  const pool = new Pool(
    path,
    memory ? { ...options, syncOffThread: false } : options,
    memory ? 1 : Math.max(1, options.connections),
  );
  // Open one now, so a file that cannot be opened fails here rather than on the first query.
  pool.release(pool.acquireSync());
  return new FileClient(pool) as unknown as Client;
}

// ---------------------------------------------------------------------------------------------------------
// Connections

interface Prepared {
  stmt: StatementSync;
  /** result column names; empty for a statement that returns no rows */
  columns: string[];
  columnTypes: string[];
  /** builds a row from the driver's array of values */
  row: (values: unknown[]) => Row;
  /** may change the database: a statement that returns no rows (but BEGIN, COMMIT, ...), or one with RETURNING */
  writes: boolean;
  /** estimated bytes of SQLite's heap it holds (`statementBytes`) */
  bytes: number;
}

const TRANSACTION_CONTROL = /^\s*(begin|commit|end|rollback|savepoint|release)\b/i;
const RETURNING = /\breturning\b/i;

class Connection {
  readonly db: DatabaseSync;
  private statements = new Map<string, Prepared>();
  /** Estimated bytes of the statements kept. */
  private keptBytes = 0;
  /**
   * Estimated bytes of statements dropped since the connection opened: freed only when V8 collects them, or
   * when the connection closes (db/statement_cache.ts).
   */
  droppedBytes = 0;
  /** Statements prepared on it: a connection that has prepared none has not read the schema either. */
  preparedCount = 0;
  /** A statement that may have written ran since `takeWrote` last asked. */
  wrote = false;
  /**
   * `PRAGMA synchronous`, run before the connection's first statement (`use`): it reads the schema, about
   * 380 KB of SQLite's heap for a tenant's, which a connection opened and never used need not hold (an idle
   * tenant keeps one such connection: db/tenants.ts; decision 043).
   */
  private pending: string | undefined;

  constructor(path: string, options: FileClientOptions, readonly bigint: boolean) {
    this.db = new DatabaseSync(path);
    statementCacheStats.connections++;
    try {
      this.db.exec(
        `PRAGMA busy_timeout = ${Math.max(0, Math.floor(options.busyMs))}; PRAGMA foreign_keys = ON; ` +
          (options.syncOffThread ? `PRAGMA wal_autocheckpoint = ${WAL_BACKSTOP_PAGES};` : ""),
      );
    } catch (e) {
      this.db.close();
      statementCacheStats.connections--;
      throw mapError(e);
    }
    this.pending = options.syncOffThread ? "PRAGMA synchronous = NORMAL" : "PRAGMA synchronous = FULL";
  }

  /** The database, its durability set before its first statement. */
  use(): DatabaseSync {
    const pending = this.pending;
    if (pending !== undefined) {
      this.db.exec(pending);
      this.pending = undefined;
    }
    return this.db;
  }

  get open() {
    return this.db.isOpen;
  }

  get inTransaction() {
    return this.db.isTransaction;
  }

  /** Whether a statement that may have written ran since the last ask. */
  takeWrote(): boolean {
    const wrote = this.wrote;
    this.wrote = false;
    return wrote;
  }

  prepare(sql: string): Prepared {
    const known = this.statements.get(sql);
    if (known) {
      // most recently used last: the first key is the one to drop when full
      this.statements.delete(sql);
      this.statements.set(sql, known);
      statementCacheStats.reused++;
      return known;
    }
    const stmt = this.use().prepare(sql);
    this.preparedCount++;
    stmt.setReadBigInts(this.bigint);
    const cols = stmt.columns();
    const columns = cols.map((c) => c.name);
    if (columns.length) stmt.setReturnArrays(true);
    const prepared: Prepared = {
      stmt,
      columns,
      columnTypes: cols.map((c) => c.type ?? ""),
      row: rowMaker(columns),
      writes: columns.length ? RETURNING.test(sql) : !TRANSACTION_CONTROL.test(sql),
      bytes: statementBytes(sql),
    };
    statementCacheStats.prepared++;
    if (prepared.bytes > STATEMENT_BYTES_PER_CONNECTION / 4) {
      // Too large to keep (a statement over a list of literal values): used once, then dropped.
      this.droppedBytes += prepared.bytes;
      return prepared;
    }
    while (
      this.statements.size &&
      (this.statements.size >= STATEMENTS_PER_CONNECTION ||
        this.keptBytes + prepared.bytes > STATEMENT_BYTES_PER_CONNECTION)
    ) {
      if (this.statements.size < STATEMENTS_PER_CONNECTION) statementCacheStats.evictedForBytes++;
      this.drop(this.statements.keys().next().value!);
    }
    this.statements.set(sql, prepared);
    this.keptBytes += prepared.bytes;
    statementCacheStats.cached++;
    statementCacheStats.cachedBytes += prepared.bytes;
    return prepared;
  }

  /** Drops a kept statement (the least recently used first). */
  private drop(sql: string) {
    const p = this.statements.get(sql)!;
    this.statements.delete(sql);
    this.keptBytes -= p.bytes;
    this.droppedBytes += p.bytes;
    statementCacheStats.cached--;
    statementCacheStats.cachedBytes -= p.bytes;
  }

  /** Whether its dropped statements hold enough of SQLite's heap to close it and open a fresh one instead. */
  get worn(): boolean {
    return this.droppedBytes > DROPPED_BYTES_PER_CONNECTION;
  }

  /** Statements kept and their estimated bytes (tests, diagnostics). */
  get kept(): { count: number; bytes: number } {
    return { count: this.statements.size, bytes: this.keptBytes };
  }

  close() {
    statementCacheStats.cached -= this.statements.size;
    statementCacheStats.cachedBytes -= this.keptBytes;
    this.keptBytes = 0;
    this.statements.clear();
    if (this.db.isOpen) {
      this.db.close();
      statementCacheStats.connections--;
    }
  }
}

/** Pages a WAL may reach before a commit checkpoints it on the thread itself: a backstop if the worker falls behind. */
export const WAL_BACKSTOP_PAGES = 20_000;
/** A checkpoint is asked for after this many durable waits, or this long after the last one. */
const CHECKPOINT_AFTER_COMMITS = 1000;
const CHECKPOINT_AFTER_MS = 5000;

/**
 * A WAL's handle kept open between syncs, so a sync is one hop to the blocking-task threads rather than three
 * (open, fdatasync, close). It is used only while the path still names the file it opened: a WAL deleted and
 * made anew (the last connection closing, a restore) is opened again. While the handle is open its inode
 * cannot be reused, so an inode equal to the path's is the same file.
 */
export class WalHandle {
  private file: Deno.FsFile | null = null;
  private ino: number | null = null;

  /** `keep`: the file stays open after a sync (until `retire`). */
  constructor(private keep = true) {}

  /** The open file for `path` as it is now, or null when there is no such file. */
  async current(path: string): Promise<Deno.FsFile | null> {
    let ino: number | null;
    try {
      ino = Deno.statSync(path).ino;
    } catch (e) {
      if (e instanceof Deno.errors.NotFound) {
        this.close();
        return null;
      }
      throw e;
    }
    if (this.file && this.ino === ino) return this.file;
    this.close();
    let file: Deno.FsFile;
    try {
      file = await Deno.open(path, { read: true });
    } catch (e) {
      if (e instanceof Deno.errors.NotFound) return null;
      throw e;
    }
    // The inode of what was opened (the path may have changed again since the stat).
    this.file = file;
    this.ino = file.statSync().ino;
    return file;
  }

  /** Closes the file once no sync uses it. */
  close() {
    this.file?.close();
    this.file = null;
    this.ino = null;
  }

  /** No longer kept open: closed now, and after any sync still running. */
  retire() {
    this.keep = false;
    this.close();
  }

  get kept(): boolean {
    return this.keep;
  }
}

/**
 * The fdatasync of a file, on the runtime's blocking-task threads (not the JavaScript thread); a file that does
 * not exist has nothing to sync. With a `handle`, the file stays open for the next sync. Replaceable by tests,
 * to hold a sync and see who waits for it.
 */
export const walSync = {
  async syncData(path: string, handle?: WalHandle): Promise<void> {
    const files = handle ?? new WalHandle(false);
    try {
      const file = await files.current(path);
      await file?.syncData();
    } catch (e) {
      // A handle that failed is not trusted again: the next sync opens the file anew.
      files.close();
      throw syncError(e);
    } finally {
      if (!files.kept) files.close();
    }
  },
};

function syncError(e: unknown): LibsqlError {
  const message = e instanceof Error ? e.message : String(e);
  const full = (e as { code?: string }).code === "ENOSPC" || /No space left/.test(message);
  return new LibsqlError(
    `The write could not be made durable (fdatasync of the WAL): ${message}`,
    full ? "SQLITE_FULL" : "SQLITE_IOERR",
    full ? "SQLITE_FULL" : "SQLITE_IOERR_FSYNC",
    full ? 13 : 1034,
    e instanceof Error ? e : undefined,
  );
}

/**
 * One file's durability with `syncOffThread` (decision 030). Its connections commit without fsync
 * (`synchronous=NORMAL`: in WAL mode the commit's frames are written to the WAL, and a crash of the process never
 * loses them; a power cut could). Every call that committed waits here for an fdatasync of the WAL that began
 * after its commit, so a write is answered only once it would survive a power cut, as with `synchronous=FULL`.
 * One sync runs at a time; the calls that commit while it runs share the next one (group commit). The sync runs
 * on the runtime's blocking-task threads: the JavaScript thread serves other requests meanwhile.
 */
class WalDurability {
  private current: Promise<void> | null = null;
  private next: Promise<void> | null = null;
  private commits = 0;
  private lastCheckpoint = performance.now();
  private readonly wal = new WalHandle();

  constructor(private readonly path: string) {
    retainCheckpointer();
  }

  /** Resolves once an fdatasync of the WAL that began after this call has finished. */
  synced(): Promise<void> {
    this.commits++;
    if (this.next) return this.next;
    if (!this.current) return this.current = this.start();
    const ignore = () => {};
    return this.next = this.current.then(ignore, ignore).then(() => {
      this.next = null;
      return this.current = this.start();
    });
  }

  private start(): Promise<void> {
    const sync = walSync.syncData(`${this.path}-wal`, this.wal).then(() => this.maybeCheckpoint());
    const done = () => {
      if (this.current === sync) this.current = null;
    };
    sync.then(done, done);
    return sync;
  }

  /** After enough commits or time, the worker copies the WAL into the database file. */
  private maybeCheckpoint() {
    const now = performance.now();
    if (this.commits >= CHECKPOINT_AFTER_COMMITS || now - this.lastCheckpoint >= CHECKPOINT_AFTER_MS) {
      this.commits = 0;
      this.lastCheckpoint = now;
      requestCheckpoint(this.path);
    }
  }

  close() {
    this.wal.retire();
    forgetCheckpoint(this.path);
    releaseCheckpointer();
  }
}

class Pool {
  private idle: Connection[] = [];
  private borrowed = new Set<Connection>();
  private heldByTransaction = new Set<Connection>();
  private waiters: { resolve: (c: Connection) => void; reject: (e: unknown) => void; tx: boolean }[] = [];
  closed = false;
  /** With `syncOffThread`: the WAL's fdatasync, which every call that wrote waits for. */
  private durability: WalDurability | null;

  constructor(readonly path: string, private options: FileClientOptions, private max: number) {
    this.durability = options.syncOffThread ? new WalDurability(path) : null;
  }

  /**
   * What a call that ran on a connection waits for before it answers: with `syncOffThread`, an fdatasync of the
   * WAL that began after its commit, when it may have written outside a transaction still open.
   */
  durable(c: Connection): Promise<void> | undefined {
    const wrote = c.takeWrote();
    if (!this.durability || !wrote || c.inTransaction) return undefined;
    return this.durability.synced();
  }

  /** A connection, waiting for one to be released when all are borrowed. */
  acquire(forTransaction = false): Promise<Connection> {
    if (!this.closed && !this.idle.length && this.borrowed.size >= this.max) {
      if (this.heldByTransaction.size >= this.max) {
        return Promise.reject(
          new LibsqlError(
            `All ${this.max} of this client's connections are held by open transactions. ` +
              "Commit or roll back one before using the client again.",
            "TRANSACTION_ACTIVE",
          ),
        );
      }
      return new Promise((resolve, reject) => this.waiters.push({ resolve, reject, tx: forTransaction }));
    }
    try {
      return Promise.resolve(this.acquireSync(forTransaction));
    } catch (e) {
      return Promise.reject(e);
    }
  }

  /** A connection now, when one is idle or another may be opened; undefined when all are borrowed. */
  tryAcquireSync(): Connection | undefined {
    if (!this.closed && !this.idle.length && this.borrowed.size >= this.max) return undefined;
    return this.acquireSync();
  }

  acquireSync(forTransaction = false): Connection {
    if (this.closed) throw new LibsqlError("The client is closed", "CLIENT_CLOSED");
    const c = this.idle.pop() ?? new Connection(this.path, this.options, !!this.options.bigint);
    this.borrowed.add(c);
    if (forTransaction) this.heldByTransaction.add(c);
    return c;
  }

  release(c: Connection) {
    c.wrote = false; // a write rolled back or already waited for: the next borrower starts clean
    this.borrowed.delete(c);
    this.heldByTransaction.delete(c);
    // Never back into the pool mid-transaction: the next borrower would inherit it.
    if (c.open && c.inTransaction) {
      try {
        c.db.exec("ROLLBACK");
      } catch {
        c.close();
        return;
      }
    }
    if (this.closed || !c.open) {
      c.close();
      return;
    }
    if (c.worn) c = this.replace(c);
    const waiter = this.waiters.shift();
    if (waiter) {
      this.borrowed.add(c);
      if (waiter.tx) this.heldByTransaction.add(c);
      waiter.resolve(c);
    } else this.idle.push(c);
  }

  /**
   * A fresh connection in place of `c`, which is closed: the statements it dropped are freed with it. The fresh
   * one is opened first, so the file is never left without a connection (a last close checkpoints on the
   * thread). If it cannot be opened, `c` stays.
   */
  private replace(c: Connection): Connection {
    let fresh: Connection;
    try {
      fresh = new Connection(this.path, this.options, !!this.options.bigint);
    } catch {
      return c;
    }
    c.close();
    statementCacheStats.recycled++;
    return fresh;
  }

  /**
   * Closes the connections not in use, with their page caches and statements, keeping one fresh connection
   * when no other is borrowed (so the file stays open: a last close checkpoints on the thread). For a client
   * left idle (db/tenants.ts); answers how many connections were closed.
   */
  trim(): number {
    if (this.closed || !this.idle.length) return 0;
    if (!this.borrowed.size && this.idle.length === 1 && !this.idle[0].preparedCount) return 0;
    const old = this.idle;
    this.idle = [];
    if (!this.borrowed.size) {
      try {
        this.idle.push(new Connection(this.path, this.options, !!this.options.bigint));
      } catch {
        this.idle = old;
        return 0;
      }
    }
    for (const c of old) c.close();
    return old.length;
  }

  /** See `clientBytes`. */
  bytes(): number {
    let bytes = 0;
    for (const c of [...this.idle, ...this.borrowed]) {
      if (c.open) bytes += CONNECTION_BYTES + (c.preparedCount ? SCHEMA_BYTES : 0) + c.kept.bytes;
    }
    return bytes;
  }

  /** A new pool to the same file, for `reconnect`. */
  reopened(): Pool {
    return new Pool(this.path, this.options, this.max);
  }

  close() {
    if (!this.closed) this.durability?.close();
    this.closed = true;
    for (const c of [...this.idle, ...this.borrowed]) c.close();
    this.idle = [];
    this.borrowed.clear();
    this.heldByTransaction.clear();
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w.reject(new LibsqlError("The client is closed", "CLIENT_CLOSED"));
  }
}

// ---------------------------------------------------------------------------------------------------------
// The client and its transactions

class FileResultSet implements ResultSet {
  constructor(
    readonly columns: string[],
    readonly columnTypes: string[],
    readonly rows: Row[],
    readonly rowsAffected: number,
    readonly lastInsertRowid: bigint | undefined,
  ) {}

  toJSON() {
    const json = (v: unknown) =>
      typeof v === "bigint" ? "" + v : v instanceof ArrayBuffer ? Buffer.from(v).toString("base64") : v;
    return {
      columns: this.columns,
      columnTypes: this.columnTypes,
      rows: this.rows.map((r) => Array.prototype.map.call(r, json)),
      rowsAffected: this.rowsAffected,
      lastInsertRowid: this.lastInsertRowid !== undefined ? "" + this.lastInsertRowid : null,
    };
  }
}

type Stmt = { sql: string; args?: InArgs };

/** The answer of synchronous work as a promise (a throw becomes a rejection), as the client's calls are. */
function settled<T>(work: () => T): Promise<T> {
  try {
    return Promise.resolve(work());
  } catch (e) {
    return Promise.reject(e);
  }
}

function normalize(stmt: InStatement | [string, InArgs?], args?: InArgs): Stmt {
  if (typeof stmt === "string") return { sql: stmt, args: args ?? [] };
  if (Array.isArray(stmt)) return { sql: stmt[0], args: stmt[1] ?? [] };
  return stmt;
}

function executeStmt(c: Connection, stmt: Stmt): FileResultSet {
  try {
    const p = c.prepare(stmt.sql);
    if (p.writes) c.wrote = true;
    const args = bindArgs(stmt.args, c.bigint);
    if (p.columns.length) {
      const raw = (Array.isArray(args) ? p.stmt.all(...args) : p.stmt.all(args)) as unknown as unknown[][];
      const rows = new Array<Row>(raw.length);
      for (let i = 0; i < raw.length; i++) rows[i] = p.row(raw[i]);
      return new FileResultSet(p.columns, p.columnTypes, rows, 0, undefined);
    }
    const info = Array.isArray(args) ? p.stmt.run(...args) : p.stmt.run(args);
    return new FileResultSet([], [], [], Number(info.changes), BigInt(info.lastInsertRowid));
  } catch (e) {
    throw mapError(e);
  }
}

/**
 * A script of statements. It counts as a write when it changed rows (`total_changes()`) or ran anything but
 * SELECT and PRAGMA: `PRAGMA optimize` at a tenant's open waits for no sync.
 */
function execMultiple(c: Connection, sql: string) {
  const changes = () => executeStmt(c, { sql: "select total_changes()" }).rows[0][0];
  const before = changes();
  try {
    c.use().exec(sql);
  } catch (e) {
    throw mapError(e);
  } finally {
    if (changes() !== before || !/^(\s*(select|pragma)\b[^;]*;?)*\s*$/i.test(sql)) c.wrote = true;
  }
}

const BEGIN: Record<TransactionMode, string> = {
  write: "BEGIN IMMEDIATE",
  // SQLite has no read-only BEGIN (libSQL's `BEGIN TRANSACTION READONLY`): a deferred transaction's first read
  // takes its snapshot, which is what readers of a consistent copy need (db/copy.ts).
  read: "BEGIN DEFERRED",
  deferred: "BEGIN DEFERRED",
};

function batchError(e: unknown, i: number): unknown {
  if (e instanceof LibsqlBatchError || !(e instanceof LibsqlError)) return e;
  return new LibsqlBatchError(e.message, i, e.code, e.extendedCode, e.rawCode, e.cause as Error | undefined);
}

/**
 * Each statement in turn, its error named by its place (`LibsqlBatchError`); `inTransactionOnly`: refused once
 * the transaction is gone (a statement's error rolled it back).
 */
function each(
  c: Connection,
  stmts: (InStatement | [string, InArgs?])[],
  inTransactionOnly = false,
): ResultSet[] {
  const out: ResultSet[] = [];
  for (let i = 0; i < stmts.length; i++) {
    try {
      if (inTransactionOnly && !c.inTransaction) {
        throw new LibsqlBatchError("The transaction has been rolled back", i, "TRANSACTION_CLOSED");
      }
      out.push(executeStmt(c, normalize(stmts[i])));
    } catch (e) {
      throw batchError(e, i);
    }
  }
  return out;
}

/** The statements in one transaction begun with `begin`; the caller's release rolls back a failed one. */
function inTransaction(
  c: Connection,
  begin: string,
  stmts: (InStatement | [string, InArgs?])[],
): ResultSet[] {
  executeStmt(c, { sql: begin });
  const out = each(c, stmts, true);
  executeStmt(c, { sql: "COMMIT" });
  return out;
}

class FileClient {
  closed = false;
  readonly protocol = "file";

  constructor(private pool: Pool) {}

  get path(): string {
    return this.pool.path;
  }

  private check() {
    if (this.closed) throw new LibsqlError("The client is closed", "CLIENT_CLOSED");
  }

  /**
   * `work` on a connection of the pool; answered once what it committed is durable. When a connection is free
   * (or may be opened) the work runs at once, in the caller's turn, and gives its connection back before the
   * next call takes one: calls started together (a list's page and its total, `Promise.all`) run one after the
   * other on the same connection, as they would anyway on this one thread, instead of each borrowing its own,
   * which made every tenant that answered a list hold two connections, two schemas and two page caches (about
   * 1 MB each: decision 043, round 4). Only when all are borrowed (transactions, cursors) does it wait.
   */
  private on<T>(work: (c: Connection) => T): Promise<T> {
    let c: Connection | undefined;
    try {
      this.check();
      c = this.pool.tryAcquireSync();
    } catch (e) {
      return Promise.reject(e);
    }
    return c ? this.runOn(c, work) : this.pool.acquire().then((c) => this.runOn(c, work));
  }

  private runOn<T>(c: Connection, work: (c: Connection) => T): Promise<T> {
    let result: T;
    let durable: Promise<void> | undefined;
    try {
      result = work(c);
      durable = this.pool.durable(c);
    } catch (e) {
      return Promise.reject(e);
    } finally {
      this.pool.release(c); // rolls back anything still open
    }
    return durable ? durable.then(() => result) : Promise.resolve(result);
  }

  execute(stmt: InStatement, args?: InArgs): Promise<ResultSet> {
    return this.on((c) => executeStmt(c, normalize(stmt, args)));
  }

  batch(
    stmts: (InStatement | [string, InArgs?])[],
    mode: TransactionMode = "deferred",
  ): Promise<ResultSet[]> {
    return this.on((c) => inTransaction(c, BEGIN[mode], stmts));
  }

  migrate(stmts: InStatement[]): Promise<ResultSet[]> {
    return this.on((c) => {
      try {
        executeStmt(c, { sql: "PRAGMA foreign_keys=off" });
        return inTransaction(c, BEGIN.deferred, stmts);
      } finally {
        if (c.open && c.inTransaction) executeStmt(c, { sql: "ROLLBACK" });
        if (c.open) executeStmt(c, { sql: "PRAGMA foreign_keys=on" });
      }
    });
  }

  async transaction(mode: TransactionMode = "write"): Promise<Transaction> {
    this.check();
    const c = await this.pool.acquire(true);
    try {
      executeStmt(c, { sql: BEGIN[mode] });
    } catch (e) {
      this.pool.release(c);
      throw e;
    }
    return new FileTransaction(c, this.pool) as unknown as Transaction;
  }

  executeMultiple(sql: string): Promise<void> {
    return this.on((c) => execMultiple(c, sql));
  }

  /** The end of the last cursor asked for: one cursor at a time, so they hold at most one connection. */
  private lastCursor: Promise<void> = Promise.resolve();

  /** See `fileCursor`. */
  async cursor(stmt: InStatement): Promise<FileCursor> {
    this.check();
    const pool = this.pool;
    let ended!: () => void;
    const before = this.lastCursor;
    this.lastCursor = new Promise<void>((resolve) => ended = resolve);
    let c: Connection;
    try {
      await before;
      c = await pool.acquire();
    } catch (e) {
      ended();
      throw e;
    }
    let rows: Iterator<unknown[]> | undefined;
    let open = true;
    const close = () => {
      if (!open) return;
      open = false;
      try {
        rows?.return?.(); // resets the statement: its snapshot ends
      } finally {
        pool.release(c);
        ended();
      }
    };
    try {
      const { sql, args } = normalize(stmt);
      // A statement of its own, not the connection's cache's: it is stepped by `iterate` and dropped after one
      // walk (a download's ids: the same text seldom comes twice).
      const st = c.use().prepare(sql);
      c.droppedBytes += statementBytes(sql);
      if (!st.columns().length) {
        throw new LibsqlError("A cursor is for a read that returns rows", "SQL_INPUT_ERROR");
      }
      st.setReadBigInts(c.bigint);
      st.setReturnArrays(true);
      const bound = bindArgs(args, c.bigint);
      rows = (Array.isArray(bound) ? st.iterate(...bound) : st.iterate(bound)) as unknown as Iterator<
        unknown[]
      >;
    } catch (e) {
      close();
      throw mapError(e);
    }
    return {
      next(n: number) {
        const out: unknown[][] = [];
        if (!open) return out;
        try {
          while (out.length < n) {
            const r = rows!.next();
            if (r.done) {
              close();
              break;
            }
            out.push(r.value);
          }
        } catch (e) {
          close();
          throw mapError(e);
        }
        return out;
      },
      close,
    };
  }

  /** See `trimIdleConnections`. */
  bytes(): number {
    return this.closed ? 0 : this.pool.bytes();
  }

  trim(): number {
    return this.closed ? 0 : this.pool.trim();
  }

  sync(): Promise<undefined> {
    return Promise.reject(new LibsqlError("sync is not supported for local files", "SYNC_NOT_SUPPORTED"));
  }

  reconnect(): Promise<void> {
    this.pool.close();
    this.pool = this.pool.reopened();
    this.closed = false;
    return Promise.resolve();
  }

  close() {
    this.closed = true;
    this.pool.close();
  }
}

class FileTransaction {
  private c: Connection | null;

  constructor(c: Connection, private pool: Pool) {
    this.c = c;
  }

  private settle() {
    const c = this.c;
    if (!c) return;
    this.c = null;
    this.pool.release(c);
  }

  private connection(): Connection {
    if (!this.c) throw new LibsqlError("The transaction is closed", "TRANSACTION_CLOSED");
    return this.c;
  }

  execute(stmt: InStatement, args?: InArgs): Promise<ResultSet> {
    return settled(() => executeStmt(this.connection(), normalize(stmt, args)));
  }

  batch(stmts: InStatement[]): Promise<ResultSet[]> {
    return settled(() => each(this.connection(), stmts));
  }

  executeMultiple(sql: string): Promise<void> {
    return settled(() => execMultiple(this.connection(), sql));
  }

  rollback(): Promise<void> {
    return settled(() => {
      const c = this.c;
      if (!c || !c.open) return this.settle();
      try {
        if (c.inTransaction) executeStmt(c, { sql: "ROLLBACK" });
      } finally {
        this.settle();
      }
    });
  }

  /** Answered once what it committed is durable (`syncOffThread`: after the WAL's fdatasync). */
  commit(): Promise<void> {
    try {
      return this.commitNow() ?? Promise.resolve();
    } catch (e) {
      return Promise.reject(e);
    }
  }

  /**
   * COMMIT now, throwing when it fails; answers what the caller must wait for before it acknowledges the
   * commit (`syncOffThread`: the WAL's fdatasync), so that the next write transaction can begin meanwhile
   * (db/tenants.ts pipelines its write groups).
   */
  commitNow(): Promise<void> | undefined {
    try {
      const c = this.connection();
      executeStmt(c, { sql: "COMMIT" });
      return this.pool.durable(c);
    } finally {
      this.settle();
    }
  }

  close() {
    const c = this.c;
    if (!c) return;
    try {
      if (c.open && c.inTransaction) executeStmt(c, { sql: "ROLLBACK" });
    } finally {
      this.settle();
    }
  }

  get closed() {
    return this.c === null;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Values, rows, errors

const MIN_I64 = -9223372036854775808n;
const MAX_I64 = 9223372036854775807n;

type Bindable = null | number | bigint | string | Uint8Array;

function bindValue(v: InValue | undefined, bigint: boolean): Bindable {
  switch (typeof v) {
    case "number":
      if (!Number.isFinite(v)) {
        throw new RangeError("Only finite numbers (not Infinity or NaN) can be passed as arguments");
      }
      return v;
    case "bigint":
      if (v < MIN_I64 || v > MAX_I64) {
        throw new RangeError(
          "bigint is too large to be represented as a 64-bit integer and passed as argument",
        );
      }
      return v;
    case "boolean":
      return bigint ? (v ? 1n : 0n) : (v ? 1 : 0);
    case "string":
      return v;
    case "undefined":
      throw new TypeError("undefined cannot be passed as argument to the database");
  }
  if (v === null) return null;
  if (v instanceof ArrayBuffer) return new Uint8Array(v);
  if (v instanceof Date) return v.valueOf();
  if (ArrayBuffer.isView(v)) return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
  return v as unknown as Bindable;
}

function bindArgs(args: InArgs | undefined, bigint: boolean): Bindable[] | Record<string, Bindable> {
  if (!args) return [];
  if (Array.isArray(args)) {
    const out = new Array<Bindable>(args.length);
    for (let i = 0; i < args.length; i++) out[i] = bindValue(args[i], bigint);
    return out;
  }
  const named: Record<string, Bindable> = {};
  for (const [name, value] of Object.entries(args)) {
    named[name[0] === "@" || name[0] === "$" || name[0] === ":" ? name.slice(1) : name] = bindValue(
      value,
      bigint,
    );
  }
  return named;
}

/** Blobs as an ArrayBuffer of their own, as the libSQL driver answers them. */
function fromSql(v: unknown): unknown {
  if (v instanceof Uint8Array) {
    return v.byteOffset === 0 && v.byteLength === v.buffer.byteLength
      ? v.buffer
      : v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength);
  }
  return v;
}

/**
 * A method on rows this client makes that answers their values in column order (the array node:sqlite
 * stepped, blobs already as ArrayBuffer): db/row_mapping.ts reads them by index without a getter per value.
 */
export const ROW_VALUES: unique symbol = Symbol("row values");

/**
 * A row maker for one statement's columns. With ordinary names a row is an instance of a class made for those
 * columns: its own enumerable properties are the named values (what `Object.keys`, spreading and JSON see), and
 * its prototype answers `row[i]` and `length`, as libSQL's rows do. A name repeated (joins: `id`, `name`) is the
 * first column's, as libSQL answers it; the row then keeps every value in a private field for `row[i]` (a page
 * of Sales Data joins eight tables: defining each value on the row was a tenth of the server's time). With a name
 * that is an index, `length` or `__proto__`, every value is defined on the row itself, as the libSQL driver does.
 */
function rowMaker(columns: string[]): (values: unknown[]) => Row {
  const ordinary = columns.every((n) => n !== "length" && n !== "__proto__" && !/^\d+$/.test(n));
  if (!ordinary) return (values) => slowRow(values, columns);
  if (new Set(columns).size !== columns.length) return repeatedNamesRow(columns);
  const body = columns.map((n, i) => `this[${JSON.stringify(n)}] = v[${i}] = fromSql(v[${i}]);`).join("\n");
  const Make = new Function(
    "fromSql",
    "VALUES",
    `return class Row {
      #v;
      constructor(v) {
        ${body}
        this.#v = v;
      }
      [VALUES]() { return this.#v; }
    }`,
  )(fromSql, ROW_VALUES) as {
    new (v: unknown[]): Row;
    prototype: object;
  };
  for (let i = 0; i < columns.length; i++) {
    const name = columns[i];
    Object.defineProperty(Make.prototype, i, {
      get(this: Record<string, unknown>) {
        return this[name];
      },
    });
  }
  Object.defineProperty(Make.prototype, "length", { value: columns.length });
  return (values) => new Make(values);
}

/** Rows of columns with repeated names: the values in a private field, each name the first column's. */
function repeatedNamesRow(columns: string[]): (values: unknown[]) => Row {
  const first = new Map<string, number>();
  columns.forEach((n, i) => first.has(n) || first.set(n, i));
  const named = [...first].map(([n, i]) => `this[${JSON.stringify(n)}] = v[${i}];`).join("\n");
  const byIndex = columns.map((_, i) => `get ${i}() { return this.#v[${i}]; }`).join("\n");
  const Make = new Function(
    "fromSql",
    "VALUES",
    `return class Row {
      #v;
      constructor(v) {
        for (let i = 0; i < v.length; i++) v[i] = fromSql(v[i]);
        this.#v = v;
        ${named}
      }
      ${byIndex}
      get length() { return ${columns.length}; }
      [VALUES]() { return this.#v; }
    }`,
  )(fromSql, ROW_VALUES) as { new (v: unknown[]): Row };
  return (values) => new Make(values);
}

function slowRow(values: unknown[], columns: string[]): Row {
  const row = {};
  Object.defineProperty(row, "length", { value: values.length });
  for (let i = 0; i < values.length; i++) {
    const value = fromSql(values[i]);
    Object.defineProperty(row, i, { value });
    if (!Object.hasOwn(row, columns[i])) {
      Object.defineProperty(row, columns[i], { value, enumerable: true, configurable: true, writable: true });
    }
  }
  return row as Row;
}

const BASE_CODES: Record<number, string> = {
  1: "SQLITE_ERROR",
  2: "SQLITE_INTERNAL",
  3: "SQLITE_PERM",
  4: "SQLITE_ABORT",
  5: "SQLITE_BUSY",
  6: "SQLITE_LOCKED",
  7: "SQLITE_NOMEM",
  8: "SQLITE_READONLY",
  9: "SQLITE_INTERRUPT",
  10: "SQLITE_IOERR",
  11: "SQLITE_CORRUPT",
  12: "SQLITE_NOTFOUND",
  13: "SQLITE_FULL",
  14: "SQLITE_CANTOPEN",
  15: "SQLITE_PROTOCOL",
  16: "SQLITE_EMPTY",
  17: "SQLITE_SCHEMA",
  18: "SQLITE_TOOBIG",
  19: "SQLITE_CONSTRAINT",
  20: "SQLITE_MISMATCH",
  21: "SQLITE_MISUSE",
  22: "SQLITE_NOLFS",
  23: "SQLITE_AUTH",
  24: "SQLITE_FORMAT",
  25: "SQLITE_RANGE",
  26: "SQLITE_NOTADB",
  27: "SQLITE_NOTICE",
  28: "SQLITE_WARNING",
};

/** The extended codes the app or an operator may meet (sqlite3.h); others are named by their base code. */
const EXTENDED_CODES: Record<number, string> = {
  261: "SQLITE_BUSY_RECOVERY",
  517: "SQLITE_BUSY_SNAPSHOT",
  773: "SQLITE_BUSY_TIMEOUT",
  262: "SQLITE_LOCKED_SHAREDCACHE",
  266: "SQLITE_IOERR_READ",
  778: "SQLITE_IOERR_WRITE",
  1034: "SQLITE_IOERR_FSYNC",
  3338: "SQLITE_IOERR_SHORT_READ",
  275: "SQLITE_CONSTRAINT_CHECK",
  531: "SQLITE_CONSTRAINT_COMMITHOOK",
  787: "SQLITE_CONSTRAINT_FOREIGNKEY",
  1043: "SQLITE_CONSTRAINT_FUNCTION",
  1299: "SQLITE_CONSTRAINT_NOTNULL",
  1555: "SQLITE_CONSTRAINT_PRIMARYKEY",
  1811: "SQLITE_CONSTRAINT_TRIGGER",
  2067: "SQLITE_CONSTRAINT_UNIQUE",
  2323: "SQLITE_CONSTRAINT_VTAB",
  2579: "SQLITE_CONSTRAINT_ROWID",
  3091: "SQLITE_CONSTRAINT_DATATYPE",
  264: "SQLITE_READONLY_RECOVERY",
  520: "SQLITE_READONLY_CANTLOCK",
  776: "SQLITE_READONLY_ROLLBACK",
  1032: "SQLITE_READONLY_DBMOVED",
  270: "SQLITE_CANTOPEN_NOTEMPDIR",
  526: "SQLITE_CANTOPEN_ISDIR",
  782: "SQLITE_CANTOPEN_FULLPATH",
};

/** node:sqlite's error as the libSQL client's: `code` the base name, `extendedCode`, `rawCode`. */
function mapError(e: unknown): unknown {
  const x = e as { code?: string; errcode?: number; message?: string };
  if (!(e instanceof Error) || x.code !== "ERR_SQLITE_ERROR" || typeof x.errcode !== "number") return e;
  const raw = x.errcode;
  const code = BASE_CODES[raw & 0xff] ?? `SQLITE_UNKNOWN_${raw & 0xff}`;
  return new LibsqlError(e.message, code, EXTENDED_CODES[raw] ?? code, raw, e);
}
