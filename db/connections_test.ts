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
