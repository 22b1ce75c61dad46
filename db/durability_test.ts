import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import type { Client } from "@libsql/client";
import { openClient } from "./client.ts";
import { WalHandle, walSync } from "./sqlite_client.ts";
import { checkpointsIdle, checkpointStats, requestCheckpoint } from "./checkpointer.ts";
import { until as waitUntil } from "../scripts/testing/until.ts";

/**
 * Decision 030: with `syncOffThread` a commit does not fsync on the thread; each call that wrote is answered only
 * after an fdatasync of the WAL that began after its commit, and checkpoints run on a worker.
 */

/** The server's kind of client (`syncOffThread`) on a new file with a table `t`; closed and removed after. */
async function withServerClient(fn: (c: Client, path: string) => Promise<void>) {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/t.db`;
  const c = await openClient(`file:${path}`, null, { syncOffThread: true });
  try {
    await c.execute("create table t (id integer primary key, v text unique)");
    await fn(c, path);
  } finally {
    c.close();
    await Deno.remove(dir, { recursive: true });
  }
}

/** walSync held by the test: each sync waits until released; `calls` counts them. */
function holdSyncs() {
  const real = walSync.syncData;
  const held: { path: string; release: () => void; fail: (e: Error) => void }[] = [];
  let calls = 0;
  walSync.syncData = (path) => {
    calls++;
    return new Promise<void>((resolve, reject) => {
      held.push({ path, release: () => real(path).then(resolve, reject), fail: reject });
    });
  };
  return {
    held,
    get calls() {
      return calls;
    },
    restore: () => (walSync.syncData = real),
  };
}

/** Waits (timer turns, so I/O and the sync's work run) until `cond` holds; fails after 5 s. */
const until = (cond: () => boolean, what: string) => waitUntil(cond, what, 5000);

/** A few timer turns: anything that waited only for the thread (not for a held sync) has answered by then. */
const turns = async () => {
  for (let i = 0; i < 4; i++) await new Promise((r) => setTimeout(r, 0));
};

function tracked<T>(p: Promise<T>) {
  const state = { done: false, value: undefined as T | undefined, error: undefined as unknown };
  p.then((v) => {
    state.done = true;
    state.value = v;
  }, (e) => {
    state.done = true;
    state.error = e;
  });
  return state;
}

Deno.test("durability off the thread: connections commit without fsync and keep a large checkpoint backstop", () =>
  withServerClient(async (c, path) => {
    const tool = await openClient(`file:${path}`);
    try {
      assert.equal((await c.execute("select * from pragma_synchronous")).rows[0][0], 1, "NORMAL");
      assert.equal(
        (await c.execute("pragma wal_autocheckpoint")).rows[0][0],
        20000,
        "checkpoints are the worker's",
      );
      assert.equal((await c.execute("pragma journal_mode")).rows[0][0], "wal");
      assert.equal(
        (await tool.execute("select * from pragma_synchronous")).rows[0][0],
        2,
        "a tool keeps FULL",
      );
    } finally {
      tool.close();
    }
  }));

Deno.test("durability off the thread: a write answers after the WAL's sync, and the thread serves reads meanwhile", () =>
  withServerClient(async (c, path) => {
    const syncs = holdSyncs();
    try {
      const insert = tracked(c.execute("insert into t (v) values ('a')"));
      await until(() => syncs.held.length > 0, "the WAL's sync");
      await turns();
      assert.equal(insert.done, false, "not answered before the sync");
      assert.equal(syncs.held.length, 1);
      assert.equal(syncs.held[0].path, `${path}-wal`);
      // The thread is free: a read answers at once (it sees the commit) and asks for no sync.
      const rs = await c.execute("select count(*) as n from t");
      assert.equal(rs.rows[0].n, 1);
      assert.equal(syncs.calls, 1, "a read waits for no sync");
      syncs.held[0].release();
      await until(() => insert.done, "the insert's answer");
      assert.equal(insert.error, undefined);
      assert.equal(insert.value!.rowsAffected, 1);
    } finally {
      syncs.restore();
    }
  }));

Deno.test("durability off the thread: commits made while a sync runs share the next one; each waits for a sync begun after it", () =>
  withServerClient(async (c) => {
    const syncs = holdSyncs();
    try {
      const first = tracked(c.execute("insert into t (v) values ('first')"));
      await until(() => syncs.held.length > 0, "the first sync");
      // Ten more commit while the first sync runs: none may ride on it (it began before they committed).
      const more = Array.from(
        { length: 10 },
        (_, i) => tracked(c.execute(`insert into t (v) values ('${i}')`)),
      );
      const tx = await c.transaction("write");
      await tx.execute("insert into t (v) values ('tx')");
      const txCommit = tracked(tx.commit());
      await turns();
      assert.equal(syncs.held.length, 1, "the others wait for the next sync, which starts after the first");
      syncs.held[0].release();
      await until(() => first.done && syncs.held.length > 1, "the first answer and the next sync");
      await turns();
      assert.ok(more.every((m) => !m.done) && !txCommit.done, "the later commits still wait");
      assert.equal(syncs.held.length, 2, "one sync for all eleven");
      syncs.held[1].release();
      await until(() => more.every((m) => m.done) && txCommit.done, "the eleven answers");
      assert.ok(more.every((m) => m.done && !m.error) && txCommit.done && !txCommit.error);
      assert.equal(syncs.calls, 2);
      assert.equal((await c.execute("select count(*) as n from t")).rows[0].n, 12);
    } finally {
      syncs.restore();
    }
  }));

Deno.test("durability off the thread: what writes nothing waits for nothing (reads, rollbacks, failed statements, read batches)", () =>
  withServerClient(async (c) => {
    await c.execute("insert into t (v) values ('a')");
    const syncs = holdSyncs();
    try {
      await c.execute("select * from t");
      await c.execute({ sql: "select v from t where id = ?", args: [1] });
      await assert.rejects(c.execute("insert into t (v) values ('a')"), /UNIQUE/);
      const tx = await c.transaction("write");
      await tx.execute("insert into t (v) values ('b')");
      await tx.rollback();
      await c.batch(["select 1", "select 2"], "read");
      assert.equal(syncs.calls, 0);
      // A write that returns rows (RETURNING) does wait.
      const ret = tracked(c.execute("insert into t (v) values ('c') returning id"));
      await until(() => syncs.held.length > 0, "its sync");
      await turns();
      assert.equal(ret.done, false);
      syncs.held[0].release();
      await until(() => ret.done, "its answer");
    } finally {
      syncs.restore();
    }
  }));

Deno.test("durability off the thread: a write whose sync fails is answered with the error, never acknowledged", () =>
  withServerClient(async (c, path) => {
    const real = walSync.syncData;
    walSync.syncData = () => Promise.reject(new Error("Input/output error (os error 5)"));
    try {
      await assert.rejects(c.execute("insert into t (v) values ('a')"), /Input\/output error/);
      const tx = await c.transaction("write");
      await tx.execute("insert into t (v) values ('b')");
      await assert.rejects(tx.commit(), /Input\/output error/);
    } finally {
      walSync.syncData = real;
    }
    // The real sync: a file's data, and a missing file has nothing to sync.
    await c.execute("insert into t (v) values ('c')");
    await walSync.syncData(`${path}-wal`);
    await walSync.syncData(`${path}.missing`);
  }));

Deno.test("durability off the thread: the kept WAL handle follows the path, never a WAL that was replaced", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/t.db-wal`;
  const handle = new WalHandle();
  try {
    assert.equal(await handle.current(path), null, "no WAL yet: nothing to sync");
    await Deno.writeTextFile(path, "first");
    const first = await handle.current(path);
    assert.ok(first);
    assert.equal(await handle.current(path), first, "the same file: the handle is kept");
    // Truncated in place (a TRUNCATE checkpoint): still the same file.
    await Deno.truncate(path, 0);
    assert.equal(await handle.current(path), first);
    // Deleted and made anew: the new file is opened, the old one closed.
    await Deno.remove(path);
    await Deno.writeTextFile(path, "second");
    const second = await handle.current(path);
    assert.ok(second && second !== first);
    assert.equal(second.statSync().ino, Deno.statSync(path).ino);
    assert.throws(() => first.statSync(), Deno.errors.BadResource, "the replaced file's handle is closed");
    await walSync.syncData(path, handle);
    assert.equal(await handle.current(path), second);
    // Deleted: nothing to sync, and nothing held open.
    await Deno.remove(path);
    await walSync.syncData(path, handle);
    assert.throws(() => second.statSync(), Deno.errors.BadResource);
    // Retired (the database closed): a sync still opens and syncs the file, but keeps nothing open.
    await Deno.writeTextFile(path, "third");
    const third = await handle.current(path);
    handle.retire();
    assert.throws(() => third!.statSync(), Deno.errors.BadResource);
    await walSync.syncData(path, handle);
    assert.equal(handle.kept, false);
  } finally {
    handle.retire();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("durability off the thread: the worker checkpoints the WAL into the database file", () =>
  withServerClient(async (c, path) => {
    await c.batch(
      Array.from(
        { length: 200 },
        (_, i) => ({ sql: "insert into t (v) values (?)", args: ["x".repeat(500) + i] }),
      ),
      "write",
    );
    const before = checkpointStats.done;
    requestCheckpoint(path);
    await checkpointsIdle();
    assert.equal(checkpointStats.done, before + 1);
    // The database file alone, without its WAL, now holds the rows.
    const copy = `${path}.copy`;
    await Deno.copyFile(path, copy);
    const alone = new DatabaseSync(copy, { readOnly: true });
    try {
      assert.equal((alone.prepare("select count(*) as n from t").get() as { n: number }).n, 200);
    } finally {
      alone.close();
    }
    // A file that no longer exists is not created again (a restore removed it meanwhile).
    requestCheckpoint(`${path}.gone`);
    await checkpointsIdle();
    assert.equal(await Deno.stat(`${path}.gone`).then(() => true, () => false), false);
  }));
