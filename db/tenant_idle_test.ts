import assert from "node:assert/strict";
import { withEnv } from "../scripts/testing/harness.ts";
import { testsOnSqld } from "../scripts/testing/sqld.ts";
import { companies } from "./schema/mod.ts";
import { statementCacheStats } from "./statement_cache.ts";
import { TenantCache } from "./tenants.ts";
import { clientBytes } from "./sqlite_client.ts";

/** Idle tenants give their memory back (decision 043): trimmed, then closed, never under a request. */
Deno.test("tenant cache - an idle tenant's connections are trimmed, then it is closed; one held is left alone", () =>
  withEnv(async (env) => {
    const cache = new TenantCache(env.dataDir, 10, {
      trimMs: 1_000,
      closeMs: 60_000,
      warm: 10,
      bytes: 2 ** 30,
    });
    try {
      const acme = (await env.services.catalog.bySlug("acme"))!;
      const { tdb, release } = await cache.acquire(acme);
      // A read while a transaction holds a connection: the client opens a second one.
      const tx = await tdb.client.transaction("read");
      await tdb.db.select().from(companies);
      tx.close();
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

Deno.test("tenant cache - past `warm` idle tenants, the least recently used are closed without waiting", () =>
  withEnv(async (env) => {
    const cache = new TenantCache(env.dataDir, 10, {
      trimMs: 3_600_000,
      closeMs: 7_200_000,
      warm: 1,
      bytes: 2 ** 30,
    });
    try {
      await env.addTenant("beta", "beta.test");
      const acme = (await env.services.catalog.bySlug("acme"))!;
      const beta = (await env.services.catalog.bySlug("beta"))!;
      const first = await cache.get(acme);
      for (const t of [acme, beta]) await (await cache.get(t)).db.select().from(companies);
      assert.deepEqual(cache.sweepIdle(), { trimmed: 0, closed: 1 }, "acme, used first");
      await new Promise((r) => setTimeout(r, 0));
      assert.equal(first.client.closed, true);
      assert.deepEqual(cache.sweepIdle(), { trimmed: 0, closed: 0 }, "beta stays warm");
      const { tdb, release } = await cache.acquire(acme);
      assert.notEqual(tdb, first, "opened again");
      assert.deepEqual(cache.sweepIdle(), { trimmed: 0, closed: 0 }, "acme held: beta is the one idle");
      release();
      assert.deepEqual(cache.sweepIdle(), { trimmed: 0, closed: 1 }, "beta now: acme is the warm one");
      assert.equal(cache.stats().open, 1);
    } finally {
      await cache.closeAll();
    }
  }));

// A remote tenant's memory is its server's (`clientBytes` is 0): the byte bound is for local files.
Deno.test({
  name:
    "tenant cache - past `bytes` of open tenants' estimated memory, the least recently used idle are closed",
  ignore: testsOnSqld(),
}, () =>
  withEnv(async (env) => {
    await env.addTenant("beta", "beta.test");
    await env.addTenant("gamma", "gamma.test");
    const slugs = ["acme", "beta", "gamma"];
    const tenants = await Promise.all(slugs.map(async (s) => (await env.services.catalog.bySlug(s))!));
    const cache = new TenantCache(env.dataDir, 10, {
      trimMs: 3_600_000,
      closeMs: 7_200_000,
      warm: 10,
      bytes: 1,
    });
    try {
      const opened = [];
      for (const t of tenants) {
        const tdb = await cache.get(t);
        await tdb.db.select().from(companies);
        opened.push(tdb);
        assert.ok(clientBytes(tdb.client) >= 400 * 1024, "a connection that has read the schema");
      }
      const { release } = await cache.acquire(tenants[2]);
      // Over a bound of 1 byte: every idle one is closed, the held one stays.
      assert.deepEqual(cache.sweepIdle(), { trimmed: 0, closed: 2 });
      assert.equal(cache.stats().open, 1);
      release();
      const roomy = new TenantCache(env.dataDir, 10, {
        trimMs: 3_600_000,
        closeMs: 7_200_000,
        warm: 10,
        bytes: 2 ** 30,
      });
      try {
        for (const t of tenants) await (await roomy.get(t)).db.select().from(companies);
        assert.deepEqual(roomy.sweepIdle(), { trimmed: 0, closed: 0 }, "under the bound: all stay");
      } finally {
        await roomy.closeAll();
      }
    } finally {
      await cache.closeAll();
    }
  }));
