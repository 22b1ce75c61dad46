import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import type { InStatement } from "@libsql/client";
import { withEnv } from "../../../scripts/testing/harness.ts";
import { makeCompany, makeInspection, makeJob } from "../../../db/factories.ts";
import { inspections, jobs } from "../../../db/schema/mod.ts";
import { recordingCtx } from "../../sales/inventory/test_fixtures.ts";
import { loadSessionUser } from "../../auth/service.ts";
import { InspectionListQuery, listInspections } from "./service.ts";

Deno.test("inspections - the total with no filter but a job is the inspections counted by job and companies, for every kind of user, through every change", () =>
  withEnv(async (env) => {
    const db = env.tenant.db;
    const otherOwner = await makeCompany(db, { company_type: "inspection_company" });
    const customers = [await makeCompany(db), await makeCompany(db)];
    const operators = [
      await makeCompany(db, { company_type: "operator_company" }),
      await makeCompany(db, { company_type: "operator_company" }),
    ];
    const made: { id: number }[] = [];
    const jobList: Awaited<ReturnType<typeof makeJob>>[] = [];
    for (let j = 0; j < 6; j++) {
      const job = await makeJob(db, {
        inspection_company_id: j === 5 ? otherOwner.id : 1,
        customer_company_id: customers[j % 2].id,
        operator_company_id: operators[(j >> 1) % 2].id,
      });
      jobList.push(job);
      for (let i = 0; i <= j; i++) made.push(await makeInspection(db, { job_id: job.id }));
    }
    const users = [
      (await loadSessionUser(db, 1))!.user,
      (await loadSessionUser(
        db,
        (await env.userWithToken({ account_type: "Data-Entry", jobs: [jobList[1].id, jobList[3].id] })).user
          .id,
      ))!.user,
      (await loadSessionUser(db, (await env.userWithToken({ company_id: customers[0].id })).user.id))!.user,
      (await loadSessionUser(db, (await env.userWithToken({ company_id: operators[1].id })).user.id))!.user,
    ];
    const check = async (step: string) => {
      const kept = await env.tenant.client.execute(
        `select inspection_company_id, customer_company_id, operator_company_id, job_id, inspections
         from inspection_counts where inspections <> 0 order by 1, 2, 3, 4`,
      );
      const actual = await env.tenant.client.execute(
        `select inspection_company_id, customer_company_id, operator_company_id, job_id, count(*)
         from inspections group by 1, 2, 3, 4 order by 1, 2, 3, 4`,
      );
      const values = (r: Record<number, unknown>) => [0, 1, 2, 3, 4].map((i) => r[i]);
      assert.deepEqual(kept.rows.map(values), actual.rows.map(values), `${step}: the kept counts`);
      for (const user of users) {
        let seen = 0;
        for (const job of [undefined, ...jobList]) {
          const q = InspectionListQuery.parse(job ? { job_id: String(job.id) } : {});
          const name = `${step}, ${user.account_type} of company ${user.company_id}, job ${job?.id}`;
          const ctx = { tdb: env.tenant, db, user, config: env.services.config };
          let every: number;
          try {
            every = (await listInspections(ctx, { ...q, page: -1, rowsPerPage: -1 })).results.length;
          } catch {
            continue; // a job out of the user's scope: 404 either way
          }
          const log: InStatement[] = [];
          const { total } = await listInspections(recordingCtx(env, user, log), q);
          assert.equal(total, every, `${name}: the total`);
          const counts = log.filter((s) => /^select count\(/i.test(typeof s === "string" ? s : s.sql));
          assert.equal(counts.length, 0, `${name}: counted the inspections`);
          if (!job) seen = total;
        }
        // Each kind of user sees some inspections, and not all of them but the inspection company's staff.
        assert.ok(seen > 0, `${step}: ${user.account_type} of company ${user.company_id} sees none`);
      }
    };
    await check("made");
    await makeInspection(db, { job_id: jobList[3].id });
    await check("an inspection added");
    await db.update(inspections).set({ job_id: jobList[0].id }).where(eq(inspections.id, made[5].id));
    await check("an inspection moved to another job");
    await db.update(inspections).set({ customer_company_id: customers[1].id }).where(
      eq(inspections.job_id, jobList[2].id),
    );
    await check("a job's inspections moved to another customer");
    await db.update(inspections).set({ serial_number: "RENAMED" }).where(eq(inspections.id, made[7].id));
    await check("an inspection's other field changed");
    await db.delete(inspections).where(eq(inspections.id, made[9].id));
    await check("an inspection deleted");
    await db.delete(jobs).where(eq(jobs.id, jobList[4].id));
    await check("a job deleted with its inspections");
    // A search is counted as before.
    const log: InStatement[] = [];
    await listInspections(recordingCtx(env, users[0], log), InspectionListQuery.parse({ search_batch: "B" }));
    assert.ok(
      log.some((s) => /^select count\(/i.test(typeof s === "string" ? s : s.sql)),
      "a search is counted",
    );
  }));
