// The reads of issue 9's isolation matrix, shared by the test files that split them by area.
import { routeTable } from "./routes.ts";
import { forbiddenMarkers, type TenantSide, USER_KINDS } from "./isolation_fixture.ts";
import { hiddenTarget, scopesOf, SPECS, visibleTarget } from "./isolation_specs.ts";
import { foreignProbes, type Matrix, probesOf, targetOf } from "./isolation_matrix.ts";

/**
 * The reads of the isolation matrix (api/isolation_matrix_reads*_test.ts): every GET route of the app
 * whose path `which` accepts, as every kind of user of `side`, with `other` the other tenant.
 */
export async function reads(
  m: Matrix,
  side: TenantSide,
  other: TenantSide,
  which: (path: string) => boolean,
) {
  for (const { method, path } of routeTable(m.env.app)) {
    const route = `${method} ${path}`;
    const spec = SPECS[route];
    if (!spec || method !== "GET" || !which(path)) continue;
    m.routes.add(route);
    for (const kind of USER_KINDS) {
      const user = side.users[kind];
      const forbidden = forbiddenMarkers(side, other, kind);
      const key = (check: string) => `${route} ${kind}@${side.slug} ${check}`;
      if (spec.kind === "list" || spec.kind === "download") {
        const q = spec.query!(targetOf(side));
        const a = await m.send(side, kind, { method, path: q ? `${path}?${q}` : path });
        if (!spec.gate(user)) {
          m.expectStatus(key("role"), a, [403]);
          continue;
        }
        m.expectStatus(key("list"), a, [200]);
        if (a.status !== 200) continue;
        if (spec.kind === "download" && !a.contentType.includes("spreadsheetml")) {
          m.fail(key("download"), `not an xlsx file: ${a.contentType}`);
        }
        m.expectNoMarkers(key("rows"), a, forbidden);
        m.expectHonestTotal(key("total"), a, `${path}?${q}`);
        const shows = spec.shows?.(side.marker, kind);
        if (shows && !a.text.includes(shows)) m.fail(key("shows"), `answer lacks its own rows (${shows})`);
        // filtered by each row of the data set: still nothing out of scope (scoped users; the admin is
        // the control that the filters find rows), and nothing of the other tenant's
        // (downloads share their list's query and take ~50 ms each: there, the customer only)
        const filtered = spec.kind === "download"
          ? kind === "customer"
          : scopesOf(kind).length > 0 || kind === "admin";
        for (const fq of filtered ? spec.filters?.(targetOf(side)) ?? [] : []) {
          const f = await m.send(side, kind, { method, path: `${path}?${fq}` });
          m.expectStatus(key(`filter ${fq}`), f, kind === "admin" ? [200] : [200, 403, 404]);
          m.expectNoMarkers(key(`filter rows ${fq}`), f, forbidden);
          m.expectHonestTotal(key(`filter total ${fq}`), f, `${path}?${fq}`);
        }
        for (
          const fq of kind === "admin" && spec.kind === "list" ? spec.filters?.(targetOf(other)) ?? [] : []
        ) {
          const f = await m.send(side, kind, { method, path: `${path}?${fq}` });
          m.expectStatus(key(`foreign filter ${fq}`), f, [200, 404, 422]);
          m.expectNoMarkers(key(`foreign filter rows ${fq}`), f, forbidden);
          m.expectHonestTotal(key(`foreign filter total ${fq}`), f, `${path}?${fq}`);
        }
        // the same list filtered by ids of the other tenant: nothing of theirs, whatever the status
        const fq = spec.query!(targetOf(other));
        if (fq !== q) {
          const f = await m.send(side, kind, { method, path: `${path}?${fq}` });
          m.expectStatus(key("foreign filter"), f, [200, 404, 422]);
          m.expectNoMarkers(key("foreign filter rows"), f, forbidden);
        }
        continue;
      }
      // read by id: own (visible) rows, the other tenant's rows, and rows outside the user's scope
      const own = probesOf(spec.request!(visibleTarget(targetOf(side), kind)));
      const foreign = foreignProbes(spec, visibleTarget(targetOf(side), kind), targetOf(other));
      const hidden = hiddenTarget(targetOf(side), kind);
      const outOfScope = hidden ? probesOf(spec.request!(hidden)) : [];
      for (const [i, probe] of own.entries()) {
        const allowed = spec.gate(user) && (probe.gate?.(user) ?? true);
        const a = await m.send(side, kind, probe);
        m.expectStatus(key(`own ${probe.path}`), a, allowed ? [200] : [403, 404]);
        if (a.status === 200) m.expectNoMarkers(key(`own rows ${probe.path}`), a, forbidden);
        const shows = i === 0 && a.status === 200 ? spec.shows?.(side.marker, kind) : undefined;
        if (shows && !a.text.includes(shows)) m.fail(key("shows"), `answer lacks its own row (${shows})`);
        for (const { probe: fp, ok } of foreign[i]) {
          const f = await m.send(side, kind, fp);
          m.expectStatus(key(`foreign ${fp.path}`), f, ok);
          m.expectNoMarkers(key(`foreign rows ${fp.path}`), f, forbidden);
        }
        const h = outOfScope[i];
        if (h?.scope && scopesOf(kind).includes(h.scope)) {
          const s = await m.send(side, kind, h);
          m.expectStatus(key(`out of scope ${h.path}`), s, [403, 404]);
          m.expectNoMarkers(key(`out of scope rows ${h.path}`), s, forbidden);
        }
      }
    }
  }
}
