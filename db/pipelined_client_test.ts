import assert from "node:assert/strict";
import type { Client } from "@libsql/client";
import { openClient, remoteStats } from "./client.ts";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import http from "node:http";
import { join } from "node:path";
import { pipelined, pipelineStats, POOL_STREAMS, STREAM_IDLE_MS } from "./pipelined_client.ts";
import { loopbackFetch } from "./sqld.ts";
import { freePort, type Sqld, SQLD_PATH, sqldAvailable, startSqldDatabase } from "../scripts/testing/sqld.ts";

const opts = { ignore: !sqldAvailable(), sanitizeResources: false, sanitizeOps: false };

async function withDb(fn: (db: Client, plain: Client, s: Sqld) => Promise<void>) {
  const s = await startSqldDatabase();
  const db = await openClient(s.url);
  // The library's own client, one request per statement: what the grouped answers must equal.
  const { createClient } = await import("@libsql/client");
  const plain = createClient({ url: s.url });
  try {
    await db.batch([
      "create table t (id integer primary key, name text not null unique, amount real, data blob)",
      "insert into t (name, amount, data) values ('a', 1.5, x'0102'), ('b', null, null), ('c', 3, x'')",
    ], "write");
    await fn(db, plain, s);
  } finally {
    db.close();
    plain.close();
    await s.stop();
  }
}

const shape = (r: Awaited<ReturnType<Client["execute"]>>) => ({
  columns: r.columns,
  columnTypes: r.columnTypes,
  rows: r.rows.map((row) => ({
    values: [...Array(r.columns.length).keys()].map((i) => row[i]),
    obj: { ...row },
  })),
  rowsAffected: r.rowsAffected,
  lastInsertRowid: r.lastInsertRowid,
});

Deno.test({
  ...opts,
  name: "pipelined client - statements started together go in one request, with the answers of one at a time",
  fn: () =>
    withDb(async (db, plain) => {
      const stmts = [
        "select * from t order by id",
        { sql: "select count(*) as n, sum(amount) as s from t where id > ?", args: [0] },
        { sql: "select name from t where name = :name", args: { name: "b" } },
        "select 1 as one, 'x' as two, null as three, 2.5 as four",
      ];
      const expected = [];
      for (const s of stmts) expected.push(shape(await plain.execute(s)));
      const before = remoteStats.requests, groups = pipelineStats.groups;
      const got = await Promise.all(stmts.map((s) => db.execute(s)));
      assert.equal(remoteStats.requests - before, 1, "one HTTP request for the four");
      assert.equal(pipelineStats.groups - groups, 1);
      assert.deepEqual(got.map(shape), expected);
      // Started after awaits that settle without a task (as drizzle's builders do): still the same group.
      const later = async () => {
        await Promise.resolve();
        await null;
        return db.execute("select 2 as two");
      };
      const before2 = remoteStats.requests;
      const [a, b] = await Promise.all([db.execute("select 1 as one"), later()]);
      assert.equal(remoteStats.requests - before2, 1);
      assert.equal(a.rows[0].one, 1);
      assert.equal(b.rows[0].two, 2);
      // A write answers as the library's does (rows affected, last row id).
      const w = await db.execute({ sql: "insert into t (name) values (?)", args: ["d"] });
      const wp = await plain.execute({ sql: "insert into t (name) values (?)", args: ["e"] });
      assert.equal(w.rowsAffected, 1);
      assert.equal(typeof w.lastInsertRowid, typeof wp.lastInsertRowid);
      assert.equal(Number(w.lastInsertRowid) + 1, Number(wp.lastInsertRowid));
    }),
});

