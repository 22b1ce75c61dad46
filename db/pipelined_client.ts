/**
 * Statements started together on a libSQL server go in one HTTP request (decision 057).
 *
 * @libsql/client's HTTP client opens a Hrana stream per `execute`, runs the statement and closes the stream
 * in one pipeline request: one network round trip per statement, even when a list starts its page's rows and
 * its total together. Here `execute` calls started in the same turn of the event loop (their code may await
 * in between, as long as it awaits nothing that waits for a task: drizzle's query builders do not) are queued,
 * and a task later sent as one pipeline on one stream: each statement its own `execute` request, in the order
 * they were started, then `close`. Each statement keeps its own answer: sqld runs a pipeline's requests one
 * after another on the stream's connection, and a failed one is an error result for that request alone, not
 * for the others (a statement outside a transaction commits or rolls back by itself, as it did on a stream
 * of its own). So a group is a serialisation of statements that were running concurrently anyway.
 *
 * What stays on the library's client: `batch` (a transaction in one request), `transaction` (a stream of
 * its own for its life), `migrate`, `executeMultiple`. A statement that leaves its connection in a
 * transaction (`BEGIN` sent through `execute`) would leave the next ones in the group inside it; nothing here
 * does that (transactions go through `transaction`/`batch`), and `execute` of a `BEGIN` is refused below.
 */
import type { Client, InArgs, InStatement, ResultSet } from "@libsql/client";
import { LibsqlError } from "@libsql/core/api";
import { ResultSetImpl } from "@libsql/core/util";
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

/** What the pipelined client did, for tests and the bench. */
export const pipelineStats = { groups: 0, statements: 0 };

export interface PipelineOptions {
  url: string;
  authToken?: string;
  intMode?: "number" | "bigint" | "string";
  fetch: (input: Request | string | URL, init?: RequestInit) => Promise<Response>;
}

/** `inner` with its `execute` grouped per turn into one Hrana pipeline on a client of its own. */
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
  let queue: Pending[] = [];

  const flush = () => {
    const all = queue;
    queue = [];
    for (let i = 0; i < all.length; i += MAX_GROUP) send(all.slice(i, i + MAX_GROUP));
  };

  const send = (group: Pending[]) => {
    pipelineStats.groups++;
    pipelineStats.statements += group.length;
    let stream: hrana.HttpStream;
    try {
      stream = http.openStream();
    } catch (e) {
      for (const p of group) p.reject(mapError(e));
      return;
    }
    try {
      for (const p of group) {
        try {
          stream.query(toHrana(p.stmt)).then(
            (rows) => p.resolve(toResultSet(rows)),
            (e) => p.reject(mapError(e)),
          );
        } catch (e) {
          p.reject(mapError(e));
        }
      }
    } finally {
      stream.closeGracefully();
    }
  };

  const execute = (stmtOrSql: InStatement | string, args?: InArgs): Promise<ResultSet> => {
    const stmt: InStatement = typeof stmtOrSql === "string"
      ? { sql: stmtOrSql, args: args ?? [] }
      : stmtOrSql;
    const sqlText = typeof stmt === "string" ? stmt : Array.isArray(stmt) ? String(stmt[0]) : stmt.sql;
    if (/^\s*(begin|commit|end|rollback|savepoint|release)\b/i.test(sqlText)) {
      // A transaction statement would carry over into the statements grouped after it.
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
      if (prop === "close") {
        return () => {
          http.close();
          target.close();
        };
      }
      const v = Reflect.get(target, prop, target);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
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
