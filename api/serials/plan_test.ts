import assert from "node:assert/strict";
import type { InStatement } from "@libsql/client";
import { analyzeForPlans, type TestEnv, withEnv } from "../../scripts/testing/harness.ts";
import { makeCategory, makeCompany, makeItem, makeJob, makeTicket } from "../../db/factories.ts";
import { inventory_audit } from "../../db/schema/mod.ts";
import type { Ctx } from "../lib/context.ts";
import { planOf, recordingCtx } from "../sales/inventory/test_fixtures.ts";
import { mergeNewestFirst } from "./merge.ts";
import { downloadSerialHistory, serialHistory, sourcesFor } from "./service.ts";
import { serialWithHistory } from "./test_fixtures.ts";

/**
 * A tenant with a long history spread over 1,000 serials: 20,000 inspections (of two customers' jobs),
 * 2,000 inventory rows of 500 items in 50 units with 20,000 lines on 2,000 tickets, and 20,000 audit rows.
 */
async function largeTenant(env: TestEnv) {
  const db = env.tenant.db;
  const customer = await makeCompany(db, { company_type: "customer_company" });
  const jobs = [await makeJob(db, { customer_company_id: customer.id }), await makeJob(db)];
  const item = await makeItem(db);
  const unit = await makeCategory(db);
  const ticket = await makeTicket(db);
  const run = (sql: string) =>
    env.tenant.client.execute(
      `with recursive n(i) as (select 1 union all select i + 1 from n where i < 20000) ${sql}`,
    );
  await run(`insert into inspections (job_id, inspection_company_id, customer_company_id, operator_company_id,
      date, serial_number, inspection_time)
    select j.id, j.inspection_company_id, j.customer_company_id, j.operator_company_id, '2025-01-01',
      'SN-' || (i % 1000), strftime('%Y-%m-%dT%H:%M:%fZ', '2025-01-01', '+' || i || ' minutes')
    from n join jobs j on j.id = ${jobs[0].id} + ((i / 1000) % 2)`);
  // A catalogue of realistic size: with one item the planner would rather scan it than look rows up.
  await run(`insert into items (company_id, item_number, inventory_type, item_type)
    select 1, 'IT-' || i, 'Serialized', 'Rental' from n where i <= 500`);
  await run(`insert into categories (company_id, model, name)
    select 1, 'Business Unit', 'Unit ' || i from n where i <= 50`);
  await run(`insert into inventory (company_id, item_id, business_unit_id, serial_number, quantity)
    select 1, ${item.id} + (i % 500), ${unit.id} + (i % 50), 'SN-' || i, 5 from n where i <= 2000`);
  await run(`insert into tickets (company_id, ticket_number, ticket_date, customer_id)
    select 1, 'T-' || i, '2025-01-01', ${customer.id} from n where i <= 2000`);
  await run(`insert into sales (company_id, ticket_id, inventory_id, start_date)
    select 1, ${ticket.id} + (i % 2000), (select min(id) from inventory) + (i % 2000),
      strftime('%Y-%m-%dT%H:%M:%SZ', '2025-01-01', '+' || i || ' minutes') from n`);
  await run(`insert into inventory_audit (action, action_time, serial_number)
    select 'Check In', strftime('%Y-%m-%dT%H:%M:%fZ', '2025-01-01', '+' || i || ' minutes'), 'SN-' || (i % 1000)
    from n`);
  return { customer };
}

/**
 * The plans of the statements `run` sends: none scans a table that grows with the history (the small
 * catalogues, users and companies, the planner may scan when that is cheaper than looking rows up).
 */
