// Issue 9's isolation matrix, writes: every POST/PUT/PATCH/DELETE route of the app x both tenants x
// every kind of user. Aimed at the other tenant's ids (or ids outside the user's scope) a write answers
// 403 or 404; a role the permission table does not allow gets 403 on its own rows; and afterwards
// neither tenant's data has changed at all. How each route is exercised: scripts/testing/isolation_specs.ts.
import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { users } from "../db/schema/mod.ts";
import { ALL_GRANTS } from "../lib/policy.ts";
import { withEnv } from "../scripts/testing/harness.ts";
import { routeTable } from "../scripts/testing/routes.ts";
import {
  changedTables,
  forbiddenMarkers,
  snapshot,
  type TenantSide,
  twoTenants,
  USER_KINDS,
} from "../scripts/testing/isolation_fixture.ts";
import { hiddenTarget, scopesOf, SPECS, visibleTarget } from "../scripts/testing/isolation_specs.ts";
import { foreignProbes, Matrix, probesOf, targetOf } from "../scripts/testing/isolation_matrix.ts";

async function writes(m: Matrix, side: TenantSide, other: TenantSide) {
  for (const { method, path } of routeTable(m.env.app)) {
    const route = `${method} ${path}`;
    const spec = SPECS[route];
    if (!spec || method === "GET") continue;
    m.routes.add(route);
    for (const kind of USER_KINDS) {
      const user = side.users[kind];
      const forbidden = forbiddenMarkers(side, other, kind);
      const key = (check: string) => `${route} ${kind}@${side.slug} ${check}`;
      const own = probesOf(spec.request!(visibleTarget(targetOf(side), kind)));
      const foreign = foreignProbes(spec, visibleTarget(targetOf(side), kind), targetOf(other));
      const hidden = hiddenTarget(targetOf(side), kind);
      const outOfScope = hidden ? probesOf(spec.request!(hidden)) : [];
      const visible = visibleTarget(targetOf(side), kind);
      const mixed = hidden && spec.id
        ? probesOf(spec.request!({ ...hidden, [spec.id]: visible[spec.id] }))
        : [];
      for (const [i, probe] of own.entries()) {
        // a role that may not use the route: 403 on the caller's own rows (sent only when forbidden,
        // so the matrix changes nothing)
        if (!(spec.gate(user) && (probe.gate?.(user) ?? true))) {
          const a = await m.send(side, kind, probe);
          m.expectStatus(key("role"), a, [403]);
        }
        for (const { probe: fp, ok } of spec.noIds ? [] : foreign[i]) {
          const f = await m.send(side, kind, fp);
          m.expectStatus(key(`foreign ${JSON.stringify(fp.json ?? fp.path).slice(0, 200)}`), f, ok);
          m.expectNoMarkers(key("foreign rows"), f, forbidden);
        }
        const h = outOfScope[i];
        if (h?.scope && scopesOf(kind).includes(h.scope)) {
          const s = await m.send(side, kind, h);
          m.expectStatus(key(`out of scope ${h.path}`), s, [403, 404]);
          m.expectNoMarkers(key("out of scope rows"), s, forbidden);
        }
        // the row in scope, what it points at out of scope (an inspection moved into a hidden job, a
        // user into another company): refused, unless that is the very same request as the own one
        const x = mixed[i];
        if (x?.scope && scopesOf(kind).includes(x.scope) && JSON.stringify(x) !== JSON.stringify(probe)) {
          const s = await m.send(side, kind, x);
          m.expectStatus(key(`mixed scope ${JSON.stringify(x.json ?? x.path).slice(0, 160)}`), s, [
            403,
            404,
            422,
          ]);
          m.expectNoMarkers(key("mixed scope rows"), s, forbidden);
        }
      }
    }
  }
}

Deno.test("isolation matrix - every write route x tenant x role refuses other tenants' and out-of-scope rows and forbidden roles", () =>
  withEnv(async (env) => {
    const [acme, beta] = await twoTenants(env);
    const before = [await snapshot(acme.tdb), await snapshot(beta.tdb)];
    const m = new Matrix(env);
    await writes(m, acme, beta);
    await writes(m, beta, acme);
    const after = [await snapshot(acme.tdb), await snapshot(beta.tdb)];
    m.summary("isolation matrix (writes)");
    assert.deepEqual(m.failures, []);
    assert.equal(m.foreignRows, 0, "foreign rows found");
    assert.deepEqual(changedTables(before[0], after[0]), [], "the matrix changed acme's data");
    assert.deepEqual(changedTables(before[1], after[1]), [], "the matrix changed beta's data");
  }));

Deno.test("isolation matrix - a user's update of their own account never widens their company, jobs or roles", () =>
  withEnv(async (env) => {
    const [acme, beta] = await twoTenants(env);
    const m = new Matrix(env);
    for (const [side, other] of [[acme, beta], [beta, acme]]) {
      for (const kind of USER_KINDS) {
        const u = side.users[kind];
        const before = (await side.tdb.db.select().from(users).where(eq(users.id, u.id)).get())!;
        const ids = side.ids;
        // everything a caller could want: the owner company, every job (and the other tenant's), every role
        const a = await m.send(side, kind, {
          method: "POST",
          path: "/api/admin/users",
          json: {
            id: u.id,
            name: before.name,
            email: before.email,
            phone: "555-0199",
            password: "another-pass-1",
            account_type: "Company-Admin",
            company_id: 1,
            permissions: [...ALL_GRANTS],
            jobs: [ids.J1, ids.J2, ids.J3, other.ids.J1],
            active: true,
          },
        });
        const key = `POST /api/admin/users ${kind}@${side.slug} self`;
        m.expectStatus(key, a, [200, 403, 404, 422]);
        const after = (await side.tdb.db.select().from(users).where(eq(users.id, u.id)).get())!;
        if (after.company_id !== before.company_id) {
          m.fail(key, `moved from company ${before.company_id} to ${after.company_id}`);
        }
        if (after.permissions.includes("superuser") && !before.permissions.includes("superuser")) {
          m.fail(key, "granted itself superuser");
        }
        if (!before.permissions.includes("user-admin")) {
          const was = JSON.stringify([before.permissions, before.jobs, before.account_type]);
          const now = JSON.stringify([after.permissions, after.jobs, after.account_type]);
          if (was !== now) m.fail(key, `changed its own roles, jobs or account type: ${was} -> ${now}`);
        } else if (after.jobs.includes(other.ids.J1)) m.fail(key, "took a job id of the other tenant");
      }
    }
    m.summary("isolation matrix (own account)");
    assert.deepEqual(m.failures, []);
  }));
