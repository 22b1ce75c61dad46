import assert from "node:assert/strict";
import { inArray } from "drizzle-orm";
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { openClient, tenantDrizzle } from "./client.ts";
import { inJson, notInJson } from "./in_json.ts";
import { statementCacheStats } from "./statement_cache.ts";

const t = sqliteTable("t", {
  id: integer("id").primaryKey(),
  name: text("name").notNull(),
  flag: integer("flag", { mode: "boolean" }).notNull(),
});

const ids = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

Deno.test("inJson: a list of 1 and one of 3,000 ids make one statement text (inArray makes two)", () => {
  const db = tenantDrizzle({} as never);
  const text = (n: number) => db.select().from(t).where(inJson(t.id, ids(n))).toSQL();
  const one = text(1);
  const many = text(3000);
  assert.equal(one.sql, many.sql);
  assert.equal(many.params.length, 1, "the whole list is one parameter");
  assert.equal(one.sql, text(0).sql, "an empty list too");
  // What it replaces: a text per length.
  const drizzles = (n: number) => db.select().from(t).where(inArray(t.id, ids(n))).toSQL().sql;
  assert.notEqual(drizzles(1), drizzles(3000));
});

Deno.test("inJson: the rows of any list, through one prepared statement; values encoded as the column's", async () => {
  const dir = await Deno.makeTempDir();
  const client = await openClient(`file:${dir}/t.db`);
  try {
    await client.execute(
      "create table t (id integer primary key, name text not null, flag integer not null)",
    );
    await client.execute(`with recursive n(i) as (select 1 union all select i + 1 from n where i < 5000)
                          insert into t select i, 'Name ' || i, i % 2 from n`);
    const db = tenantDrizzle(client);
    const read = (list: number[]) => db.select({ id: t.id }).from(t).where(inJson(t.id, list)).orderBy(t.id);
    await read([1]);
    const before = statementCacheStats.prepared;
    for (const n of [0, 1, 2, 3000, 4999]) {
      const wanted = ids(n).map((i) => i * 2).filter((i) => i <= 5000);
      assert.deepEqual((await read(wanted)).map((r) => r.id), wanted);
    }
    assert.equal(statementCacheStats.prepared - before, 0, "no statement prepared again for another length");
    // Booleans through the column's encoding, strings, a collation on the left, and `not in`.
    assert.equal((await db.select({ id: t.id }).from(t).where(inJson(t.flag, [true]))).length, 2500);
    const names = await db.select({ id: t.id }).from(t).where(inJson(t.name, ["Name 7", "Name 9", "nope"]));
    assert.deepEqual(names.map((r) => r.id).sort(), [7, 9]);
    assert.equal((await db.select({ id: t.id }).from(t).where(notInJson(t.id, ids(4990)))).length, 10);
    const plan = await client.execute({
      sql: "explain query plan select id from t where id in (select value from json_each(?))",
      args: ["[1,2]"],
    });
    assert.ok(
      plan.rows.some((r) => /SEARCH t USING INTEGER PRIMARY KEY/.test(String(r.detail))),
      "by its key",
    );
  } finally {
    client.close();
    await Deno.remove(dir, { recursive: true });
  }
});

/**
 * Every `inArray(` left in the server's code, by file: each takes a subquery or a list of fixed length (one
 * statement text). A list that grows with the data goes through `inJson` (decision 043).
 */
const INARRAY_ALLOWED: Record<string, number> = {
  "api/sales/lines/list.ts": 1, // a subquery of tickets
  "api/sales/lines/transfer.ts": 1, // [source, target]
  "api/sales/audit/service.ts": 1, // a subquery (the page's walk)
  "api/sales/categories/locations.ts": 4, // a subquery of unit rows
  "api/sales/templates/service.ts": 1, // TEMPLATE_TYPES
  "api/sales/inventory/service/batch_plan.ts": 1, // two category models
  "api/sales/inventory/service/list_locations.ts": 1, // a subquery of base ids
  "api/sales/tickets/service/list_tickets.ts": 3, // [flow, "APP"]; subqueries of customers and reps
  "api/sales/availability/service.ts": 1, // a subquery of held categories
  "api/pt/inspections/service/list_inspections.ts": 2, // subqueries of companies and jobs
};

Deno.test("inJson: the server's code builds no list of variable length with inArray", async () => {
  const found: Record<string, number> = {};
  const walk = async (dir: string) => {
    for await (const e of Deno.readDir(dir)) {
      const path = `${dir}/${e.name}`;
      if (e.isDirectory) await walk(path);
      else if (e.name.endsWith(".ts") && !e.name.endsWith("_test.ts")) {
        const n = (await Deno.readTextFile(path)).match(/\binArray\(/g)?.length ?? 0;
        if (n) found[path.slice(path.indexOf("api/"))] = n;
      }
    }
  };
  await walk(new URL("../api", import.meta.url).pathname);
  assert.deepEqual(found, INARRAY_ALLOWED, "a new inArray: use inJson for a list that grows with the data");
});
