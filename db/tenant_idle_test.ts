import assert from "node:assert/strict";
import { withEnv } from "../scripts/testing/harness.ts";
import { companies } from "./schema/mod.ts";
import { statementCacheStats } from "./statement_cache.ts";
import { TenantCache } from "./tenants.ts";

/** Idle tenants give their memory back (decision 043): trimmed, then closed, never under a request. */
Deno.test("tenant cache - an idle tenant's connections are trimmed, then it is closed; one held is left alone", () =>
  withEnv(async (env) => {
    const cache = new TenantCache(env.dataDir, 10, { trimMs: 1_000, closeMs: 60_000, warm: 10 });
    try {
      const acme = (await env.services.catalog.bySlug("acme"))!;
      const { tdb, release } = await cache.acquire(acme);
      // Three reads at once: the client opens more than one connection.
      await Promise.all([1, 2, 3].map(() => tdb.db.select().from(companies)));
      const later = performance.now() + 3_600_000;
      assert.deepEqual(cache.sweepIdle(later), { trimmed: 0, closed: 0 }, "held by a request");
      assert.equal(tdb.client.closed, false);
      release();

      const open = statementCacheStats.connections;
      const kept = statementCacheStats.cached;
      assert.deepEqual(cache.sweepIdle(performance.now() + 2_000), { trimmed: 1, closed: 0 });
      assert.ok(statementCacheStats.connections < open, "idle connections closed");
      assert.ok(statementCacheStats.cached < kept, "with their statements");
      assert.deepEqual(cache.sweepIdle(performance.now() + 2_000), { trimmed: 0, closed: 0 }, "trimmed once");
      assert.ok((await cache.get(acme)).db === tdb.db, "still open, and answers");
      assert.ok((await tdb.db.select().from(companies)).length >= 1);

      assert.deepEqual(cache.sweepIdle(performance.now() + 61_000), { trimmed: 0, closed: 1 });
      await new Promise((r) => setTimeout(r, 0));
      assert.equal(tdb.client.closed, true);
      assert.equal(cache.stats().open, 0);
      const again = await cache.get(acme);
      assert.notEqual(again, tdb);
      assert.ok((await again.db.select().from(companies)).length >= 1, "opened again on demand");
    } finally {
      await cache.closeAll();
    }
  }));

Deno.test("tenant cache - past `warm` idle tenants, the least recently used are trimmed without waiting", () =>
  withEnv(async (env) => {
    const cache = new TenantCache(env.dataDir, 10, { trimMs: 3_600_000, closeMs: 7_200_000, warm: 1 });
    try {
      await env.addTenant("beta", "beta.test");
      const acme = (await env.services.catalog.bySlug("acme"))!;
      const beta = (await env.services.catalog.bySlug("beta"))!;
      for (const t of [acme, beta]) await (await cache.get(t)).db.select().from(companies);
      assert.deepEqual(cache.sweepIdle(), { trimmed: 1, closed: 0 }, "acme, used first");
      assert.deepEqual(cache.sweepIdle(), { trimmed: 0, closed: 0 }, "beta stays warm");
      await (await cache.get(acme)).db.select().from(companies);
      assert.deepEqual(cache.sweepIdle(), { trimmed: 1, closed: 0 }, "beta now: acme is the warm one");
    } finally {
      await cache.closeAll();
    }
  }));
