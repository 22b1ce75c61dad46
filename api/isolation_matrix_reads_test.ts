// Issue 9's isolation matrix, reads: every GET route of the app (lists and downloads with all rows,
// reads by id) x both tenants x every kind of user, here those outside Sales & Inventory (those are in
// isolation_matrix_reads_sales_test.ts). How each route is exercised: scripts/testing/isolation_specs.ts
// and isolation_reads.ts; the coverage check: api/isolation_matrix_test.ts.
import assert from "node:assert/strict";
import { withEnv } from "../scripts/testing/harness.ts";
import { changedTables, snapshot, twoTenants } from "../scripts/testing/isolation_fixture.ts";
import { Matrix } from "../scripts/testing/isolation_matrix.ts";
import { reads } from "../scripts/testing/isolation_reads.ts";

const WHICH = (path: string) => !path.startsWith("/api/sales/");

Deno.test("isolation matrix - every GET route outside sales x tenant x role answers only rows of the caller's tenant and scope", () =>
  withEnv(async (env) => {
    const [acme, beta] = await twoTenants(env);
    const before = [await snapshot(acme.tdb), await snapshot(beta.tdb)];
    const m = new Matrix(env);
    await reads(m, acme, beta, WHICH);
    await reads(m, beta, acme, WHICH);
    const after = [await snapshot(acme.tdb), await snapshot(beta.tdb)];
    m.summary("isolation matrix (reads)");
    assert.deepEqual(m.failures, []);
    assert.equal(m.foreignRows, 0, "foreign rows found");
    assert.deepEqual(changedTables(before[0], after[0]), [], "reads changed acme's data");
    assert.deepEqual(changedTables(before[1], after[1]), [], "reads changed beta's data");
  }));

Deno.test("isolation matrix - a Data-Entry user with no jobs, or only another tenant's job ids, sees no job", () =>
  withEnv(async (env) => {
    const [acme, beta] = await twoTenants(env);
    const m = new Matrix(env);
    for (
      const [name, jobs] of [["no-jobs", []], ["other-tenant-jobs", [
        beta.ids.J1,
        beta.ids.J2,
        beta.ids.J3,
      ]]] as const
    ) {
      const { token } = await env.userWithToken({
        account_type: "Data-Entry",
        permissions: ["inspector", "job-admin"],
        jobs: [...jobs],
      });
      for (
        const path of [
          "/api/pt/jobs?page=1&rowsPerPage=-1",
          "/api/pt/jobs/download?page=-1",
          "/api/pt/inspections?page=1&rowsPerPage=-1",
          "/api/pt/inspections/download?page=-1",
          `/api/pt/jobs/${acme.ids.J1}`,
          `/api/pt/jobs/${acme.ids.J2}/report`,
          `/api/pt/inspections/${acme.ids.I3}/report`,
          `/api/files/${acme.ids.F1}`,
        ]
      ) {
        const a = await m.send(acme, undefined, { method: "GET", path }, { token });
        const key = `GET ${path} dataEntry@acme ${name}`;
        m.expectStatus(key, a, path.includes("?") ? [200] : [404]);
        m.expectNoMarkers(key, a, ["ACME-J", "BETA-"]);
        if (a.status === 200 && !a.contentType.includes("spreadsheet") && !/"total":0\b/.test(a.text)) {
          m.fail(key, `a total other than 0: ${a.text.slice(0, 200)}`);
        }
      }
    }
    m.summary("isolation matrix (Data-Entry without jobs)");
    assert.deepEqual(m.failures, []);
    assert.equal(m.foreignRows, 0);
  }));
