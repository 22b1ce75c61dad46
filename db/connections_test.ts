import assert from "node:assert/strict";
import { readdirSync, readlinkSync } from "node:fs";
import { FILE_CONNECTIONS, openClient } from "./client.ts";

/** Open descriptors of this process on `file` (Linux: /proc/self/fd). */
function openDescriptors(file: string): number {
  let n = 0;
  for (const fd of readdirSync("/proc/self/fd")) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`) === file) n++;
    } catch { /* closed meanwhile */ }
  }
  return n;
}

Deno.test("a local database's client keeps at most FILE_CONNECTIONS connections, however many calls wait", async () => {
  const dir = await Deno.makeTempDir();
  const file = `${dir}/t.db`;
  const client = await openClient(`file:${file}`);
  try {
    await client.execute("create table t (x integer)");
    await client.execute("insert into t values (1), (2), (3)");
    // a transaction holds its connection across awaits; the reads meanwhile must share the rest
    const tx = await client.transaction("read");
    const reads = await Promise.all(
      Array.from({ length: 200 }, () => client.execute("select count(*) n from t")),
    );
    assert.ok(reads.every((r) => r.rows[0].n === 3));
    const open = openDescriptors(file);
    await tx.commit();
    assert.ok(open >= 1 && open <= FILE_CONNECTIONS, `${open} connections open on the file`);
  } finally {
    client.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("calls started together on a local database run one after the other on one connection, not one each", async () => {
  const dir = await Deno.makeTempDir();
  const file = `${dir}/t.db`;
  const client = await openClient(`file:${file}`);
  try {
    await client.execute("create table t (x integer)");
    // a list's page and its total, as the routes start them: each connection would hold its own schema and
    // page cache (decision 043, round 4)
    const [rows, total] = await Promise.all([
      client.execute("select x from t"),
      client.execute("select count(*) n from t"),
      client.execute("insert into t values (1)"),
    ]);
    assert.equal(rows.rows.length, 0, "the first call ran before the insert started after it");
    assert.equal(total.rows[0].n, 0);
    assert.equal(openDescriptors(file), 1, "one connection open on the file");
    // a failing call among them is answered as a rejection, and the connection goes back
    const answers = await Promise.allSettled([
      client.execute("select nope from t"),
      client.execute("select 1"),
    ]);
    assert.equal(answers[0].status, "rejected");
    assert.equal(answers[1].status, "fulfilled");
    assert.equal(openDescriptors(file), 1);
  } finally {
    client.close();
    await Deno.remove(dir, { recursive: true });
  }
});
