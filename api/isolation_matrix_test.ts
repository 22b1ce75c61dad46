// Issue 9's isolation matrix: the route table is the source. This file checks that every API route is
// known to the matrix (scripts/testing/isolation_specs.ts) and that a session never crosses tenants; the
// reads and writes of every route x tenant x role are in isolation_matrix_reads_test.ts and
// isolation_matrix_writes_test.ts.
import assert from "node:assert/strict";
import { testEnv, withEnv } from "../scripts/testing/harness.ts";
import { type RouteEntry, routeTable } from "../scripts/testing/routes.ts";
import {
  changedTables,
  markersIn,
  snapshot,
  type TenantSide,
  twoTenants,
  USER_KINDS,
} from "../scripts/testing/isolation_fixture.ts";
import { EXCLUDED, type Probe, SPECS } from "../scripts/testing/isolation_specs.ts";
import { Matrix, probesOf, targetOf } from "../scripts/testing/isolation_matrix.ts";
import { SESSION_COOKIE } from "./middleware/session.ts";
import { closeServices, createApp, createServices } from "./app.ts";
import { parseConfig } from "./config.ts";

/** Routes of the table the matrix does not know how to exercise. */
function uncovered(routes: RouteEntry[]): string[] {
  return routes.map((r) => `${r.method} ${r.path}`).filter((k) => !(k in SPECS) && !(k in EXCLUDED));
}

Deno.test("isolation matrix - every API route is exercised by the matrix or excluded with a reason", async () => {
  const env = await testEnv();
  try {
    const routes = routeTable(env.app);
    const keys = new Set(routes.map((r) => `${r.method} ${r.path}`));
    assert.ok(routes.length > 90, `route table too small: ${routes.length}`);
    assert.deepEqual(
      uncovered(routes),
      [],
      "routes the isolation matrix does not know: add them to SPECS in scripts/testing/isolation_specs.ts",
    );
    // the check itself notices a new route
    assert.deepEqual(uncovered([...routes, { method: "GET", path: "/api/new/:id" }]), ["GET /api/new/:id"]);
    const stale = [...Object.keys(SPECS), ...Object.keys(EXCLUDED)].filter((k) => !keys.has(k));
    assert.deepEqual(stale, [], "entries for routes the app no longer has");
    assert.deepEqual(Object.keys(EXCLUDED).filter((k) => k in SPECS), [], "both exercised and excluded");
    for (const [key, spec] of Object.entries(SPECS)) {
      const get = key.startsWith("GET ");
      const reads = spec.kind === "list" || spec.kind === "download" || spec.kind === "read-id";
      assert.equal(reads, get, `${key}: kind ${spec.kind} for a ${key.split(" ")[0]} route`);
      if (spec.kind === "list" || spec.kind === "download") assert.ok(spec.query, `${key}: no query`);
      else assert.ok(spec.request, `${key}: no request`);
      if (spec.kind === "download") assert.match(key, /\/download$/, `${key}: a download route?`);
    }
    for (const [key, why] of Object.entries(EXCLUDED)) assert.ok(why.length > 10, `${key}: give the reason`);
  } finally {
    await env.close();
  }
});

/** One request per route, aimed at rows that exist on the host it is sent to. */
function probeFor(key: string, host: TenantSide): Probe | undefined {
  const spec = SPECS[key];
  if (!spec) return undefined;
  const [method, path] = key.split(" ");
  if (spec.kind === "list" || spec.kind === "download") {
    const q = spec.query!(targetOf(host));
    return { method, path: q ? `${path}?${q}` : path };
  }
  return probesOf(spec.request!(targetOf(host)))[0];
}

