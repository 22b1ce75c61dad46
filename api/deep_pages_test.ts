import assert from "node:assert/strict";
import { withEnv } from "../scripts/testing/harness.ts";
import { inspections, inventory_audit } from "../db/schema/mod.ts";
import { makeJob, makePart } from "../db/factories.ts";
import { deepReadStats, MAX_WAITING_PER_FILE, readIdsOffThread } from "../db/deep_reads.ts";
import { DEEP_OFFSET } from "./lib/db_helpers.ts";

const ROWS = DEEP_OFFSET.joined + 345;
const PER_PAGE = 50;

Deno.test("deep pages - a page past DEEP_OFFSET rows of a joined walk is read on the deep-read worker, the same rows in the same order", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const db = env.tenant.db;
    const job = await makeJob(db);
    // Parts named out of their ids' order, one name shared by two parts, and some inspections without a part:
    // the order by part is the parts' names, then the part, then the inspection (the nulls a walk of their own).
    const partIds: number[] = [];
    for (let i = 0; i < 12; i++) {
      partIds.push((await makePart(db, { name: `Part ${String((i * 5) % 11).padStart(2, "0")}` })).id);
    }
    const rows = Array.from({ length: ROWS }, (_, i) => ({
      job_id: job.id,
      inspection_company_id: job.inspection_company_id,
      customer_company_id: job.customer_company_id,
      operator_company_id: job.operator_company_id,
      date: job.date,
      serial_number: `SN-${i}`,
      part_id: i % 20 === 0 ? null : partIds[(i * 7) % partIds.length],
    }));
    for (let i = 0; i < rows.length; i += 500) await db.insert(inspections).values(rows.slice(i, i + 500));
    const onFile = env.tenant.url.startsWith("file:");
    for (const descending of ["false", "true"]) {
      const order = `&sortBy=part_name&descending=${descending}`;
      // Every row in the list's order: read by its own walk, never by pages.
      const all = (await env.json(`/api/pt/inspections?rowsPerPage=-1${order}`, { token })).results
        .map((r: { id: number }) => r.id);
      assert.equal(all.length, ROWS);
      const lastPage = Math.ceil(ROWS / PER_PAGE);
      for (const page of [1, Math.floor(DEEP_OFFSET.joined / PER_PAGE) + 1, lastPage - 1, lastPage]) {
        const before = deepReadStats.done;
        const body = await env.json(`/api/pt/inspections?rowsPerPage=${PER_PAGE}&page=${page}${order}`, {
          token,
        });
        const offset = (page - 1) * PER_PAGE;
        assert.deepEqual(
          body.results.map((r: { id: number }) => r.id),
          all.slice(offset, offset + PER_PAGE),
          `page ${page}${order}`,
        );
        assert.equal(body.total, ROWS);
        // On a local file a deep page's read is the worker's (a remote database walks it on its own server).
        assert.ok(
          onFile && offset >= DEEP_OFFSET.joined
            ? deepReadStats.done > before
            : deepReadStats.done === before,
          `page ${page}${order}: ${deepReadStats.done - before} deep reads`,
        );
      }
    }
    // The default order is one index: its deep page stays on the thread until DEEP_OFFSET.indexed.
    const before = deepReadStats.done;
    await env.json(`/api/pt/inspections?rowsPerPage=${PER_PAGE}&page=${Math.ceil(ROWS / PER_PAGE)}`, {
      token,
    });
    assert.equal(deepReadStats.done, before);
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
