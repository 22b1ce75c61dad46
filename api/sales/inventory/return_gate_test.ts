import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { withEnv } from "../../../scripts/testing/harness.ts";
import { makeInventory } from "../../../db/factories.ts";
import { companies, inventory } from "../../../db/schema/mod.ts";
import { auditOf, heldLine, post, rowOf } from "../lines/checkin_fixtures.ts";
import { checkInUnit, inspect, inspectorAndJob, rentedUnit, setGate } from "./return_gate_fixtures.ts";

const state = async (env: Parameters<typeof rowOf>[0], id: number) => {
  const row = await rowOf(env, id);
  return [row!.status, row!.held_for_inspection, row!.quantity_out];
};

Deno.test("return gate - the setting is saved when true or false and refused (422) otherwise", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const bad = await setGate(env, token, "yes", 422);
    assert.deepEqual(bad.errors.map((e: { path: string }) => e.path), ["settings.Sales.returnGate"]);
    await setGate(env, token, true);
    const owner = await env.tenant.db.select().from(companies).where(eq(companies.id, 1)).get();
    assert.deepEqual(owner!.settings.Sales, { returnGate: true });
  }));

Deno.test("return gate - off: a checked-in Serialized unit is Available, not held", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const s = await rentedUnit(env, "SN-OFF");
    const res = await checkInUnit(env, token, s);
    assert.equal(res.message, "Checked in 1 line");
    assert.deepEqual(await state(env, s.inventoryId), ["Available", false, 0]);
    const [audit] = await auditOf(env, s.inventoryId);
    assert.deepEqual([audit.action, audit.calculated_inventory_status], ["Check In", "Available"]);
  }));

Deno.test("return gate - on: a Serialized unit goes to Repair, audited why; Itemized stock is unaffected", () =>
  withEnv(async (env) => {
    const token = await env.login();
    await setGate(env, token, true);
    const unit = await rentedUnit(env, "SN-ON");
    const bulk = await heldLine(env, { quantity: 2, stock: 5, line: { ticket_id: unit.ticketId } });
    const res = await post(env, token, "/api/sales/inventory/check-in", {
      ticket_id: unit.ticketId,
      line_items: [unit.lineId, bulk.lineId],
      quantities_in: [1, 2],
    });
    assert.equal(res.message, "Checked in 2 lines; 1 in Repair awaiting inspection (return gate)");
    assert.deepEqual(await state(env, unit.inventoryId), ["Repair", true, 0]);
    assert.deepEqual(await state(env, bulk.inventoryId), ["Available", false, 0]);
    const [audit] = await auditOf(env, unit.inventoryId);
    assert.deepEqual(
      [audit.action, audit.status, audit.calculated_inventory_status, audit.quantity_change],
      ["Check In", "Repair", "Awaiting inspection (return gate)", 1],
    );
    const listed = await env.json(
      `/api/sales/inventory?inventory_type=Serialized&search_serial_number=SN-ON`,
      { token },
    );
    assert.deepEqual(
      listed.results.map((
        r: { status: string; held_for_inspection: boolean },
      ) => [r.status, r.held_for_inspection]),
      [["Repair", true]],
    );
  }));

Deno.test("return gate - a passing inspection of the serial (any case) releases the unit, audited", () =>
  withEnv(async (env) => {
    const admin = await env.login();
    await setGate(env, admin, true);
    const s = await rentedUnit(env, "SN-Case-7");
    await checkInUnit(env, admin, s);
    const { token, job } = await inspectorAndJob(env);
    const made = await inspect(env, token, {
      job_id: job.id,
      serial_number: "sn-case-7",
      visual_pass: true,
      mpi_result: "Pass",
    });
    assert.equal(made.message, "Inspection created; 1 released from Repair");
    assert.deepEqual(await state(env, s.inventoryId), ["Available", false, 0]);
    const audits = await auditOf(env, s.inventoryId);
    const last = audits.at(-1)!;
    assert.deepEqual(
      [last.action, last.status, last.quantity_change, last.calculated_inventory_status],
      [`Released by inspection #${made.id} (job ${job.job_number})`, "Available", 0, "Available"],
    );
  }));