Deno.test({
  ...opts,
  name:
    "pipelined client - a failed statement fails alone: the others in its request answer, a write beside it commits",
  fn: () =>
    withDb(async (db, plain) => {
      const plainErr = await plain.execute("select * from missing").catch((e) => e);
      const before = remoteStats.requests;
      const [ok1, bad, dup, ok2, write] = await Promise.allSettled([
        db.execute("select count(*) as n from t"),
        db.execute("select * from missing"),
        db.execute({ sql: "insert into t (name) values (?)", args: ["a"] }), // unique violation
        db.execute("select name from t where id = 1"),
        db.execute({ sql: "insert into t (name) values (?)", args: ["z"] }),
      ]);
      assert.equal(remoteStats.requests - before, 1);
      assert.equal(ok1.status === "fulfilled" && ok1.value.rows[0].n, 3);
      assert.equal(ok2.status === "fulfilled" && ok2.value.rows[0].name, "a");
      assert.equal(write.status, "fulfilled");
      assert.equal(bad.status, "rejected");
      const err = (bad as PromiseRejectedResult).reason;
      assert.equal(err.constructor.name, plainErr.constructor.name);
      assert.equal(err.code, plainErr.code);
      assert.match(err.message, /no such table: missing/);
      assert.equal(dup.status, "rejected");
      assert.match((dup as PromiseRejectedResult).reason.message, /UNIQUE constraint failed/);
      const names = (await plain.execute("select name from t order by id")).rows.map((r) => r.name);
      assert.deepEqual(names, ["a", "b", "c", "z"]);
    }),
});

Deno.test({
  ...opts,
  name: "pipelined client - transactions and batches stay atomic beside grouped statements",
  fn: () =>
    withDb(async (db, plain) => {
      // A transaction that fails midway leaves nothing, while statements grouped beside it go on.
      const tx = await db.transaction("write");
      const beside = Promise.all([db.execute("select count(*) as n from t"), db.execute("select 1 as one")]);
      await tx.execute({ sql: "insert into t (name) values (?)", args: ["in-tx"] });
      await assert.rejects(tx.execute({ sql: "insert into t (name) values (?)", args: ["a"] }), /UNIQUE/);
      await tx.rollback();
      tx.close();
      const [n] = await beside;
      assert.equal(n.rows[0].n, 3);
      // A batch is one transaction: its failed step undoes the ones before it.
      await assert.rejects(
        db.batch([
          { sql: "insert into t (name) values (?)", args: ["batch-1"] },
          { sql: "insert into t (name) values (?)", args: ["a"] },
        ], "write"),
        /UNIQUE/,
      );
      // BEGIN through execute is not grouped with statements started beside it.
      const before = pipelineStats.statements;
      await Promise.all([db.execute("begin"), db.execute("select 1")]).catch(() => {});
      assert.equal(pipelineStats.statements - before, 1, "only the select was grouped");
      // Nor one behind comments, which SQLite skips (on a kept stream it would hold later groups in it).
      for (const sql of ["/* x */ BEGIN", "-- x\n  savepoint a", "\n/* a */ /* b */ commit"]) {
        const n = pipelineStats.statements;
        await db.execute(sql).catch(() => {});
        assert.equal(pipelineStats.statements - n, 0, sql);
      }
      const names = (await plain.execute("select name from t order by id")).rows.map((r) => r.name);
      assert.deepEqual(names, ["a", "b", "c"]);
    }),
});

Deno.test({
  ...opts,
  name: "pipelined client - a closed client refuses statements; bigint mode keeps integers exact",
  fn: async () => {
    const s = await startSqldDatabase();
    try {
      const exact = await openClient(s.url, null, { exact: true });
      const r = await exact.execute("select 9007199254740993 as big");
      assert.equal(r.rows[0].big, 9007199254740993n);
      exact.close();
      await assert.rejects(exact.execute("select 1"), /closed/i);
    } finally {
      await s.stop();
    }
  },
});

// ---- Kept streams (decision 058) ----

interface Logged {
  baton: string | null;
  types: string[];
  status?: number;
  /** the baton sqld answered with: the next request on the stream must carry it */
  answered?: string | null;
}