Deno.test("isolation matrix - a session of one tenant is 401 on the other tenant's host, on every route; writes from its pages are refused", () =>
  withEnv(async (env) => {
    const [acme, beta] = await twoTenants(env);
    const before = [await snapshot(acme.tdb), await snapshot(beta.tdb)];
    const m = new Matrix(env);
    for (const [from, to] of [[acme, beta], [beta, acme]]) {
      for (const { method, path } of routeTable(env.app)) {
        const key = `${method} ${path}`;
        const probe = probeFor(key, to);
        if (!probe) continue;
        m.routes.add(key);
        for (const kind of USER_KINDS) {
          const a = await m.send(to, undefined, probe, { token: from.users[kind].token });
          m.expectStatus(`${key} ${kind}@${from.slug} bearer-on-${to.slug}`, a, [401]);
          m.expectNoMarkers(`${key} ${kind}@${from.slug} bearer-on-${to.slug} rows`, a, [`${to.marker}-`]);
        }
        const cookie = `${SESSION_COOKIE}=${from.users.admin.token}`;
        const c = await m.send(to, undefined, probe, { cookie });
        m.expectStatus(`${key} admin@${from.slug} cookie-on-${to.slug}`, c, [401]);
        // a page of the other tenant's host writing with this tenant's cookie (cross-site): refused
        if (method !== "GET") {
          const own = probeFor(key, to)!;
          const cookie = `${SESSION_COOKIE}=${to.users.admin.token}`;
          const w = await m.send(to, undefined, own, { cookie, origin: `http://${from.host}` });
          m.expectStatus(`${key} admin@${to.slug} cookie-from-${from.slug}-page`, w, [403]);
        }
        // the control of the check above: on its own host the same session reads (writes would change data)
        if (method === "GET") {
          const own = await m.send(from, "admin", probeFor(key, from)!);
          if (own.status === 401) m.fail(`${key} admin@${from.slug} own-host`, "401 on its own tenant");
        }
      }
    }
    // sign-out (excluded from the route loop: it answers 204 signed in or not) with the other tenant's
    // session revokes nothing here (the snapshots below) and leaves that session working at home
    for (const [from, to] of [[acme, beta], [beta, acme]]) {
      const out = await m.send(to, undefined, { method: "POST", path: "/api/logout" }, {
        token: from.users.admin.token,
      });
      m.expectStatus(`POST /api/logout admin@${from.slug} bearer-on-${to.slug}`, out, [204, 401]);
      const me = await m.send(from, "admin", { method: "GET", path: "/api/admin/users/me" });
      m.expectStatus(`GET /api/admin/users/me admin@${from.slug} after sign-out on ${to.slug}`, me, [200]);
    }
    const after = [await snapshot(acme.tdb), await snapshot(beta.tdb)];
    m.summary("isolation matrix (cross-tenant sessions)");
    assert.deepEqual(m.failures, []);
    assert.equal(m.foreignRows, 0);
    assert.deepEqual(changedTables(before[0], after[0]), [], "acme's data changed");
    assert.deepEqual(changedTables(before[1], after[1]), [], "beta's data changed");
  }));

Deno.test("isolation matrix - a user of one tenant cannot sign in on the other tenant's host", () =>
  withEnv(async (env) => {
    const [acme, beta] = await twoTenants(env);
    let requests = 0;
    for (const [from, to] of [[acme, beta], [beta, acme]]) {
      // the admins share an email and password (the harness makes both tenants that way): skipped
      for (const kind of USER_KINDS.filter((k) => k !== "admin")) {
        const form = { username: from.users[kind].email, password: "password123" };
        const res = await env.request("/api/login/access-token", { method: "POST", form, host: to.host });
        const text = await res.text();
        requests++;
        assert.equal(res.status, 401, `${kind}@${from.slug} on ${to.host}: ${text}`);
        assert.deepEqual(markersIn(text, [`${from.marker}-`, `${to.marker}-`]), {});
        // the control: the same credentials on their own host sign in
        const ok = await env.request("/api/login/access-token", { method: "POST", form, host: from.host });
        await ok.body?.cancel();
        requests++;
        assert.equal(ok.status, 200, `${kind}@${from.slug} on its own host`);
      }
    }
    console.log(`isolation matrix (cross-tenant sign-in): ${requests} requests`);
  }));

Deno.test("isolation matrix - under tenant cache pressure, concurrent requests of both tenants answer only their own rows", () =>
  withEnv(async (env) => {
    const [acme, beta] = await twoTenants(env);
    // a second server over the same data, holding one tenant database at a time: every other request
    // evicts the database a request of the other tenant may still be using
    const services = await createServices(parseConfig({
      DATA_DIR: env.dataDir,
      SCRYPT_N: "1024",
      LOG_REQUESTS: "false",
      DEMO_TENANT: "false",
      SESSION_SECRET: "test-secret-test-secret-test-secret-0123",
      TENANT_CACHE_SIZE: "1",
    }));
    try {
      const m = new Matrix({ ...env, app: createApp(services) });
      const paths = (s: TenantSide) => [
        "/api/pt/jobs?page=1&rowsPerPage=-1",
        "/api/pt/inspections/download?page=1&rowsPerPage=-1",
        `/api/pt/jobs/${s.ids.J2}`,
        "/api/sales/tickets?page=1&rowsPerPage=-1",
        `/api/sales/tickets/${s.ids.ticket}`,
        "/api/admin/users?page=1&rowsPerPage=-1",
      ];
      let answers = 0;
      let ok = 0;
      for (let round = 0; round < 4; round++) {
        const calls = [acme, beta].flatMap((s) =>
          paths(s).map(async (path) => {
            const other = s === acme ? beta : acme;
            const a = await m.send(s, "admin", { method: "GET", path });
            const key = `GET ${path} admin@${s.slug} cache-of-1 round ${round}`;
            m.expectStatus(key, a, [200]);
            m.expectNoMarkers(key, a, [`${other.marker}-`, other.ownerName]);
            if (a.status === 200 && !a.text.includes(`${s.marker}-`)) m.fail(key, "none of its own rows");
            if (a.status === 200) ok++;
            answers++;
          })
        );
        await Promise.all(calls);
      }
      m.summary("isolation matrix (tenant cache of 1)");
      assert.equal(answers, 4 * 2 * 6);
      assert.ok(ok > 0, `none of ${answers} answered: the rows checks above mean nothing`);
      assert.deepEqual(m.failures, []);
      assert.equal(m.foreignRows, 0);
    } finally {
      await closeServices(services);
    }
  }));