async function plansOf(env: TestEnv, user: Ctx["user"], run: (ctx: Ctx) => Promise<unknown>) {
  const log: InStatement[] = [];
  await run(recordingCtx(env, user, log));
  const reads = log.filter((s) => /^select/i.test(typeof s === "string" ? s : s.sql));
  const plans = [];
  for (const s of reads) plans.push((await planOf(env, s)).map((l) => l.detail).join("\n"));
  for (const plan of plans) {
    assert.doesNotMatch(plan, /^SCAN (inspections|jobs|inventory|sales|tickets|inventory_audit)\b/m, plan);
  }
  return plans.join("\n");
}

Deno.test("serial history plans - each source reads the serial's rows through its serial index, for staff and customers", () =>
  withEnv(async (env) => {
    const { customer } = await largeTenant(env);
    if (!(await analyzeForPlans(env))) return;
    const admin = await env.json("/api/admin/users/me", { token: await env.login() });
    const staff = await plansOf(env, admin, async (ctx) => {
      const page = await serialHistory(ctx, "sn-7", { page: 2, rowsPerPage: 10 });
      assert.equal(page.total, 20 + 10 + 20, "its inspections, ticket lines and audit rows");
      assert.equal(page.events.length, 10);
    });
    for (const index of ["inventory_serial_idx", "sales_inventory_idx", "inventory_audit_serial_idx"]) {
      assert.match(staff, new RegExp(`USING (COVERING )?INDEX ${index}\\b`), `${index}:\n${staff}`);
    }
    assert.match(
      staff,
      /SEARCH inspections USING (COVERING )?INDEX inspections_(company_)?serial_idx/,
      staff,
    );

    const { token } = await env.userWithToken({ company_id: customer.id });
    const me = await env.json("/api/admin/users/me", { token });
    const theirs = await plansOf(env, me, async (ctx) => {
      const page = await serialHistory(ctx, "SN-7", { page: 1, rowsPerPage: 25 });
      assert.equal(page.total, 10, "their jobs' inspections only");
    });
    assert.match(theirs, /SEARCH inspections USING INDEX inspections_serial_idx/, theirs);
    assert.doesNotMatch(theirs, /inventory|sales|audit/, "no Sales reads for a customer");

    const file = await plansOf(env, admin, async (ctx) => {
      await (await downloadSerialHistory(ctx, "SN-7")).arrayBuffer();
    });
    assert.match(file, /inventory_audit_serial_idx/);
  }));

Deno.test("serial history merge - read a few rows at a time, the timeline is the same, ties included", () =>
  withEnv(async (env) => {
    const h = await serialWithHistory(env);
    // Three audit rows at one instant: the cursor must step past each exactly once.
    await env.tenant.db.insert(inventory_audit).values(
      [1, 2, 3].map((n) => ({
        action: `Tie ${n}`,
        serial_number: "PV-100",
        action_time: "2026-01-03T08:00:00Z",
      })),
    );
    const admin = await env.json("/api/admin/users/me", { token: h.token });
    const ctx: Ctx = { tdb: env.tenant, db: env.tenant.db, user: admin, config: {} as Ctx["config"] };
    const read = async (chunk: number) => {
      const out = [];
      const sources = sourcesFor(ctx, "PV-100").map((s) => s.read);
      for await (const e of mergeNewestFirst(sources, chunk)) out.push(`${e.kind} ${e.id} ${e.at}`);
      return out;
    };
    const whole = await read(1000);
    assert.equal(whole.length, 9);
    // At the same instant, the ticket line comes before the audit rows (the sources' order), newest id first.
    assert.deepEqual(whole.slice(4, 8).map((l) => l.split(" ")[0]), ["ticket", "audit", "audit", "audit"]);
    for (const chunk of [1, 2, 3]) assert.deepEqual(await read(chunk), whole, `chunks of ${chunk}`);
    const paged = [];
    for (let page = 1; page <= 5; page++) {
      paged.push(
        ...(await serialHistory(ctx, "PV-100", { page, rowsPerPage: 2 })).events.map((e) =>
          `${e.kind} ${e.id} ${e.at}`
        ),
      );
    }
    assert.deepEqual(paged, whole);
  }));
