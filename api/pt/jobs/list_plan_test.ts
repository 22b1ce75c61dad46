import assert from "node:assert/strict";
import { analyzeForPlans, withEnv } from "../../../scripts/testing/harness.ts";
import { makeCompany, makeInspection, makeJob, makePart } from "../../../db/factories.ts";
import { JOB_SORTS, JobListQuery } from "./schemas.ts";
import type { InStatement } from "@libsql/client";
import { loadSessionUser } from "../../auth/service.ts";
import { recordingCtx } from "../../sales/inventory/test_fixtures.ts";
import { listJobs } from "./service.ts";

/**
 * A sorted page of jobs takes its ids first (a deferred join): the sort never runs over the full rows, whose
 * inspection counts SQLite computed for every job before sorting (issue 10: 5,000 jobs by customer, 10 ms).
 * By customer or operator it walks the companies by name and each one's jobs through an index. Every sort
 * pages to the same order the whole list has, both ways, across names that differ only in case.
 */
Deno.test("jobs list - every sort pages by ids first, in the whole list's order", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const customers = [];
    for (const name of ["permian Energy", "Permian Energy", "Apex Oil"]) {
      customers.push(await makeCompany(env.tenant.db, { name, company_type: "customer_company" }));
    }
    const operators = [];
    for (const name of ["Basin Ops", "basin ops", "Delta Ops"]) {
      operators.push(await makeCompany(env.tenant.db, { name, company_type: "operator_company" }));
    }
    const part = await makePart(env.tenant.db);
    for (let i = 0; i < 36; i++) {
      const job = await makeJob(env.tenant.db, {
        job_number: `J-${(i * 7) % 36}`,
        date: `2024-01-${String(1 + (i % 5)).padStart(2, "0")}`,
        customer_company_id: customers[i % 3].id,
        operator_company_id: operators[(i >> 1) % 3].id,
        district: ["north", "North", "south"][i % 3],
        inspector: ["ann", "Bob", "cy"][(i >> 2) % 3],
      });
      if (i % 4 === 0) await makeInspection(env.tenant.db, { job_id: job.id, part_id: part.id });
    }
    // Filtered on a company's name, each sort still pages in the whole list's order.
    for (const sortBy of JOB_SORTS) {
      const path = `/api/pt/jobs?sortBy=${sortBy}&search_customer_name=permian&search_operator_name=basin`;
      const whole = (await env.json(`${path}&rowsPerPage=-1`, { token })).results;
      assert.ok(whole.length > 10 && whole.length < 30, `${path}: ${whole.length}`);
      const paged = [];
      for (let page = 1; page <= 6; page++) {
        paged.push(...(await env.json(`${path}&page=${page}&rowsPerPage=5`, { token })).results);
      }
      assert.deepEqual(paged, whole, path);
    }
    for (const sortBy of JOB_SORTS) {
      for (const descending of [false, true]) {
        const path = `/api/pt/jobs?sortBy=${sortBy}&descending=${descending}`;
        const whole = (await env.json(`${path}&rowsPerPage=-1`, { token })).results;
        assert.equal(whole.length, 36);
        const paged = [];
        for (let page = 1; page <= 4; page++) {
          paged.push(...(await env.json(`${path}&page=${page}&rowsPerPage=10`, { token })).results);
        }
        assert.deepEqual(
          paged.map((j: { id: number }) => j.id),
          whole.map((j: { id: number }) => j.id),
          path,
        );
        assert.deepEqual(paged, whole, `${path}: the same rows, counts included`);
      }
    }
    // The plans, on a list big enough that reading rows by key beats reading the table (on the 36 jobs
    // above SQLite rightly reads all of them): the jobs copied over and over, 1,152 in all.
    for (let i = 0; i < 5; i++) {
      await env.tenant.client.execute(
        `insert into jobs (date, job_number, inspection_company_id, customer_company_id, operator_company_id,
           district, inspector, uv_serial_number, uv_recalibration_date, blacklight_reading, ut_serial_number,
           ut_recalibration_date, comments)
         select date, job_number || '-' || id, inspection_company_id, customer_company_id, operator_company_id,
           district, inspector, uv_serial_number, uv_recalibration_date, blacklight_reading, ut_serial_number,
           ut_recalibration_date, comments from jobs`,
      );
    }
    if (!(await analyzeForPlans(env))) return;
    for (const sortBy of JOB_SORTS) {
      for (const descending of [false, true]) {
        const path = `/api/pt/jobs?sortBy=${sortBy}&descending=${descending}`;
        const client = env.tenant.client;
        const execute = client.execute.bind(client);
        const seen: { sql: string; args: unknown[] }[] = [];
        client.execute = ((stmt: { sql: string; args: unknown[] }) => {
          if (typeof stmt === "object" && /^select/.test(stmt.sql)) seen.push(stmt);
          return execute(stmt as never);
        }) as typeof client.execute;
        try {
          await env.json(`${path}&page=2&rowsPerPage=10`, { token });
        } finally {
          client.execute = execute;
        }
        const rows = seen.find((s) => /json_each/.test(s.sql));
        assert.ok(rows, path);
        const plan = (await execute({ sql: `explain query plan ${rows.sql}`, args: rows.args as never }))
          .rows.map((r) => String(r.detail)).join("\n");
        // The full rows are read by id, the page's ten alone.
        assert.match(plan, /SEARCH jobs USING INTEGER PRIMARY KEY/, `${path}\n${plan}`);
        // The page's ids are read in order from an index: no sort of every job.
        const ids = seen.find((s) => /\blimit\b/.test(s.sql) && !/json_each/.test(s.sql));
        assert.ok(ids, path);
        const idPlan = (await execute({ sql: `explain query plan ${ids.sql}`, args: ids.args as never }))
          .rows.map((r) => String(r.detail)).join("\n");
        assert.doesNotMatch(idPlan, /USE TEMP B-TREE FOR ORDER BY/, `${path}\n${ids.sql}\n${idPlan}`);
      }
    }
  }));

Deno.test("jobs list - the total counts the jobs alone unless a company's name filters them", () =>
  withEnv(async (env) => {
    const db = env.tenant.db;
    const acme = await makeCompany(db, { name: "Acme Drilling", company_type: "customer_company" });
    for (let i = 0; i < 6; i++) await makeJob(db, i % 2 ? { customer_company_id: acme.id } : {});
    const { user } = (await loadSessionUser(db, 1))!;
    for (const [query, total] of [[{}, 6], [{ search_customer_name: "acme" }, 3]] as const) {
      const log: InStatement[] = [];
      const body = await listJobs(recordingCtx(env, user, log), JobListQuery.parse(query));
      assert.equal(body.total, total, JSON.stringify(query));
      const counts = log.map((s) => typeof s === "string" ? s : s.sql).filter((s) =>
        /^select count\(\*\) from "jobs"/.test(s)
      );
      assert.equal(counts.length, 1, JSON.stringify(query));
      // Joined to the companies only to filter by a name.
      assert.equal(/"companies"/.test(counts[0]), "search_customer_name" in query, counts[0]);
    }
  }));