type Rule = "forward" | "hold" | "cut" | { status: number; contentType: string; body: string };

/**
 * A loopback proxy in front of a real sqld that logs every pipeline request (its baton and its requests'
 * types) and, for the requests a test picks: holds one until released, cuts its answer mid-body after sqld
 * ran it (a network failure), or answers in sqld's place (what sqld answers for an expired stream). `target`
 * may change (a restarted sqld).
 */
class HranaProxy {
  log: Logged[] = [];
  target: string;
  rule: (l: Logged) => Rule = () => "forward";
  #release: (() => void)[] = [];
  #waiters: { pred: (l: Logged[]) => boolean; resolve: () => void }[] = [];
  #server: Deno.HttpServer;
  url: string;

  constructor(target: string) {
    this.target = target;
    this.#server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen: () => {} },
      (req) => this.#handle(req),
    );
    this.url = `http://127.0.0.1:${(this.#server.addr as Deno.NetAddr).port}`;
  }

  async #handle(req: Request): Promise<Response> {
    const text = await req.text();
    const path = new URL(req.url).pathname;
    const body = text ? JSON.parse(text) : {};
    const entry: Logged = {
      baton: body.baton ?? null,
      types: (body.requests ?? []).map((r: { type: string }) => r.type),
    };
    this.log.push(entry);
    const rule = path.endsWith("/pipeline") ? this.rule(entry) : "forward";
    this.#notify();
    if (typeof rule === "object") {
      entry.status = rule.status;
      this.#notify();
      return new Response(rule.body, { status: rule.status, headers: { "content-type": rule.contentType } });
    }
    if (rule === "hold") await new Promise<void>((r) => this.#release.push(r));
    const res = await fetch(this.target + path, {
      method: req.method,
      headers: req.headers.get("content-type") ? { "content-type": req.headers.get("content-type")! } : {},
      body: req.method === "GET" ? undefined : text,
    });
    const bytes = new Uint8Array(await res.arrayBuffer());
    entry.status = res.status;
    const contentType = res.headers.get("content-type") ?? "text/plain";
    if (contentType === "application/json" && res.ok) {
      entry.answered = JSON.parse(new TextDecoder().decode(bytes)).baton;
    }
    this.#notify();
    if (rule === "cut") {
      // sqld ran it; the client gets the status and a few bytes, then the connection fails.
      const stream = new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(bytes.slice(0, 8));
          c.error(new Error("cut by the test"));
        },
      });
      return new Response(stream, { status: res.status, headers: { "content-type": contentType } });
    }
    return new Response(bytes, { status: res.status, headers: { "content-type": contentType } });
  }

  #notify() {
    this.#waiters = this.#waiters.filter((w) => {
      if (!w.pred(this.log)) return true;
      w.resolve();
      return false;
    });
  }

  /** Resolves once the log satisfies `pred`; fails past the deadline. */
  until(pred: (l: Logged[]) => boolean, what: string, ms = 10_000): Promise<void> {
    if (pred(this.log)) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const t = setTimeout(
        () => reject(new Error(`timed out waiting for ${what}: ${JSON.stringify(this.log)}`)),
        ms,
      );
      this.#waiters.push({
        pred,
        resolve: () => {
          clearTimeout(t);
          resolve();
        },
      });
    });
  }

  releaseAll() {
    for (const r of this.#release.splice(0)) r();
  }

  async stop() {
    this.releaseAll();
    await this.#server.shutdown();
  }
}

