import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { parseConfig } from "../api/config.ts";
import { closeServices, createApp, createServices } from "../api/app.ts";
import { GENERATION_BOUND_MS, HostCache } from "./catalog.ts";
import { tenants } from "./catalog/schema.ts";
import type { Tenant } from "./catalog/schema.ts";
import { createNamespace } from "./sqld.ts";
import { sqldAvailable, withSqld } from "../scripts/testing/sqld.ts";
import { cliWith } from "../scripts/testing/tenant_cli.ts";

const opts = { ignore: !sqldAvailable(), sanitizeResources: false, sanitizeOps: false };

const tenant = (id: number, name = "x".repeat(10)): Tenant => ({
  id,
  slug: `t${id}`,
  name,
  db_url: `http://t${id}.db.test:8080`,
  db_token: "token",
  status: "active",
  created_at: "2026-12-07T00:00:00Z",
});

Deno.test("host cache - bounded by bytes: the least recently used go first, unknown hosts count too", async () => {
  const cache = new HostCache(20_000);
  const g = await cache.current(() => Promise.resolve(1));
  for (let i = 0; i < 500; i++) cache.set(`h${i}.test`, i % 2 ? tenant(i) : undefined, g);
  assert.ok(cache.size.bytes <= 20_000, `${cache.size.bytes} bytes`);
  assert.ok(cache.size.entries > 20 && cache.size.entries < 500, `${cache.size.entries} entries`);
  assert.equal(cache.get("h0.test", g), undefined, "the oldest was evicted");
  assert.equal(cache.get("h499.test", g)?.tenant?.id, 499);
  // A large entry is not kept at all rather than emptying the cache for it.
  cache.set("big.test", tenant(1, "y".repeat(20_000)), g);
  assert.equal(cache.get("big.test", g), undefined);
  assert.equal(cache.get("h499.test", g)?.tenant?.id, 499);
});

Deno.test("host cache - a generation read at most checkMs ago is used as is; past it, read in the background; past boundMs, awaited", async () => {
  let now = 0;
  const cache = new HostCache(1 << 20, 1000, 2000, () => now);
  let reads = 0, generation = 7;
  const read = () => {
    reads++;
    return Promise.resolve(generation);
  };
  assert.equal(await cache.current(read), 7);
  cache.set("a.test", tenant(1), 7);
  now = 900;
  assert.equal(await cache.current(read), 7);
  assert.equal(reads, 1, "within checkMs: no read");
  generation = 8; // a write elsewhere
  now = 1500;
  assert.equal(
    await cache.current(read),
    7,
    "between checkMs and boundMs: served, checked in the background",
  );
  await Promise.resolve();
  await new Promise((r) => setTimeout(r, 0));
  assert.equal(reads, 2);
  assert.equal(cache.size.entries, 0, "a new generation empties the cache");
  assert.equal(await cache.current(read), 8);
  cache.set("a.test", tenant(1), 8);
  // A lookup read under an older generation is not kept.
  cache.set("b.test", tenant(2), 7);
  assert.equal(cache.get("b.test", 8), undefined);
  now = 1500 + 2001;
  generation = 9;
  assert.equal(await cache.current(read), 9, "past boundMs: the request waits for a fresh read");
  assert.equal(cache.get("a.test", 9), undefined);
});

Deno.test("host cache - a write of this instance: nothing cached is served until the generation is read again", async () => {
  let now = 0;
  const cache = new HostCache(1 << 20, 1000, 2000, () => now);
  let reads = 0, generation = 1;
  let release: (() => void) | undefined;
  const read = () => {
    reads++;
    return Promise.resolve(generation);
  };
  assert.equal(await cache.current(read), 1);
  cache.set("a.test", tenant(1), 1);
  // A read that started before the write and answers after it is not trusted.
  now = 1500;
  const slow = () => {
    reads++;
    const g = generation;
    return new Promise<number>((r) => release = () => r(g));
  };
  assert.equal(await cache.current(slow), 1); // served, the slow check in the background
  generation = 2;
  cache.invalidate();
  release!();
  await new Promise((r) => setTimeout(r, 0));
  assert.equal(cache.size.entries, 0);
  cache.set("a.test", tenant(1), 1);
  assert.equal(cache.size.entries, 0, "a lookup read before the write is not kept");
  const before = reads;
  assert.equal(await cache.current(read), 2, "the next request reads the generation");
  assert.equal(reads, before + 1);
});

/** The real CLI in a child process, to its end; it must succeed. */
async function cli(dataDir: string, env: Record<string, string>, ...args: string[]) {
  const out = await cliWith(dataDir, env, ...args);
  assert.equal(out.code, 0, out.stderr + out.stdout);
}

