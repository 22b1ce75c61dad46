import assert from "node:assert/strict";
import { eq, sql } from "drizzle-orm";
import { type TestEnv, withEnv } from "../../../scripts/testing/harness.ts";
import { makeInspection, makeJob } from "../../../db/factories.ts";
import { inspections } from "../../../db/schema/mod.ts";

const serialsOf = async (env: TestEnv, token: string, query: string) =>
  ((await env.json(`/api/pt/inspections?rowsPerPage=-1&${query}`, { token })).results as {
    serial_number: string;
  }[])
    .map((r) => r.serial_number).sort();

/** FTS5's own check that the trigram index holds exactly what inspections hold. */
const indexInStep = (env: TestEnv) =>
  env.tenant.client.execute(
    "INSERT INTO inspections_fts(inspections_fts, rank) VALUES ('integrity-check', 1)",
  );

Deno.test("inspection search - 3+ characters go through the trigram index with LIKE's results exactly", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const job = await makeJob(env.tenant.db);
    for (
      const [serial_number, batch] of [
        ["PV2-104233", "B24001-1"],
        ["pv2-204233", "b24001-2"],
        ['SJ3 "QUOTED" 9', "50%_lot"],
        ["HU2-500", "500-lot"],
        ["Ünïcode-42", ""],
      ]
    ) await makeInspection(env.tenant.db, { job_id: job.id, serial_number, batch });
    const q = (query: string) => serialsOf(env, token, query);

    assert.deepEqual(
      await q("search_serial_number=04233"),
      ["PV2-104233", "pv2-204233"],
      "any case, mid-string",
    );
    assert.deepEqual(await q("search_serial_number=PV2-1"), ["PV2-104233"]);
    assert.deepEqual(await q("search_serial_number=%22QUOTED%22"), ['SJ3 "QUOTED" 9'], "quotes are literal");
    assert.deepEqual(await q("search_serial_number=ted%22 9"), ['SJ3 "QUOTED" 9'], "spaces too");
    assert.deepEqual(await q("search_batch=50%25_"), ['SJ3 "QUOTED" 9'], "wildcards are literal");
    assert.deepEqual(await q("search_batch=24001"), ["PV2-104233", "pv2-204233"]);
    assert.deepEqual(
      await q("search_batch=24001&search_serial_number=104"),
      ["PV2-104233"],
      "both terms apply",
    );
    assert.deepEqual(await q("search_serial_number=e-4"), ["Ünïcode-42"]);
    assert.deepEqual(await q("search_serial_number=NOPE"), []);
    // Shorter terms: the trigram index cannot read them, LIKE does.
    assert.deepEqual(await q("search_serial_number=-5"), ["HU2-500"]);
    assert.deepEqual(await q("search_batch=b2"), ["PV2-104233", "pv2-204233"]);
    await indexInStep(env);
  }));

Deno.test("inspection search - edits, batch overrides and deletes keep the index in step", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const job = await makeJob(env.tenant.db);
    const a = await makeInspection(env.tenant.db, {
      job_id: job.id,
      serial_number: "ALPHA-1",
      batch: "OLD-BATCH",
    });
    const b = await makeInspection(env.tenant.db, {
      job_id: job.id,
      serial_number: "BRAVO-2",
      batch: "OLD-BATCH",
    });
    const q = (query: string) => serialsOf(env, token, query);

    await env.json("/api/pt/inspections", {
      token,
      method: "PATCH",
      json: { id: a.id, job_id: job.id, date: job.date, serial_number: "CHARLIE-3" },
    });
    assert.deepEqual(await q("search_serial_number=ALPHA"), []);
    assert.deepEqual(await q("search_serial_number=CHARLIE"), ["CHARLIE-3"]);

    await env.json("/api/pt/inspections/batch", {
      token,
      method: "POST",
      json: { job_id: job.id, date: job.date, serial_numbers: ["BRAVO-2", "DELTA-4"], batch: "NEW-BATCH" },
    });
    assert.deepEqual(await q("search_batch=NEW-BA"), ["BRAVO-2", "DELTA-4"]);
    assert.deepEqual(await q("search_batch=OLD-BA"), ["CHARLIE-3"]);

    await env.json(`/api/pt/inspections/${b.id}`, { token, method: "DELETE" });
    assert.deepEqual(await q("search_batch=NEW-BA"), ["DELTA-4"]);
    // A whole job's inspections go with it (ON DELETE CASCADE fires the delete trigger too).
    await env.tenant.db.delete(inspections).where(eq(inspections.job_id, job.id));
    assert.deepEqual(await q("search_serial_number=-"), []);
    await indexInStep(env);
    const rows = await env.tenant.db.all<{ n: number }>(sql`select count(*) as n from inspections_fts`);
    assert.equal(rows[0].n, 0);
  }));