/** sqld on a directory of ours, so that it can be killed and started again on the same database. */
async function sqldOn(dir: string): Promise<Sqld> {
  const port = freePort();
  const proc = new Deno.Command(SQLD_PATH, {
    args: ["--http-listen-addr", `127.0.0.1:${port}`, "-d", join(dir, "data"), "--no-welcome"],
    stdout: "null",
    stderr: "null",
  }).spawn();
  const url = `http://127.0.0.1:${port}`;
  const deadline = performance.now() + 10_000;
  for (;;) {
    const up = await fetch(`${url}/health`).then((r) => (r.body?.cancel(), r.ok), () => false);
    if (up) break;
    if (performance.now() > deadline) throw new Error("sqld did not start");
    await new Promise((r) => setTimeout(r, 10));
  }
  return {
    url,
    async stop() {
      proc.kill("SIGKILL");
      await proc.status;
    },
  };
}

const isClose = (l: Logged) => l.types.length === 1 && l.types[0] === "close";
const statementsOf = (log: Logged[]) => log.filter((l) => !isClose(l) && l.types.length);

async function withProxy(fn: (db: Client, proxy: HranaProxy, restart: () => Promise<void>) => Promise<void>) {
  const dir = mkdtempSync(join(tmpdir(), "sqld-kept-"));
  let s = await sqldOn(dir);
  const proxy = new HranaProxy(s.url);
  const db = await openClient(proxy.url);
  try {
    await db.batch(["create table t (id integer primary key, name text not null)"], "write");
    await fn(db, proxy, async () => {
      await s.stop();
      s = await sqldOn(dir);
      proxy.target = s.url;
    });
  } finally {
    db.close();
    await proxy.stop();
    await s.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const names = async (db: Client) =>
  (await db.execute("select name from t order by id")).rows.map((r) => String(r.name));

Deno.test({
  ...opts,
  name: "kept streams - groups one after another reuse one stream; groups in flight at once take others",
  fn: () =>
    withProxy(async (db, proxy) => {
      const from = proxy.log.length;
      for (let i = 0; i < 3; i++) {
        const [a, b] = await Promise.all([
          db.execute("select 1 as one"),
          db.execute("select count(*) n from t"),
        ]);
        assert.equal(a.rows[0].one, 1);
        assert.equal(b.rows[0].n, 0);
      }
      const three = proxy.log.slice(from);
      assert.equal(three.length, 3, "one request a group");
      // The setup's batch (decision 062) went on a kept stream: the first group reuses it.
      assert.equal(three[0].baton, proxy.log[from - 1].answered, "the first on the stream the batch kept");
      assert.equal(three[1].baton, three[0].answered, "the second carries the baton sqld gave the first");
      assert.equal(three[2].baton, three[1].answered);
      assert.ok(three.every((l) => !l.types.includes("close")), "the stream stays open");

      // Groups in flight at once: each on a stream of its own, none queued behind another.
      const held = proxy.log.length;
      proxy.rule = () => "hold";
      const inFlight: Promise<unknown>[] = [];
      for (let i = 0; i < POOL_STREAMS; i++) {
        inFlight.push(db.execute({ sql: "insert into t (name) values (?)", args: [`held-${i}`] }));
        await proxy.until((l) => l.length === held + i + 1, `held request ${i}`);
      }
      const heldBatons = proxy.log.slice(held).map((l) => l.baton);
      assert.equal(heldBatons[0], three[2].answered, "the first on the kept stream");
      assert.deepEqual(
        heldBatons.slice(1),
        Array(POOL_STREAMS - 1).fill(null),
        "the others each on a new one",
      );
      // With every kept stream in flight, the next group goes on a stream of its own and answers at once.
      proxy.rule = () => "forward";
      const oneShot = pipelineStats.oneShot;
      const r = await db.execute("select count(*) n from t");
      assert.equal(r.rows[0].n, 0, "the held inserts have not run");
      const last = proxy.log.at(-1)!;
      assert.equal(last.baton, null);
      assert.deepEqual(last.types, ["execute", "close"], "opened and closed in its one request");
      assert.equal(pipelineStats.oneShot - oneShot, 1);
      proxy.releaseAll();
      await Promise.all(inFlight);
      assert.equal((await names(db)).length, POOL_STREAMS);
    }),
});

Deno.test({
  ...opts,
  name: "kept streams - close() closes every kept stream on the server",
  fn: async () => {
    const dir = mkdtempSync(join(tmpdir(), "sqld-kept-"));
    const s = await sqldOn(dir);
    const proxy = new HranaProxy(s.url);
    try {
      const db = await openClient(proxy.url);
      // Two streams kept: two groups in flight at once.
      proxy.rule = () => "hold";
      const two = [db.execute("select 1"), db.execute("select 1")];
      await proxy.until((l) => l.length >= 1, "the first request");
      const second = db.execute("select 2");
      await proxy.until((l) => l.length >= 2, "the second request");
      proxy.rule = () => "forward";
      proxy.releaseAll();
      await Promise.all([...two, second]);
      const kept = proxy.log.map((l) => l.answered).filter((b): b is string => typeof b === "string");
      assert.equal(kept.length, 2);
      db.close();
      await proxy.until(
        (l) => kept.every((b) => l.some((x) => isClose(x) && x.baton === b && x.status === 200)),
        "a close request for each kept stream",
      );
      // sqld no longer knows them.
      for (const baton of kept) {
        const res = await fetch(`${s.url}/v2/pipeline`, {
          method: "POST",
          body: JSON.stringify({ baton, requests: [{ type: "execute", stmt: { sql: "select 1" } }] }),
        });
        assert.equal(res.status, 400);
        assert.match(await res.text(), /invalid baton/);
      }
    } finally {
      await proxy.stop();
      await s.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  },
});

/** sqld 0.24.32's answer for a stream it expired (10 s idle), recorded from the server. */
const STREAM_EXPIRED = {
  status: 400,
  contentType: "application/json",
  body: '{"message":"The stream has expired due to inactivity","code":"STREAM_EXPIRED"}',
};

Deno.test({
  ...opts,
  name:
    "kept streams - a stream sqld refuses (restarted, expired) is retried once on a fresh one: a read and a write answer, nothing runs twice",
  fn: () =>
    withProxy(async (db, proxy, restart) => {
      await db.execute("select 1");
      // A restarted sqld does not know the kept stream's baton: it answers 400 before running anything.
      await restart();
      const retried = pipelineStats.retried, from = proxy.log.length;
      const [w, r] = await Promise.all([
        db.execute({ sql: "insert into t (name) values (?)", args: ["after-restart"] }),
        db.execute("select count(*) n from t"),
      ]);
      assert.equal(w.rowsAffected, 1);
      assert.equal(r.rows[0].n, 1);
      assert.equal(pipelineStats.retried - retried, 1);
      const sent = statementsOf(proxy.log.slice(from));
      assert.equal(sent.length, 2, "refused, then sent again");
      assert.ok(sent[0].baton && sent[0].status === 400);
      assert.equal(sent[1].baton, null, "on a fresh stream");
      assert.deepEqual(sent[1].types, sent[0].types);
      assert.deepEqual(await names(db), ["after-restart"]);

      // An expired stream, as sqld answers it: the same.
      proxy.rule = (l) => (l.baton && l.types.includes("execute") ? STREAM_EXPIRED : "forward");
      const [w2, r2, bad] = await Promise.allSettled([
        db.execute({ sql: "insert into t (name) values (?)", args: ["after-expiry"] }),
        db.execute("select count(*) n from t"),
        db.execute("select * from missing"),
      ]);
      proxy.rule = () => "forward";
      assert.equal(w2.status === "fulfilled" && w2.value.rowsAffected, 1);
      assert.equal(r2.status === "fulfilled" && r2.value.rows[0].n, 2);
      assert.equal(bad.status, "rejected", "a statement's own error is still its own");
      assert.match((bad as PromiseRejectedResult).reason.message, /no such table/);
      assert.equal(pipelineStats.retried - retried, 2);
      assert.deepEqual(await names(db), ["after-restart", "after-expiry"]);
    }),
});

Deno.test({
  ...opts,
  name:
    "kept streams - a request cut by the network fails, is not sent again, and its stream is not used again",
  fn: () =>
    withProxy(async (db, proxy) => {
      await db.execute("select 1");
      const retried = pipelineStats.retried, from = proxy.log.length;
      proxy.rule = (l) => (l.types.includes("execute") ? "cut" : "forward");
      const [w, r] = await Promise.allSettled([
        db.execute({ sql: "insert into t (name) values (?)", args: ["cut"] }),
        db.execute("select count(*) n from t"),
      ]);
      proxy.rule = () => "forward";
      assert.equal(w.status, "rejected", "sqld ran it, but its answer was lost: an error, as today");
      assert.equal(r.status, "rejected");
      assert.equal(pipelineStats.retried, retried);
      const next = await db.execute("select name from t");
      assert.deepEqual(next.rows.map((x) => x.name), ["cut"], "ran once");
      const sent = statementsOf(proxy.log.slice(from));
      assert.equal(sent.length, 2, "the cut request, then the next group: nothing sent again");
      assert.ok(sent[0].baton);
      assert.equal(sent[1].baton, null, "the next group on a fresh stream");
    }),
});

Deno.test({
  ...opts,
  name: "kept streams - an idle stream is closed after the idle time and never reused past it",
  fn: async () => {
    const dir = mkdtempSync(join(tmpdir(), "sqld-kept-"));
    const s = await sqldOn(dir);
    const proxy = new HranaProxy(s.url);
    const { createClient } = await import("@libsql/client");
    const inner = createClient({ url: proxy.url });
    const db = pipelined(inner, { url: proxy.url, fetch: globalThis.fetch, idleMs: 200 });
    try {
      await db.execute("select 1");
      const kept = proxy.log.findLast((l) => l.types.includes("execute"))!.answered;
      assert.ok(kept);
      await proxy.until(
        (l) => l.some((x) => isClose(x) && x.baton === kept && x.status === 200),
        "the idle close",
      );
      const from = proxy.log.length;
      await db.execute("select 2");
      assert.equal(proxy.log[from].baton, null, "a fresh stream");
      assert.equal(STREAM_IDLE_MS * 3 <= 10_000, true, "well before sqld's 10 s expiry");
    } finally {
      db.close();
      await proxy.stop();
      await s.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  },
});

// ---- Batches on kept streams (decision 062) ----

Deno.test({
  ...opts,
  name: "kept streams - a batch goes on a reused stream in one request, commits, and leaves the stream kept",
  fn: () =>
    withProxy(async (db, proxy) => {
      await db.execute("select 1");
      const from = proxy.log.length, batches = pipelineStats.batches;
      const out = await db.batch([
        { sql: "insert into t (name) values (?)", args: ["b1"] },
        ["insert into t (name) values (?)", ["b2"]] as unknown as string,
        "select count(*) as n from t",
      ], "write");
      assert.equal(out.length, 3);
      assert.equal(out[0].rowsAffected, 1);
      assert.equal(out[2].rows[0].n, 2, "the batch's statements see each other");
      assert.equal(pipelineStats.batches - batches, 1);
      const sent = proxy.log.slice(from);
      assert.equal(sent.length, 1, "one request, no close");
      assert.deepEqual(sent[0].types, ["batch"]);
      assert.equal(sent[0].baton, proxy.log[from - 1].answered, "on the stream the group before kept");
      // The next group goes on the same stream, outside any transaction: its write commits by itself.
      await db.execute({ sql: "insert into t (name) values (?)", args: ["after"] });
      assert.equal(proxy.log.at(-1)!.baton, sent[0].answered);
      const { createClient } = await import("@libsql/client");
      const plain = createClient({ url: proxy.target });
      try {
        const seen = (await plain.execute("select name from t order by id")).rows.map((r) => r.name);
        assert.deepEqual(seen, ["b1", "b2", "after"], "committed, as another connection sees it");
      } finally {
        plain.close();
      }
      // A read batch too.
      const [r] = await db.batch(["select count(*) as n from t"], "read");
      assert.equal(r.rows[0].n, 3);
      // One that sets connection state goes on a stream of its own, closed in its request.
      const n = pipelineStats.batches;
      await db.batch(["/* x */ PRAGMA foreign_keys=off", "select 1"], "deferred");
      assert.equal(pipelineStats.batches, n);
      assert.equal(proxy.log.at(-1)!.baton, null);
      assert.ok(proxy.log.at(-1)!.types.includes("close"));
    }),
});

Deno.test({
  ...opts,
  name:
    "kept streams - a batch whose statement fails is rolled back, fails as the library's does, and its stream is closed",
  fn: () =>
    withProxy(async (db, proxy) => {
      await db.execute({ sql: "insert into t (id, name) values (1, ?)", args: ["a"] });
      const stmts = [
        { sql: "insert into t (name) values (?)", args: ["lost"] },
        { sql: "insert into t (id, name) values (1, ?)", args: ["dup"] }, // primary key taken
        { sql: "insert into t (name) values (?)", args: ["never"] },
      ];
      const { createClient } = await import("@libsql/client");
      const plain = createClient({ url: proxy.target });
      try {
        const expected = await plain.batch(stmts, "write").catch((e) => e);
        const from = proxy.log.length, dropped = pipelineStats.batchesDropped;
        const got = await db.batch(stmts, "write").catch((e) => e);
        assert.equal(got.constructor.name, expected.constructor.name);
        assert.equal(got.code, expected.code);
        assert.equal(got.statementIndex, 1);
        assert.equal(got.statementIndex, expected.statementIndex);
        assert.equal(got.message, expected.message);
        assert.equal(pipelineStats.batchesDropped - dropped, 1);
        const batchBaton = proxy.log[from].answered;
        assert.ok(batchBaton);
        await proxy.until(
          (l) => l.some((x) => isClose(x) && x.baton === batchBaton && x.status === 200),
          "the batch's stream closed",
        );
        const next = proxy.log.length;
        assert.deepEqual(await names(db), ["a"], "nothing of either batch is there");
        assert.equal(proxy.log[next].baton, null, "the next group on a fresh stream");
        // An empty batch commits, as the library's.
        assert.deepEqual(await db.batch([], "write"), []);
      } finally {
        plain.close();
      }
    }),
});

Deno.test({
  ...opts,
  name:
    "kept streams - a batch refused for its stream's baton (restarted, expired) runs once on a fresh stream; one cut is not sent again",
  fn: () =>
    withProxy(async (db, proxy, restart) => {
      await db.execute("select 1");
      await restart();
      const retried = pipelineStats.retried, from = proxy.log.length;
      const out = await db.batch([
        { sql: "insert into t (name) values (?)", args: ["after-restart"] },
        "select count(*) as n from t",
      ], "write");
      assert.equal(out[1].rows[0].n, 1);
      assert.equal(pipelineStats.retried - retried, 1);
      const sent = statementsOf(proxy.log.slice(from));
      assert.equal(sent.length, 2, "refused, then sent again");
      assert.ok(sent[0].baton && sent[0].status === 400);
      assert.equal(sent[1].baton, null);
      assert.deepEqual(sent[1].types, ["batch"]);
      assert.deepEqual(await names(db), ["after-restart"]);

      // An expired stream, as sqld answers it: the same.
      proxy.rule = (l) => (l.baton && l.types.includes("batch") ? STREAM_EXPIRED : "forward");
      await db.batch([{ sql: "insert into t (name) values (?)", args: ["after-expiry"] }], "write");
      proxy.rule = () => "forward";
      assert.equal(pipelineStats.retried - retried, 2);
      assert.deepEqual(await names(db), ["after-restart", "after-expiry"]);

      // Cut mid-answer after sqld committed it: an error, nothing sent again, the rows there once.
      await db.execute("select 1");
      const from2 = proxy.log.length;
      proxy.rule = (l) => (l.types.includes("batch") ? "cut" : "forward");
      await assert.rejects(
        db.batch([{ sql: "insert into t (name) values (?)", args: ["cut"] }], "write"),
      );
      proxy.rule = () => "forward";
      assert.equal(pipelineStats.retried - retried, 2);
      assert.deepEqual(await names(db), ["after-restart", "after-expiry", "cut"], "ran once");
      const sent2 = statementsOf(proxy.log.slice(from2));
      assert.equal(sent2.length, 2, "the cut batch, then the next group");
      assert.equal(sent2[1].baton, null, "the next group on a fresh stream");
    }),
});

// ---- The loopback/compose transport (db/sqld.ts addressFetch) ----

/** A node:http server on loopback that counts the TCP connections it accepts. */
async function countingServer(handler: (req: http.IncomingMessage, res: http.ServerResponse) => void) {
  const server = http.createServer(handler);
  let connections = 0;
  server.on("connection", () => connections++);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    connections: () => connections,
    stop: () => {
      server.closeAllConnections();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

Deno.test({
  name: "addressFetch - requests one after another share one kept-alive connection, with the Host header",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const hosts = new Set<string>();
    const s = await countingServer((req, res) => {
      hosts.add(String(req.headers.host));
      let n = 0;
      req.on("data", (c: Uint8Array) => n += c.length);
      req.on("end", () => res.end(JSON.stringify({ got: n })));
    });
    try {
      const f = loopbackFetch;
      for (let i = 0; i < 20; i++) {
        const r = await f(`http://acme.localhost:${s.port}/v2/pipeline`, {
          method: "POST",
          body: "x".repeat(i),
        });
        assert.deepEqual(await r.json(), { got: i });
      }
      assert.equal(s.connections(), 1, "one TCP connection for 20 requests");
      assert.deepEqual([...hosts], [`acme.localhost:${s.port}`]);
    } finally {
      await s.stop();
    }
  },
});

Deno.test({
  name:
    "addressFetch - a body cancelled before, while or after it arrives throws nothing, and the next request answers",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    let release = () => {};
    let slowClosed: Promise<void> | undefined;
    const s = await countingServer((req, res) => {
      if (req.url === "/slow") {
        slowClosed = new Promise((r) => res.socket!.on("close", () => r()));
        res.write("first part ");
        release = () => res.end("second part");
      } else res.end("a short body");
    });
    try {
      // Cancelled before its end arrives: the end that follows must not close the cancelled stream (it threw,
      // uncaught, and Deno's test runner fails a test on an uncaught error).
      const a = await loopbackFetch(`http://x.localhost:${s.port}/`);
      await a.body!.cancel();
      // Cancelled after it all arrived, unread.
      const b = await loopbackFetch(`http://x.localhost:${s.port}/`);
      const reader = b.body!.getReader();
      assert.equal(new TextDecoder().decode((await reader.read()).value), "a short body");
      await reader.cancel();
      // Cancelled mid-body, then the rest sent: the connection is closed, its late bytes ignored.
      const c = await loopbackFetch(`http://x.localhost:${s.port}/slow`);
      const rc = c.body!.getReader();
      assert.equal(new TextDecoder().decode((await rc.read()).value), "first part ");
      await rc.cancel();
      release();
      // Fully read: the next request still answers.
      for (let i = 0; i < 3; i++) {
        const d = await loopbackFetch(`http://x.localhost:${s.port}/`);
        assert.equal(await d.text(), "a short body");
      }
      // The cancelled mid-body response's connection is closed by the client.
      await slowClosed;
    } finally {
      await s.stop();
    }
  },
});