Deno.test({
  ...opts,
  name:
    "catalog cache - a change made by the CLI or another instance reaches every instance within the bound; a cached host costs no round trip",
  fn: () =>
    withSqld(async (sqld) => {
      const remote = await createNamespace(sqld.config, "catalog");
      const env = { ...sqld.env, CATALOG_URL: remote.url, CATALOG_TOKEN: remote.token };
      const dirs: string[] = [];
      const instance = async () => {
        const dataDir = mkdtempSync(join(tmpdir(), "catalog-cache-"));
        dirs.push(dataDir);
        const services = await createServices(parseConfig({
          DATA_DIR: dataDir,
          SCRYPT_N: "1024",
          LOG_REQUESTS: "false",
          DEMO_TENANT: "false",
          ...env,
        }));
        return { services, app: createApp(services) };
      };
      const one = await instance(), two = await instance();
      const cliDir = mkdtempSync(join(tmpdir(), "catalog-cache-cli-"));
      dirs.push(cliDir);
      const status = async (i: typeof one, host: string) => {
        const r = await i.app.request(`http://${host}/api/login/access-token`, {
          method: "POST",
          headers: { host, "content-type": "application/x-www-form-urlencoded" },
          body: "username=boss%40shared.test&password=shared-password",
        });
        await r.body?.cancel();
        return r.status;
      };
      /** Waits under a deadline (the bound and a margin) for every instance to answer `want`. */
      const reaches = async (host: string, want: number, what: string) => {
        const t0 = performance.now();
        for (;;) {
          const got = await Promise.all([status(one, host), status(two, host)]);
          if (got.every((s) => s === want)) return performance.now() - t0;
          if (performance.now() - t0 > GENERATION_BOUND_MS + 1500) {
            assert.fail(`${what}: instances answer ${got} ${Math.round(performance.now() - t0)} ms later`);
          }
          await new Promise((r) => setTimeout(r, 50));
        }
      };
      try {
        // Both instances look the host up before it exists: "unknown" is cached too.
        assert.equal(await status(one, "shared.test"), 404);
        assert.equal(await status(two, "shared.test"), 404);
        await cli(cliDir, env, ...[
          "create",
          "shared",
          "--name",
          "Shared Co",
          "--host",
          "shared.test",
          "--admin-email",
          "boss@shared.test",
          "--admin-password",
          "shared-password",
          "--remote",
        ]);
        await reaches("shared.test", 200, "a tenant made by the CLI");

        // Cached: another request resolves its host without reading it from the catalog again. (Counted on
        // this instance's host reads, not on the process's requests: the other instance's and this one's
        // background generation checks come when they are due, more often late on a loaded machine.)
        const gen = await one.services.catalog.generation();
        const catalog = one.services.catalog as unknown as { readHost(host: string): Promise<unknown> };
        const readHost = catalog.readHost.bind(catalog);
        let hostReads = 0;
        catalog.readHost = (host) => (hostReads++, readHost(host));
        assert.equal((await one.services.catalog.resolveHost("shared.test"))?.slug, "shared");
        assert.equal(hostReads, 0, "a cached host is not read again");
        catalog.readHost = readHost;
        assert.equal(await one.services.catalog.generation(), gen);

        await cli(cliDir, env, "disable", "shared");
        await reaches("shared.test", 403, "a tenant suspended by the CLI");
        await cli(cliDir, env, "enable", "shared");
        await reaches("shared.test", 200, "a tenant enabled again by the CLI");

        // Another instance's write (here, instance one's catalog, as a rotation of the token would write it)
        // raises the generation in its own transaction.
        const g0 = await two.services.catalog.generation();
        await one.services.catalog.db.update(tenants).set({ db_token: "rotated-but-wrong" })
          .where(eq(tenants.slug, "shared"));
        assert.ok(await two.services.catalog.generation() > g0, "the write raised the generation");
        // The new (wrong) token reaches both instances: their cached clients are replaced, and sqld refuses it.
        const t0 = performance.now();
        for (;;) {
          const got = await Promise.all([status(one, "shared.test"), status(two, "shared.test")]);
          if (got.every((s) => s >= 500)) break;
          assert.ok(performance.now() - t0 < GENERATION_BOUND_MS + 1500, `a rotated token: ${got}`);
          await new Promise((r) => setTimeout(r, 50));
        }

        await cli(cliDir, env, "delete", "shared", "--yes");
        await reaches("shared.test", 404, "a tenant deleted by the CLI");
      } finally {
        for (const i of [one, two]) await closeServices(i.services);
        for (const d of dirs) rmSync(d, { recursive: true, force: true });
      }
    }),
});