Deno.test("return gate - a failing inspection keeps the hold; editing it to a pass releases", () =>
  withEnv(async (env) => {
    const admin = await env.login();
    await setGate(env, admin, true);
    const s = await rentedUnit(env, "SN-FAIL");
    await checkInUnit(env, admin, s);
    const { token, job } = await inspectorAndJob(env);
    const failed = await inspect(env, token, {
      job_id: job.id,
      serial_number: "SN-FAIL",
      visual_pass: false,
    });
    assert.equal(failed.message, "Inspection created");
    await inspect(env, token, {
      job_id: job.id,
      serial_number: "SN-FAIL",
      visual_pass: true,
      mpi_result: "Fail",
    });
    await inspect(env, token, { job_id: job.id, serial_number: "SN-FAIL" }); // no result recorded yet
    assert.deepEqual(await state(env, s.inventoryId), ["Repair", true, 0]);
    const fixed = await inspect(env, token, {
      id: failed.id,
      job_id: job.id,
      serial_number: "SN-FAIL",
      visual_pass: true,
    });
    assert.equal(fixed.message, "Inspection updated; 1 released from Repair");
    assert.deepEqual(await state(env, s.inventoryId), ["Available", false, 0]);
  }));

Deno.test("return gate - only the gate's holds are released: Repair set by hand stays", () =>
  withEnv(async (env) => {
    const admin = await env.login();
    await setGate(env, admin, true);
    const item = (await rentedUnit(env, "SN-HAND-0")).itemId;
    const byHand = await makeInventory(env.tenant.db, {
      item_id: item,
      serial_number: "SN-HAND",
      status: "Repair",
    });
    // A held unit an admin then sets by hand (Available, then Repair again) is no longer the gate's.
    const s = await rentedUnit(env, "SN-HAND-2");
    await checkInUnit(env, admin, s);
    for (const status of ["Available", "Repair"]) {
      await env.json("/api/sales/inventory", {
        method: "PUT",
        token: admin,
        json: { id: s.inventoryId, status },
      });
    }
    assert.deepEqual(await state(env, s.inventoryId), ["Repair", false, 0]);
    const { token, job } = await inspectorAndJob(env);
    for (const serial_number of ["SN-HAND", "SN-HAND-2"]) {
      const res = await inspect(env, token, { job_id: job.id, serial_number, visual_pass: true });
      assert.equal(res.message, "Inspection created");
    }
    assert.equal((await rowOf(env, byHand.id))!.status, "Repair");
    assert.equal((await rowOf(env, s.inventoryId))!.status, "Repair");
  }));

Deno.test("return gate - an edit of an already passing inspection (notes only) releases nothing", () =>
  withEnv(async (env) => {
    const admin = await env.login();
    await setGate(env, admin, true);
    const { token, job } = await inspectorAndJob(env);
    const old = await inspect(env, token, { job_id: job.id, serial_number: "SN-OLD", visual_pass: true });
    const s = await rentedUnit(env, "SN-OLD");
    await checkInUnit(env, admin, s);
    await inspect(env, token, { id: old.id, job_id: job.id, serial_number: "SN-OLD", notes: "typo fixed" });
    assert.deepEqual(await state(env, s.inventoryId), ["Repair", true, 0]);
  }));

Deno.test("return gate - in another tenant a unit with the same serial stays held", () =>
  withEnv(async (env) => {
    const other = await env.addTenant("globex", "globex.test");
    const theirs = await makeInventory(other.db, {
      serial_number: "SN-SHARED",
      quantity: 1,
      status: "Repair",
      held_for_inspection: true,
    });
    const admin = await env.login();
    await setGate(env, admin, true);
    const s = await rentedUnit(env, "SN-SHARED");
    await checkInUnit(env, admin, s);
    const { token, job } = await inspectorAndJob(env);
    await inspect(env, token, { job_id: job.id, serial_number: "SN-SHARED", visual_pass: true });
    assert.deepEqual(await state(env, s.inventoryId), ["Available", false, 0]);
    const row = await other.db.select().from(inventory).where(eq(inventory.id, theirs.id)).get();
    assert.deepEqual([row!.status, row!.held_for_inspection], ["Repair", true]);
  }));
