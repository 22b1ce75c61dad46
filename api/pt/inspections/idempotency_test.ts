import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { eq, sql } from "drizzle-orm";
import { type TestEnv, withEnv } from "../../../scripts/testing/harness.ts";
import { makeJob } from "../../../db/factories.ts";
import { idempotency_keys, inspections } from "../../../db/schema/mod.ts";
import { IDEMPOTENCY_KEY_MESSAGE, IDEMPOTENCY_REUSED, IDEMPOTENCY_TTL_MS } from "../../lib/idempotency.ts";

const PDF = new TextEncoder().encode(
  `%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n` +
    `3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n`,
);
const pdfUrl = `data:application/pdf;base64,${Buffer.from(PDF).toString("base64")}`;

async function inspector(env: TestEnv) {
  return (await env.userWithToken({ permissions: ["inspector"], company_id: 1 })).token;
}

const send = (env: TestEnv, token: string, path: string, json: unknown, key?: string) =>
  env.request(path, {
    token,
    method: "POST",
    json,
    headers: key === undefined ? {} : { "idempotency-key": key },
  });

const rowsOf = (env: TestEnv, jobId: number) =>
  env.tenant.db.select().from(inspections).where(eq(inspections.job_id, jobId)).all();

Deno.test("idempotency - a retried inspection with the same key answers the first answer and creates one row", () =>
  withEnv(async (env) => {
    const token = await inspector(env);
    const job = await makeJob(env.tenant.db);
    const body = { job_id: job.id, date: "2024-06-01", serial_number: "SN-1", ut_1: "0.5" };
    const first = await send(env, token, "/api/pt/inspections", body, "rec-1");
    const again = await send(env, token, "/api/pt/inspections", body, "rec-1");
    assert.equal(first.status, 200);
    assert.equal(again.status, 200);
    const [a, b] = [await first.json(), await again.json()];
    assert.deepEqual(b, a);
    assert.equal(a.serial_number, "SN-1");
    assert.equal((await rowsOf(env, job.id)).length, 1);
    // Another key is another record.
    await send(env, token, "/api/pt/inspections", body, "rec-2");
    assert.equal((await rowsOf(env, job.id)).length, 2);
  }));

Deno.test("idempotency - two identical requests at once create one record, both answered alike", () =>
  withEnv(async (env) => {
    const token = await inspector(env);
    const job = await makeJob(env.tenant.db);
    const one = { job_id: job.id, date: "2024-06-01", serial_number: "SN-9" };
    const batch = { job_id: job.id, date: "2024-06-01", serial_numbers: ["B-1", "B-2"] };
    const answers = await Promise.all([
      ...Array.from({ length: 5 }, () => send(env, token, "/api/pt/inspections", one, "same-one")),
      ...Array.from({ length: 5 }, () => send(env, token, "/api/pt/inspections/batch", batch, "same-batch")),
    ]);
    assert.deepEqual(answers.map((r) => r.status), Array(10).fill(200));
    const bodies = await Promise.all(answers.map((r) => r.json()));
    assert.equal(new Set(bodies.slice(0, 5).map((b) => JSON.stringify(b))).size, 1);
    assert.deepEqual(
      new Set(bodies.slice(5).map((b) => b.message)),
      new Set(["2 inspections created, 0 updated"]),
    );
    assert.deepEqual((await rowsOf(env, job.id)).map((r) => r.serial_number).sort(), ["B-1", "B-2", "SN-9"]);
  }));

Deno.test("idempotency - the same key with a different request is refused with 409 and changes nothing", () =>
  withEnv(async (env) => {
    const token = await inspector(env);
    const job = await makeJob(env.tenant.db);
    await send(
      env,
      token,
      "/api/pt/inspections",
      { job_id: job.id, date: "2024-06-01", serial_number: "A" },
      "k",
    );
    const other = await send(env, token, "/api/pt/inspections", {
      job_id: job.id,
      date: "2024-06-01",
      serial_number: "B",
    }, "k");
    assert.equal(other.status, 409);
    assert.equal((await other.json()).detail, IDEMPOTENCY_REUSED);
    // The key on the other create route is another request too.
    const batch = await send(env, token, "/api/pt/inspections/batch", {
      job_id: job.id,
      date: "2024-06-01",
      serial_numbers: ["A"],
    }, "k");
    assert.equal(batch.status, 409);
    assert.deepEqual((await rowsOf(env, job.id)).map((r) => r.serial_number), ["A"]);
  }));

Deno.test("idempotency - keys are per user: another user's same key is their own request", () =>
  withEnv(async (env) => {
    const job = await makeJob(env.tenant.db);
    const body = { job_id: job.id, date: "2024-06-01", serial_number: "A" };
    await send(env, await inspector(env), "/api/pt/inspections", body, "shared");
    const admin = await env.login();
    assert.equal((await send(env, admin, "/api/pt/inspections", body, "shared")).status, 200);
    assert.equal((await rowsOf(env, job.id)).length, 2);
  }));

