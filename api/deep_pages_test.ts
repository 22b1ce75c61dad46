import assert from "node:assert/strict";
import { withEnv } from "../scripts/testing/harness.ts";
import { inventory_audit } from "../db/schema/mod.ts";
import { deepReadStats, MAX_WAITING_PER_FILE, readIdsOffThread } from "../db/deep_reads.ts";
import { DEEP_OFFSET } from "./lib/db_helpers.ts";

const ROWS = DEEP_OFFSET + 345;
const PER_PAGE = 50;

Deno.test("deep pages - a page past DEEP_OFFSET rows is read on the deep-read worker, the same rows in the same order", () =>
  withEnv(async (env) => {
    const token = await env.login();
    // Serials in a scrambled order, some repeated: the sort has ties, broken by id.
    const rows = Array.from({ length: ROWS }, (_, i) => ({
      action: "Edit",
      serial_number: `SN-${String((i * 7919) % 5003).padStart(5, "0")}`,
      action_time: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
    }));
    for (let i = 0; i < rows.length; i += 500) {
      await env.tenant.db.insert(inventory_audit).values(rows.slice(i, i + 500));
    }
    const onFile = env.tenant.url.startsWith("file:");
    for (
      const order of ["", "&sortBy=serial_number&descending=false", "&sortBy=serial_number&descending=true"]
    ) {
      // Every row in the list's order: read by its own walk, never by pages.
      const all = (await env.json(`/api/sales/audit/inventory-rows?rowsPerPage=-1${order}`, { token }))
        .results
        .map((r: { id: number }) => r.id);
      assert.equal(all.length, ROWS);
      const lastPage = Math.ceil(ROWS / PER_PAGE);
      for (const page of [1, Math.floor(DEEP_OFFSET / PER_PAGE) + 1, lastPage - 1, lastPage]) {
        const before = deepReadStats.done;
        const body = await env.json(
          `/api/sales/audit/inventory-rows?rowsPerPage=${PER_PAGE}&page=${page}${order}`,
          { token },
        );
        const offset = (page - 1) * PER_PAGE;
        assert.deepEqual(
          body.results.map((r: { id: number }) => r.id),
          all.slice(offset, offset + PER_PAGE),
          `page ${page}${order}`,
        );
        assert.equal(body.total, ROWS);
        // On a local file a deep page's read is the worker's (a remote database walks it on its own server).
        assert.equal(
          deepReadStats.done - before,
          onFile && offset >= DEEP_OFFSET ? 1 : 0,
          `page ${page}${order}`,
        );
      }
    }
  }));

Deno.test("deep pages - the worker answers a read's first column, refuses a bad one, and a tenant's excess waits with 429", () =>
  withEnv(async (env) => {
    if (!env.tenant.url.startsWith("file:")) return; // the worker reads local files only
    const path = new URL(env.tenant.url).pathname;
    await env.tenant.db.insert(inventory_audit).values(
      Array.from({ length: 30 }, (_, i) => ({ action: "Edit", serial_number: `S${i}` })),
    );
    const ids = await readIdsOffThread(
      path,
      "select id from inventory_audit where serial_number like ? order by id desc limit ? offset ?",
      ["S%", 5, 10],
    );
    const expected = (await env.tenant.client.execute(
      "select id from inventory_audit where serial_number like 'S%' order by id desc limit 5 offset 10",
    )).rows.map((r) => Number(r.id));
    assert.deepEqual(ids, expected);

    await assert.rejects(readIdsOffThread(path, "select id from no_such_table", []), /no such table/);

    // One read running and MAX_WAITING_PER_FILE waiting for one file: the next of that file is refused.
    const slow = "with recursive n(i) as (select 1 union all select i + 1 from n where i < 3000000) " +
      "select max(i) from n";
    const running = Array.from({ length: MAX_WAITING_PER_FILE + 1 }, () => readIdsOffThread(path, slow, []));
    await assert.rejects(readIdsOffThread(path, slow, []), (e: { status?: number }) => e.status === 429);
    assert.deepEqual(await Promise.all(running), running.map(() => [3000000]));
  }));
