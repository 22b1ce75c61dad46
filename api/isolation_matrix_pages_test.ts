// Issue 9's isolation matrix, pages: the server renders some pages with data (the ticket detail screens
// under each ticket list), so every GET page of the route table is tried too, as each kind of user, with
// ticket ids of the caller's tenant and of the other tenant, and with the other tenant's session.
import assert from "node:assert/strict";
import { withEnv } from "../scripts/testing/harness.ts";
import { routeTable } from "../scripts/testing/routes.ts";
import {
  changedTables,
  forbiddenMarkers,
  snapshot,
  type TenantSide,
  twoTenants,
} from "../scripts/testing/isolation_fixture.ts";
import { Matrix } from "../scripts/testing/isolation_matrix.ts";
import { SESSION_COOKIE } from "./middleware/session.ts";

/** Page routes the matrix does not open, with the reason. */
const EXCLUDED_PAGES: Record<string, string> = {
  "GET /healthz": "no session and no data: answers {ok: true} to anyone",
  "GET /readyz": "no session and no tenant data: readiness of the process (api/lifecycle_test.ts)",
  "GET /metrics":
    "process-wide figures, no tenant data; needs the operator's METRICS_TOKEN (api/metrics_test.ts)",
  "GET /assets/:name": "the built browser assets: the same static files for every tenant",
  "GET /assets/*": "anything else under /assets: 404 for every tenant",
  "GET /sw.js": "the offline service worker: the same built script for every tenant (ui/offline/sw_test.ts)",
  "GET /signin": "the public sign-in form",
  "POST /signin": "sign-in itself (the API's cross-tenant sign-in test covers the same login service)",
  "POST /signout": "ends the caller's own session; no data",
};

/** Pages are the same for the roles that only differ in what they may change. */
const PAGE_KINDS = ["admin", "salesAdmin", "noRoles", "customer", "operator", "dataEntry"] as const;

/**
 * A page path with its parameter set: an id to the side's ticket, a serial number to an inspected serial of
 * the side's job J1. The serial is sent in lower case (looked up regardless of case): the page repeats the
 * serial asked for, which must not count as a row of the tenant or job its marker names.
 */
function pagePath(path: string, side: TenantSide): string | undefined {
  const out = path.replace(/:id\{\[0-9\]\+\}/, String(side.ids.ticket))
    .replace(/:serial\b/, `${side.marker}-J1-SN1`.toLowerCase());
  return out.includes(":") || out.includes("*") ? undefined : out;
}

async function pages(m: Matrix, side: TenantSide, other: TenantSide) {
  for (const { method, path } of routeTable(m.env.app, "/")) {
    const route = `${method} ${path}`;
    if (path.startsWith("/api/") || route in EXCLUDED_PAGES) continue;
    m.routes.add(route);
    const withId = path.includes(":");
    const own = pagePath(path, side);
    if (!own) {
      m.fail(route, "a page parameter the matrix cannot fill: teach pagePath or exclude the page");
      continue;
    }
    // pages without an id render the shell only (~30 ms each): there, two scoped users; with an id, the
    // kinds that differ in what they may see
    for (const kind of withId ? PAGE_KINDS : (["customer", "dataEntry"] as const)) {
      const forbidden = forbiddenMarkers(side, other, kind);
      const cookie = `${SESSION_COOKIE}=${side.users[kind].token}`;
      const key = (check: string) => `${route} ${kind}@${side.slug} ${check}`;
      const a = await m.send(side, undefined, { method, path: own }, { cookie });
      // pages answer, send back to "/" (no access) or are not found (a ticket not in this list); a form's post
      // answers 303 back to its page (the check-in form: sent empty here, it checks nothing in)
      m.expectStatus(key("own"), a, method === "POST" ? [303, 302, 404] : [200, 302, 404]);
      m.expectNoMarkers(key("own rows"), a, forbidden);
      if (withId) {
        const f = await m.send(side, undefined, { method, path: pagePath(path, other)! }, {
          cookie,
        });
        m.expectStatus(key("foreign"), f, [302, 404]);
        m.expectNoMarkers(key("foreign rows"), f, forbidden);
      }
    }
    // the other tenant's session: signed out here, so sent to sign in
    const cookie = `${SESSION_COOKIE}=${other.users.admin.token}`;
    const x = await m.send(side, undefined, { method, path: pagePath(path, side)! }, { cookie });
    m.expectStatus(key2(route, other, side), x, [302]);
    if (x.status === 302 && !x.location?.startsWith("/signin")) {
      m.fail(key2(route, other, side), `sent to ${x.location}, not to sign in`);
    }
    m.expectNoMarkers(`${key2(route, other, side)} rows`, x, [`${side.marker}-`, `${other.marker}-`]);
  }
}

const key2 = (route: string, from: TenantSide, to: TenantSide) =>
  `${route} admin@${from.slug} cookie-on-${to.slug}`;

Deno.test("isolation matrix - pages show only the caller's tenant and scope; another tenant's session is sent to sign in", () =>
  withEnv(async (env) => {
    const [acme, beta] = await twoTenants(env);
    const before = [await snapshot(acme.tdb), await snapshot(beta.tdb)];
    const m = new Matrix(env);
    await pages(m, acme, beta);
    await pages(m, beta, acme);
    // the control: the admin's own ticket page shows the ticket
    const mine = await m.send(acme, undefined, { method: "GET", path: `/sales/tickets/${acme.ids.ticket}` }, {
      cookie: `${SESSION_COOKIE}=${acme.users.admin.token}`,
    });
    assert.equal(mine.status, 200);
    assert.ok(mine.text.includes("ACME-S-T-0001"), "the ticket page renders its ticket");
    const after = [await snapshot(acme.tdb), await snapshot(beta.tdb)];
    m.summary("isolation matrix (pages)");
    assert.deepEqual(m.failures, []);
    assert.equal(m.foreignRows, 0, "foreign rows found");
    assert.deepEqual(changedTables(before[0], after[0]), [], "pages changed acme's data");
    assert.deepEqual(changedTables(before[1], after[1]), [], "pages changed beta's data");
  }));
