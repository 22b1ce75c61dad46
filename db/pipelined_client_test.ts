import assert from "node:assert/strict";
import type { Client } from "@libsql/client";
import { openClient, remoteStats } from "./client.ts";
import { pipelineStats } from "./pipelined_client.ts";
import { type Sqld, sqldAvailable, startSqldDatabase } from "../scripts/testing/sqld.ts";

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
