import assert from "node:assert/strict";
import { openClient } from "./client.ts";
import { statementCacheStats, STATEMENTS_PER_CONNECTION } from "./statement_cache.ts";

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
