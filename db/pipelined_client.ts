/**
 * Statements started together on a libSQL server go in one HTTP request (decision 057), on Hrana streams kept
 * open from one group to the next (decision 058).
 *
 * @libsql/client's HTTP client opens a Hrana stream per `execute`, runs the statement and closes the stream
 * in one pipeline request: one network round trip per statement, even when a list starts its page's rows and
 * its total together. Here `execute` calls started in the same turn of the event loop (their code may await
 * in between, as long as it awaits nothing that waits for a task: drizzle's query builders do not) are queued,
 * and a task later sent as one pipeline on one stream: each statement its own `execute` request, in the order
 * they were started. Each statement keeps its own answer: sqld runs a pipeline's requests one after another on
 * the stream's connection, and a failed one is an error result for that request alone, not for the others (a
 * statement outside a transaction commits or rolls back by itself, as it did on a stream of its own). So a
 * group is a serialisation of statements that were running concurrently anyway.
 *
 * The stream is kept for the next group (its baton passed back), because sqld opens a new SQLite connection for
 * every new stream, and a new connection parses the tenant's whole schema first. A client keeps up to
 * POOL_STREAMS, one per group in flight; a group that finds them all in flight goes on a stream of its own,
 * closed in its request. A kept stream idle STREAM_IDLE_MS is closed (well before sqld expires it), and
 * `close()` closes them all. A stream whose request failed is never used again. A group refused because sqld no
 * longer knows its stream's baton (it checks the baton before running anything) is sent again on a fresh stream;
 * any other failure fails its statements, as before: a statement never runs twice.
 *
 * `batch` (a transaction in one request) goes on a kept stream too (decision 062: BEGIN, its statements and
 * COMMIT as one Hrana batch, the stream closed unless the COMMIT succeeded). What stays on the library's
 * client: `transaction` (a stream of its own for its life), `migrate`, `executeMultiple`. A statement that leaves its connection in a
 * transaction (`BEGIN` sent through `execute`) would leave the next ones in the group, and on a kept stream the
 * next groups, inside it; nothing here does that (transactions go through `transaction`/`batch`), and `execute`
 * of a statement that begins or ends a transaction is sent through the library's client instead (below).
 */
import type { Client, InArgs, InStatement, ResultSet, TransactionMode } from "@libsql/client";
import { LibsqlBatchError, LibsqlError } from "@libsql/core/api";
import { ResultSetImpl, transactionModeToBegin } from "@libsql/core/util";
import { expandConfig } from "@libsql/core/config";
import { encodeBaseUrl } from "@libsql/core/uri";
// The Hrana client @libsql/client builds its HTTP client on, declared at the version it pins (package.json).
import * as hrana from "@libsql/hrana-client";
import { yieldToEventLoopSoon } from "../lib/event_loop.ts";

interface Pending {
  stmt: InStatement;
  resolve: (r: ResultSet) => void;
  reject: (e: unknown) => void;
}

/** Statements per pipeline at most: a longer queue goes in several (sqld's request size limits). */
const MAX_GROUP = 64;

/**
 * Streams a client keeps open (decision 058): one per group in flight at once, up to this many. A group that
 * finds them all in flight goes on a stream of its own, opened and closed in its one request as before, so a
 * slow statement holds up nothing beyond its own group, and a tenant never holds more idle server connections
 * than this.
 */
export const POOL_STREAMS = 4;

/**
 * A kept stream is closed once this long has passed since its last request was sent, and never reused past it.
 * sqld expires a stream 10 s after its last request's answer (`EXPIRATION`, rounded up to the next second, in
 * libsql-server/src/hrana/http/stream.rs), keeping its SQLite connection until then; so the server never
 * expires a stream this client still means to use, and 1,000 idle tenants hold no connections 3 s on.
 */
export const STREAM_IDLE_MS = 3000;

/** What the pipelined client did, for tests and the bench. */
export const pipelineStats = {
  groups: 0,
  statements: 0,
  /** streams opened to be kept */
  opened: 0,
  /** groups sent on a kept stream that had served one before */
  reused: 0,
  /** groups sent on a stream of their own (every kept stream was in flight) */
  oneShot: 0,
  /** groups sent again on a fresh stream after sqld refused their kept stream's baton, before running any */
  retried: 0,
  /** batches sent on a kept stream (decision 062) */
  batches: 0,
  /** of those, batches whose stream was closed afterwards: the batch did not end in a clean COMMIT */
  batchesDropped: 0,
};

export interface PipelineOptions {
  url: string;
  authToken?: string;
  intMode?: "number" | "bigint" | "string";
  fetch: (input: Request | string | URL, init?: RequestInit) => Promise<Response>;
  /** tests: how long a kept stream may stay idle (STREAM_IDLE_MS) */
  idleMs?: number;
}

