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
