import assert from "node:assert/strict";
import { withEnv } from "../../scripts/testing/harness.ts";
import { makeCompany, makeInspection, makeInventory, makeJob } from "../../db/factories.ts";
import { UNKNOWN_SERIAL } from "./service.ts";

Deno.test("scan - a label URL or a typed serial finds the serial's records, whatever its case", () =>
  withEnv(async (env) => {
    const db = env.tenant.db;
    await makeInventory(db, { serial_number: "VX-100" });
    await makeInspection(db, { serial_number: "vx-100" });
    const token = await env.login();
    const code = encodeURIComponent("https://other.host/serials/VX-100");
    assert.deepEqual(await env.json(`/api/scan?code=${code}`, { token }), {
      serial: "VX-100",
      inventory: 1,
      inspections: 1,
    });
    assert.deepEqual(await env.json(`/api/scan?code=${encodeURIComponent(" vx-100\r\n")}`, { token }), {
      serial: "vx-100",
      inventory: 1,
      inspections: 1,
    });
  }));

Deno.test("scan - unknown, unseen or malformed codes answer with a sentence", () =>
  withEnv(async (env) => {
    const db = env.tenant.db;
    const token = await env.login();
    const r = await env.json("/api/scan?code=NOPE-1", { token, status: 404 });
    assert.equal(r.detail, UNKNOWN_SERIAL);
    const bad = await env.json(`/api/scan?code=${encodeURIComponent("https://x.test/menu")}`, {
      token,
      status: 422,
    });
    assert.match(bad.detail, /not a serial number label/);
    await env.json("/api/scan", { token, status: 422 });
    // A customer sees their own jobs' serials, not the inventory nor another customer's inspections.
    const mine = await makeCompany(db, { company_type: "customer_company" });
    const job = await makeJob(db, { customer_company_id: mine.id });
    await makeInspection(db, { job_id: job.id, serial_number: "MINE-1" });
    await makeInspection(db, { serial_number: "THEIRS-1" });
    await makeInventory(db, { serial_number: "STOCK-1" });
    const { token: customer } = await env.userWithToken({ company_id: mine.id });
    assert.deepEqual(await env.json("/api/scan?code=MINE-1", { token: customer }), {
      serial: "MINE-1",
      inventory: 0,
      inspections: 1,
    });
    await env.json("/api/scan?code=THEIRS-1", { token: customer, status: 404 });
    await env.json("/api/scan?code=STOCK-1", { token: customer, status: 404 });
    await env.json("/api/scan?code=STOCK-1", { status: 401 });
  }));
