import assert from "node:assert/strict";
import { withEnv } from "../../../scripts/testing/harness.ts";
import { makeJob } from "../../../db/factories.ts";

Deno.test("inspections list - the total is counted once and is exact again right after a save or delete", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const job = await makeJob(env.tenant.db, {});
    const total = async () =>
      (await env.json(`/api/pt/inspections?job_id=${job.id}&rowsPerPage=5`, { token })).total;
    const save = (serial: string) =>
      env.json("/api/pt/inspections", {
        method: "POST",
        token,
        json: { job_id: job.id, date: "2026-02-01", serial_number: serial },
      });
    assert.equal(await total(), 0);
    const a = await save("T-1");
    assert.equal(await total(), 1);
    await save("T-2");
    assert.equal(await total(), 2);
    assert.equal(await total(), 2);
    await env.json(`/api/pt/inspections/${a.id}`, { method: "DELETE", token });
    assert.equal(await total(), 1);
    // A search is its own count.
    assert.equal(
      (await env.json(`/api/pt/inspections?job_id=${job.id}&search_serial_number=T-2`, { token })).total,
      1,
    );
    assert.equal(
      (await env.json(`/api/pt/inspections?job_id=${job.id}&search_serial_number=T-1`, { token })).total,
      0,
    );
  }));