Deno.test("idempotency - a batch with its PDF retried with the same key stores nothing new", () =>
  withEnv(async (env) => {
    const token = await inspector(env);
    const job = await makeJob(env.tenant.db);
    const body = {
      job_id: job.id,
      date: "2024-06-01",
      serial_numbers: ["P-1", "P-2", "P-3"],
      batch: "B-7",
      imageFiles: { pressure_test: { name: "test.pdf", url: pdfUrl } },
    };
    const first = await send(env, token, "/api/pt/inspections/batch", body, "batch-1");
    const again = await send(env, token, "/api/pt/inspections/batch", body, "batch-1");
    assert.deepEqual(await again.json(), await first.json());
    const rows = await rowsOf(env, job.id);
    assert.equal(rows.length, 3);
    assert.ok(rows.every((r) => r.pressure_test_file_id !== null));
    // Without the key the same batch is applied again: its serials exist, so they are updated.
    const plain = await send(env, token, "/api/pt/inspections/batch", body);
    assert.equal((await plain.json()).message, "0 inspections created, 3 updated");
  }));

Deno.test("idempotency - a refused request leaves no key: fixed and sent again with it, it is applied", () =>
  withEnv(async (env) => {
    const token = await inspector(env);
    const job = await makeJob(env.tenant.db);
    const bad = await send(env, token, "/api/pt/inspections", { job_id: job.id, date: "June" }, "fix-me");
    assert.equal(bad.status, 422);
    const missing = await send(
      env,
      token,
      "/api/pt/inspections",
      { job_id: 999999, date: "2024-06-01" },
      "fix-me",
    );
    assert.equal(missing.status, 404);
    const fixed = await send(
      env,
      token,
      "/api/pt/inspections",
      { job_id: job.id, date: "2024-06-01" },
      "fix-me",
    );
    assert.equal(fixed.status, 200);
    assert.equal((await rowsOf(env, job.id)).length, 1);
  }));

Deno.test("idempotency - a key must be 1 to 100 printable characters (422 with a sentence)", () =>
  withEnv(async (env) => {
    const token = await inspector(env);
    const job = await makeJob(env.tenant.db);
    const body = { job_id: job.id, date: "2024-06-01" };
    for (const key of ["", "x".repeat(101), "has space", "caf\u00e9"]) {
      for (const path of ["/api/pt/inspections", "/api/pt/inspections/batch"]) {
        const res = await send(env, token, path, { ...body, serial_numbers: ["S"] }, key);
        assert.equal(res.status, 422, `${path} ${JSON.stringify(key)}`);
        assert.equal((await res.json()).errors[0].message, IDEMPOTENCY_KEY_MESSAGE);
      }
    }
    assert.equal((await send(env, token, "/api/pt/inspections", body, "x".repeat(100))).status, 200);
    assert.equal((await rowsOf(env, job.id)).length, 1);
  }));

Deno.test("idempotency - keys older than a week are forgotten and deleted by later keyed writes", () =>
  withEnv(async (env) => {
    const token = await inspector(env);
    const job = await makeJob(env.tenant.db);
    const body = { job_id: job.id, date: "2024-06-01", serial_number: "OLD" };
    await send(env, token, "/api/pt/inspections", body, "old-key");
    await send(env, token, "/api/pt/inspections", body, "recent-key");
    const weekAgo = Date.now() - IDEMPOTENCY_TTL_MS - 1000;
    await env.tenant.db.update(idempotency_keys).set({ created_at: weekAgo })
      .where(eq(idempotency_keys.key, "old-key"));
    // A week later the old key is a new request...
    assert.equal((await send(env, token, "/api/pt/inspections", body, "old-key")).status, 200);
    assert.equal((await rowsOf(env, job.id)).length, 3);
    // ...and its expired row was replaced; a recent key still replays.
    const keys = await env.tenant.db.select({ key: idempotency_keys.key, at: idempotency_keys.created_at })
      .from(idempotency_keys).all();
    assert.ok(keys.every((k) => k.at > weekAgo));
    await send(env, token, "/api/pt/inspections", body, "recent-key");
    assert.equal((await rowsOf(env, job.id)).length, 3);
    // Expired rows of other keys go as keyed writes arrive.
    await env.tenant.db.update(idempotency_keys).set({ created_at: weekAgo });
    await send(env, token, "/api/pt/inspections", body, "new-key");
    const [{ n }] = await env.tenant.db.all<{ n: number }>(sql`select count(*) n from idempotency_keys`);
    assert.equal(n, 1);
  }));