interface Kept {
  stream: hrana.HttpStream;
  /** when its last request was sent (performance.now()): before sqld's answer, from which its expiry runs */
  sentAt: number;
}

/** `inner` with its `execute` grouped per turn into one Hrana pipeline on kept streams of its own. */
export function pipelined(inner: Client, o: PipelineOptions): Client {
  // The URL as @libsql/client's HTTP client reads it (`libsql:` is https, or http with `?tls=0`).
  const cfg = expandConfig({ url: o.url, authToken: o.authToken }, true);
  if (cfg.scheme !== "http" && cfg.scheme !== "https") return inner;
  const http = hrana.openHttp(
    encodeBaseUrl(cfg.scheme, cfg.authority, cfg.path),
    o.authToken,
    o.fetch as typeof fetch,
  );
  http.intMode = o.intMode ?? "number";
  const idleMs = o.idleMs ?? STREAM_IDLE_MS;
  let queue: Pending[] = [];
  /** kept streams not in flight, the most recently used last (taken first: the others age out) */
  let idle: Kept[] = [];
  /** kept streams in flight */
  let busy = 0;
  let sweepTimer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;

  const flush = () => {
    const all = queue;
    queue = [];
    for (let i = 0; i < all.length; i += MAX_GROUP) send(all.slice(i, i + MAX_GROUP), false);
  };

  /** The most recently used idle stream still well within sqld's expiry; older ones are closed. */
  const takeIdle = (): Kept | undefined => {
    const now = performance.now();
    for (let k = idle.pop(); k; k = idle.pop()) {
      if (now - k.sentAt < idleMs && !k.stream.closed) return k;
      k.stream.closeGracefully();
    }
    return undefined;
  };

  /** Closes the kept streams idle for idleMs (a `close` request each: sqld drops its connection at once). */
  const sweep = () => {
    sweepTimer = undefined;
    const now = performance.now();
    idle = idle.filter((k) => {
      if (now - k.sentAt < idleMs) return true;
      k.stream.closeGracefully();
      return false;
    });
    armSweep();
  };
  const armSweep = () => {
    if (sweepTimer !== undefined || closed || !idle.length) return;
    const oldest = Math.min(...idle.map((k) => k.sentAt));
    const timer = setTimeout(sweep, Math.max(0, oldest + idleMs - performance.now()));
    // An idle client's streams do not keep a process (a CLI, a test) alive: sqld expires them anyway.
    Deno.unrefTimer(timer);
    sweepTimer = timer;
  };

  /** Sends a group on a kept stream (a fresh one when `fresh`), or on one of its own when all are in flight. */
  const send = (group: Pending[], fresh: boolean) => {
    if (!fresh) {
      pipelineStats.groups++;
      pipelineStats.statements += group.length;
    }
    let kept = fresh ? undefined : takeIdle();
    const reused = kept !== undefined;
    let stream: hrana.HttpStream;
    try {
      if (kept) stream = kept.stream;
      else {
        stream = http.openStream();
        if (busy + idle.length < POOL_STREAMS) {
          kept = { stream, sentAt: 0 };
          pipelineStats.opened++;
        } else pipelineStats.oneShot++;
      }
    } catch (e) {
      for (const p of group) p.reject(mapError(e));
      return;
    }
    if (reused) pipelineStats.reused++;
    if (kept) busy++;
    // Each statement its own `execute` request; the stream sends them in one pipeline (it is not in flight).
    const sent: { p: Pending; result: Promise<hrana.RowsResult> }[] = [];
    for (const p of group) {
      try {
        sent.push({ p, result: stream.query(toHrana(p.stmt)) });
      } catch (e) {
        p.reject(mapError(e));
      }
    }
    if (kept && sent.length) kept.sentAt = performance.now();
    // A stream of its own is closed in the same request, as every group's was before.
    if (!kept) stream.closeGracefully();
    Promise.allSettled(sent.map((s) => s.result)).then((results) => {
      if (kept) busy--;
      // sqld refused the kept stream's baton (expired, or unknown after a restart): it checks the baton before
      // it handles any request of the pipeline, so none ran. The group goes again on a fresh stream, once (a
      // request without a baton is never refused so); the other idle streams are likely as stale.
      const first = results[0];
      if (
        reused && !closed && first?.status === "rejected" && batonRefused(first.reason) &&
        results.every((r) => r.status === "rejected" && r.reason === first.reason)
      ) {
        pipelineStats.retried++;
        for (const k of idle) k.stream.closeGracefully();
        idle = [];
        send(sent.map((s) => s.p), true);
        return;
      }
      results.forEach((r, i) => {
        if (r.status === "fulfilled") sent[i].p.resolve(toResultSet(r.value));
        else sent[i].p.reject(mapError(r.reason));
      });
      // A stream whose request failed (the network, an HTTP error) is closed by the Hrana client: dropped.
      if (!kept || stream.closed) return;
      if (closed) stream.closeGracefully();
      else {
        idle.push(kept);
        armSweep();
      }
    });
  };

  /**
   * A batch (decision 062): one request on a kept stream, its statements between BEGIN and COMMIT as steps of
   * one Hrana batch, each conditioned on the one before, and a ROLLBACK if the COMMIT did not run or failed,
   * as @libsql/client's `batch` builds it (its `executeHranaBatch`, at protocol version 2 as its HTTP client
   * speaks). The stream is kept only when the COMMIT succeeded; any other outcome closes it, so a connection
   * left in a transaction is never reused. Refused for its baton before anything ran (decision 058): sent
   * again, once, on a fresh stream. With every kept stream in flight, the library's own batch (a stream of
   * its own) as before.
   */
  const batch = async (stmts: InStatement[], mode: TransactionMode = "deferred"): Promise<ResultSet[]> => {
    if (http.closed) throw new LibsqlError("The client is closed", "CLIENT_CLOSED");
    const begin = transactionModeToBegin(mode);
    // A statement that would leave state on the connection goes with its batch on a stream of its own.
    if (stmts.some((st) => CONNECTION_STATE.test(sqlOf(st)))) return inner.batch(stmts, mode);
    const hranaStmts = stmts.map(toHrana);
    let kept = takeIdle();
    let reused = kept !== undefined;
    if (!kept) {
      if (busy + idle.length >= POOL_STREAMS) return inner.batch(stmts, mode);
      kept = { stream: http.openStream(), sentAt: 0 };
      pipelineStats.opened++;
    }
    pipelineStats.batches++;
    if (reused) pipelineStats.reused++;
    busy++;
    try {
      for (;;) {
        const stream = kept.stream;
        const b = stream.batch(false);
        const beginStep = b.step();
        const beginDone = beginStep.run(begin);
        let last = beginStep;
        const results = hranaStmts.map((h) => {
          const step = b.step().condition(hrana.BatchCond.ok(last));
          last = step;
          return step.query(h);
        });
        const commitStep = b.step().condition(hrana.BatchCond.ok(last));
        const commitDone = commitStep.run("COMMIT");
        b.step().condition(hrana.BatchCond.not(hrana.BatchCond.ok(commitStep))).run("ROLLBACK")
          .catch(() => undefined);
        // Settled only when the request answered: a failed request leaves the steps unanswered.
        for (const p of [beginDone, commitDone, ...results]) p.catch(() => undefined);
        kept.sentAt = performance.now();
        try {
          await b.execute();
        } catch (e) {
          stream.closeGracefully();
          if (reused && !closed && batonRefused(e)) {
            // Nothing of the batch ran: sent again on a fresh stream, the other idle streams likely as stale.
            pipelineStats.retried++;
            for (const k of idle) k.stream.closeGracefully();
            idle = [];
            kept = { stream: http.openStream(), sentAt: 0 };
            pipelineStats.opened++;
            reused = false;
            continue;
          }
          throw mapError(e);
        }
        // A step whose condition was false answers `undefined`: only a COMMIT that ran and succeeded counts.
        const committed = await commitDone.then((r) => r !== undefined, () => false);
        if (!committed || closed) {
          pipelineStats.batchesDropped++;
          stream.closeGracefully();
        } else {
          idle.push(kept);
          armSweep();
        }
        // The answers, or the first failure, as the library reports them.
        try {
          await beginDone;
        } catch (e) {
          throw mapError(e);
        }
        const out: ResultSet[] = [];
        for (let i = 0; i < results.length; i++) {
          let rows: hrana.RowsResult | undefined;
          try {
            rows = await results[i];
          } catch (e) {
            const m = mapError(e);
            if (!(m instanceof LibsqlError)) throw m;
            throw new LibsqlBatchError(
              m.message,
              i,
              m.code,
              m.extendedCode,
              m.rawCode,
              m.cause instanceof Error ? m.cause : undefined,
            );
          }
          if (rows === undefined) {
            throw new LibsqlBatchError(
              "Statement in a batch was not executed, probably because the transaction has been rolled back",
              i,
              "TRANSACTION_CLOSED",
            );
          }
          out.push(toResultSet(rows));
        }
        try {
          await commitDone;
        } catch (e) {
          throw mapError(e);
        }
        return out;
      }
    } finally {
      busy--;
    }
  };

  const execute = (stmtOrSql: InStatement | string, args?: InArgs): Promise<ResultSet> => {
    const stmt: InStatement = typeof stmtOrSql === "string"
      ? { sql: stmtOrSql, args: args ?? [] }
      : stmtOrSql;
    if (TRANSACTION_STATEMENT.test(sqlOf(stmt))) {
      // A transaction statement would carry over into the statements grouped after it, and on a kept stream
      // into the groups after it.
      return inner.execute(stmt);
    }
    if (http.closed) return Promise.reject(new LibsqlError("The client is closed", "CLIENT_CLOSED"));
    return new Promise<ResultSet>((resolve, reject) => {
      queue.push({ stmt, resolve, reject });
      if (queue.length === 1) yieldToEventLoopSoon().then(flush);
    });
  };

  return new Proxy(inner, {
    get(target, prop) {
      if (prop === "execute") return execute;
      if (prop === "batch") return batch;
      if (prop === "close") {
        return () => {
          closed = true;
          clearTimeout(sweepTimer);
          idle = [];
          // Closes every stream: a `close` request for each kept one now, or after its request in flight.
          http.close();
          target.close();
        };
      }
      const v = Reflect.get(target, prop, target);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
}

/**
 * A statement that begins or ends a transaction, after any comments (SQLite skips them): `SAVEPOINT` outside a
 * transaction begins one.
 */
const TRANSACTION_STATEMENT =
  /^(?:\s|--[^\n]*(?:\n|$)|\/\*[\s\S]*?(?:\*\/|$))*(?:begin|commit|end|rollback|savepoint|release)\b/i;

/**
 * A statement that sets state on its connection beyond a transaction: a `PRAGMA` (most set it), `ATTACH`/
 * `DETACH`, a temporary table, view, index or trigger. On a kept stream it would carry over to later requests.
 */
const CONNECTION_STATE =
  /^(?:\s|--[^\n]*(?:\n|$)|\/\*[\s\S]*?(?:\*\/|$))*(?:pragma|attach|detach|create\s+temp(?:orary)?)\b/i;

function sqlOf(stmt: InStatement): string {
  return typeof stmt === "string" ? stmt : Array.isArray(stmt) ? String(stmt[0]) : stmt.sql;
}

/**
 * sqld's answer when a pipeline's baton names no stream it can use: checked in `stream::acquire`, before the
 * pipeline's first request is handled (libsql-server/src/hrana/http/mod.rs, `handle_pipeline`). An expired
 * stream is `STREAM_EXPIRED` (HTTP 400 with a JSON error from sqld 0.24); a baton it did not sign (a restarted
 * server) or whose stream it no longer knows (300 s after expiry) is HTTP 400 "Received an invalid baton"; one
 * already used, "Received a baton that has already been used".
 */
function batonRefused(e: unknown): boolean {
  if (e instanceof hrana.ResponseError) return e.code === "STREAM_EXPIRED";
  return e instanceof hrana.HttpServerError && e.status === 400 &&
    /: Received (an invalid baton|a baton that has already been used)$/.test(e.message);
}

function toHrana(stmt: InStatement): hrana.Stmt {
  let sql: string;
  let args: InArgs | undefined;
  if (Array.isArray(stmt)) [sql, args] = stmt as unknown as [string, InArgs];
  else if (typeof stmt === "string") sql = stmt;
  else ({ sql, args } = stmt);
  const s = new hrana.Stmt(sql);
  if (Array.isArray(args)) s.bindIndexes(args as hrana.InValue[]);
  else if (args) { for (const [k, v] of Object.entries(args)) s.bindName(k, v as hrana.InValue); }
  return s;
}

function toResultSet(r: hrana.RowsResult): ResultSet {
  return new ResultSetImpl(
    r.columnNames.map((c) => c ?? ""),
    r.columnDecltypes.map((c) => c ?? ""),
    r.rows,
    r.affectedRowCount,
    r.lastInsertRowid,
  ) as unknown as ResultSet;
}

/** As @libsql/client maps the Hrana client's errors (its `mapHranaError`), so callers see the same errors. */
function mapError(e: unknown): unknown {
  if (e instanceof hrana.ClientError) {
    return new LibsqlError(e.message, errorCode(e), undefined, undefined, e);
  }
  return e;
}

function errorCode(e: hrana.ClientError): string {
  if (e instanceof hrana.ResponseError && e.code !== undefined) return e.code;
  if (e instanceof hrana.ProtoError) return "HRANA_PROTO_ERROR";
  if (e instanceof hrana.ClosedError) {
    return e.cause instanceof hrana.ClientError ? errorCode(e.cause) : "HRANA_CLOSED_ERROR";
  }
  if (e instanceof hrana.HttpServerError) return "SERVER_ERROR";
  if (e instanceof hrana.ProtocolVersionError) return "PROTOCOL_VERSION_ERROR";
  if (e instanceof hrana.InternalError) return "INTERNAL_ERROR";
  return "UNKNOWN";
}
