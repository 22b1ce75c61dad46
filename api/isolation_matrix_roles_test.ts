// Issue 9's isolation matrix, the other half of the role checks: a role the permission table allows
// is not refused. Every write route is sent, as each kind of user its gate lets through, aimed at that
// user's own (visible) rows: the answer may be a success, a 404 (an earlier request deleted the row) or
// a 409/422 (the data set's state), never 401, 403 or a server error. The data changes, so this file
// has its own environment; the refusals are in isolation_matrix_writes_test.ts.
import assert from "node:assert/strict";
import { withEnv } from "../scripts/testing/harness.ts";
import { routeTable } from "../scripts/testing/routes.ts";
import { twoTenants, USER_KINDS } from "../scripts/testing/isolation_fixture.ts";
import { SPECS, visibleTarget } from "../scripts/testing/isolation_specs.ts";
import { Matrix, probesOf, targetOf } from "../scripts/testing/isolation_matrix.ts";

Deno.test("isolation matrix - every write route lets through each role the permission table allows", () =>
  withEnv(async (env) => {
    const [acme] = await twoTenants(env);
    const m = new Matrix(env);
    // deletes last, so the other writes still find their rows
    const routes = routeTable(env.app).filter((r) => r.method !== "GET")
      .sort((a, b) => Number(a.method === "DELETE") - Number(b.method === "DELETE"));
    for (const { method, path } of routes) {
      const route = `${method} ${path}`;
      const spec = SPECS[route];
      if (!spec) continue;
      m.routes.add(route);
      for (const kind of USER_KINDS) {
        const user = acme.users[kind];
        for (const probe of probesOf(spec.request!(visibleTarget(targetOf(acme), kind)))) {
          if (!spec.gate(user) || !(probe.gate?.(user) ?? true)) continue;
          const a = await m.send(acme, kind, probe);
          m.expectStatus(`${route} ${kind}@acme allowed`, a, [200, 204, 404, 409, 422]);
        }
      }
    }
    m.summary("isolation matrix (allowed roles)");
    assert.deepEqual(m.failures, []);
  }));
