import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { withEnv } from "../../../scripts/testing/harness.ts";
import { pdfBytes } from "../../../scripts/testing/isolation_fixture.ts";
import { makeInspection } from "../../../db/factories.ts";
import { auditOf, post, rowOf } from "../lines/checkin_fixtures.ts";
import { checkInUnit, inspectorAndJob, rentedUnit, setGate } from "./return_gate_fixtures.ts";

const pressureTest = (tag: string) => ({
  pressure_test: {
    name: "pt.pdf",
    url: `data:application/pdf;base64,${Buffer.from(pdfBytes(tag)).toString("base64")}`,
  },
});

Deno.test("return gate - a batch with its pressure-test PDF releases held units; without one it does not", () =>
  withEnv(async (env) => {
    const admin = await env.login();
    await setGate(env, admin, true);
    const units = [await rentedUnit(env, "SN-B1"), await rentedUnit(env, "SN-B2")];
    for (const s of units) await checkInUnit(env, admin, s);
    const { token, job } = await inspectorAndJob(env);
    const batch = { job_id: job.id, date: "2026-05-04", batch: "B-7", serial_numbers: ["sn-b1", "SN-B2"] };
    const bare = await post(env, token, "/api/pt/inspections/batch", batch);
    assert.equal(bare.message, "2 inspections created, 0 updated");
    for (const s of units) assert.equal((await rowOf(env, s.inventoryId))!.status, "Repair");

    const tested = await post(env, token, "/api/pt/inspections/batch", {
      ...batch,
      imageFiles: pressureTest("b7"),
    });
    assert.deepEqual(tested, {
      created: 0,
      updated: 2,
      message: "0 inspections created, 2 updated; 2 released from Repair",
    });
    for (const s of units) {
      const row = await rowOf(env, s.inventoryId);
      assert.deepEqual([row!.status, row!.held_for_inspection], ["Available", false]);
      assert.match((await auditOf(env, s.inventoryId)).at(-1)!.action, /^Released by inspection #\d+ \(job /);
    }
  }));

Deno.test("return gate - a batch's PDF does not release a serial whose inspection failed", () =>
  withEnv(async (env) => {
    const admin = await env.login();
    await setGate(env, admin, true);
    const s = await rentedUnit(env, "SN-BAD");
    await checkInUnit(env, admin, s);
    const { token, job } = await inspectorAndJob(env);
    await makeInspection(env.tenant.db, { job_id: job.id, serial_number: "SN-BAD", visual_pass: false });
    const res = await post(env, token, "/api/pt/inspections/batch", {
      job_id: job.id,
      date: "2026-05-04",
      batch: "B-8",
      serial_numbers: ["SN-BAD"],
      imageFiles: pressureTest("b8"),
    });
    assert.equal(res.message, "0 inspections created, 1 updated");
    assert.equal((await rowOf(env, s.inventoryId))!.status, "Repair");
  }));
