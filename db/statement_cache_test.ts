import assert from "node:assert/strict";
import { openClient } from "./client.ts";
import {
  DROPPED_BYTES_PER_CONNECTION,
  STATEMENT_BYTES_PER_CHAR,
  STATEMENT_BYTES_PER_CONNECTION,
  statementBytes,
  statementCacheStats,
  STATEMENTS_PER_CONNECTION,
} from "./statement_cache.ts";
import { mallocInfo } from "../api/lib/malloc_trim.ts";

Deno.test("statement cache: a statement is prepared once per connection and answers right with other arguments", async () => {
  const dir = await Deno.makeTempDir();
  const client = await openClient(`file:${dir}/t.db`);
  try {
    await client.execute("create table t (id integer primary key, name text not null unique)");
    const before = { ...statementCacheStats };
    for (let i = 1; i <= 50; i++) {
      await client.execute({ sql: "insert into t (id, name) values (?, ?)", args: [i, `n${i}`] });
    }
    // a failed run (unique) leaves the statement usable
    await assert.rejects(client.execute({ sql: "insert into t (id, name) values (?, ?)", args: [99, "n1"] }));
    await client.execute({ sql: "insert into t (id, name) values (?, ?)", args: [51, "n51"] });
    for (const n of [3, 40, 51]) {
      const rs = await client.execute({ sql: "select id, name from t where id = ?", args: [n] });
      assert.deepEqual([rs.columns, rs.rows.map((r) => [r.id, r.name])], [["id", "name"], [[n, `n${n}`]]]);
    }
    const rs = await client.execute({ sql: "select count(*) as n from t where id > ?", args: [10] });
    assert.equal(rs.rows[0].n, 41);
    assert.equal(statementCacheStats.prepared - before.prepared, 3, "three distinct statements");
    assert.ok(statementCacheStats.reused - before.reused >= 52);
    // bounded: many distinct texts never keep more than the limit (the oldest go first, still correct)
    for (let i = 0; i < STATEMENTS_PER_CONNECTION + 20; i++) {
      const r = await client.execute(`select ${i} as v`);
      assert.equal(r.rows[0].v, i);
    }
    assert.equal(
      (await client.execute({ sql: "select name from t where id = ?", args: [7] })).rows[0].name,
      "n7",
    );
  } finally {
    client.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("statement cache: bounded by bytes; a connection whose dropped statements hold too much is replaced", async () => {
  const dir = await Deno.makeTempDir();
  // One connection, so every statement below is prepared on it.
  const client = await openClient(`file:${dir}/t.db`);
  try {
    await client.execute("create table t (id integer primary key, v text)");
    await client.execute("insert into t values (1, 'a'), (2, 'b')");
    // Statements of about 100 KB of SQLite's heap each (a list of 1,200 placeholders): as the app's `in` lists
    // made before decision 043.
    const list = (n: number) => ({
      sql: `select id from t where id in (${Array(1200).fill("?").join(",")}) and ${n} = ${n}`,
      args: Array.from({ length: 1200 }, (_, i) => i),
    });
    const bytes = statementBytes(list(0).sql);
    const fit = Math.floor(STATEMENT_BYTES_PER_CONNECTION / bytes);
    assert.ok(fit < STATEMENTS_PER_CONNECTION, "the byte bound, not the count, is what these meet");
    const before = { ...statementCacheStats };
    const heapBefore = mallocInfo()?.inUse;
    // Enough to fill the cache and pass the dropped bound more than twice.
    const n = Math.ceil(((STATEMENT_BYTES_PER_CONNECTION + DROPPED_BYTES_PER_CONNECTION) * 2.5) / bytes);
    for (let i = 0; i < n; i++) {
      assert.equal((await client.execute(list(i))).rows.length, 2);
      assert.ok(
        statementCacheStats.cachedBytes - before.cachedBytes <= STATEMENT_BYTES_PER_CONNECTION,
        `kept ${statementCacheStats.cachedBytes - before.cachedBytes} bytes after ${i + 1} statements`,
      );
    }
    assert.ok(statementCacheStats.evictedForBytes > before.evictedForBytes, "dropped for bytes");
    assert.ok(
      statementCacheStats.recycled - before.recycled >= 2,
      "the connection was replaced to free them",
    );
    // The real memory: without the replacement the dropped statements stay in SQLite's heap until V8 collects
    // their wrappers: about 100 MB of them here. The C heap is the process's: under `deno test --parallel`
    // other test files allocate in it meanwhile, so the run is repeated (up to 3 times) while it seems over.
    if (heapBefore !== undefined) {
      const bound = STATEMENT_BYTES_PER_CONNECTION + DROPPED_BYTES_PER_CONNECTION;
      let grown = mallocInfo()!.inUse - heapBefore;
      for (let again = 0; again < 2 && grown >= bound; again++) {
        const start = mallocInfo()!.inUse;
        for (let i = 0; i < n; i++) await client.execute(list(n + i));
        grown = mallocInfo()!.inUse - start;
      }
      assert.ok(grown < bound, `C heap grew ${(grown / 2 ** 20).toFixed(1)} MB`);
    }
    // Still answers, on a fresh connection.
    assert.equal((await client.execute({ sql: "select v from t where id = ?", args: [2] })).rows[0].v, "b");
    assert.ok(STATEMENT_BYTES_PER_CHAR > 0);
  } finally {
    client.close();
    await Deno.remove(dir, { recursive: true });
  }
});
