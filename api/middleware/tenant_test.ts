import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { withEnv } from "../../scripts/testing/harness.ts";
import { tenant_hosts, tenants } from "../../db/catalog/schema.ts";
import { createTenant } from "../../db/provision.ts";
import { RETIRED, TenantCache } from "../../db/tenants.ts";
import { walSync } from "../../db/sqlite_client.ts";
import { openClient } from "../../db/client.ts";
import { companies } from "../../db/schema/mod.ts";

Deno.test("tenant - disabling answers 403 to every request, enabling restores it, without a restart", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const catalog = env.services.catalog.db;
    await catalog.update(tenants).set({ status: "disabled" }).where(eq(tenants.slug, "acme"));
    const res = await env.request("/api/admin/users/me", { token });
    assert.equal(res.status, 403);
    assert.match((await res.json()).detail, /suspended/);
    const page = await env.request("/signin");
    assert.equal(page.status, 403);
    await catalog.update(tenants).set({ status: "active" }).where(eq(tenants.slug, "acme"));
    await env.json("/api/admin/users/me", { token });
  }));

Deno.test("tenant - a tenant created after start is served at once, and a deleted one is 404", () =>
  withEnv(async (env) => {
    await createTenant(env.services.catalog, {
      slug: "late",
      name: "Late Co",
      hosts: ["late.test"],
      adminEmail: "boss@late.test",
      adminPassword: "late-password",
      scryptN: 1024,
    });
    const token = await env.login("boss@late.test", "late-password", "late.test");
    const me = await env.json("/api/admin/users/me", { token, host: "late.test" });
    assert.equal(me.company.name, "Late Co");
    const [t] = await env.services.catalog.db.select().from(tenants).where(eq(tenants.slug, "late"));
    await env.services.catalog.db.delete(tenant_hosts).where(eq(tenant_hosts.tenant_id, t.id));
    await env.services.catalog.db.delete(tenants).where(eq(tenants.id, t.id));
    assert.equal((await env.request("/api/admin/users/me", { token, host: "late.test" })).status, 404);
  }));

Deno.test("tenant - host names match case-insensitively and without the port", () =>
  withEnv(async (env) => {
    const token = await env.login();
    await env.json("/api/admin/users/me", { token, host: "ACME.test:8443" });
  }));

Deno.test("tenant cache - bounded: the least recently used database is closed, and reopens on demand", () =>
  withEnv(async (env) => {
    const cache = new TenantCache(env.dataDir, 1);
    const acme = (await env.services.catalog.bySlug("acme"))!;
    const a1 = await cache.get(acme);
    await env.addTenant("beta", "beta.test");
    const beta = (await env.services.catalog.bySlug("beta"))!;
    await cache.get(beta);
    await new Promise((r) => setTimeout(r, 10));
    assert.equal(a1.client.closed, true);
    const a2 = await cache.get(acme);
    assert.notEqual(a1, a2);
    assert.ok((await a2.db.select().from(companies)).length >= 1);
    await cache.closeAll();
  }));

Deno.test("tenant write queue - concurrent writes all land, none meets SQLITE_BUSY", () =>
  withEnv(async (env) => {
    const before = (await env.tenant.db.select().from(companies)).length;
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        env.tenant.write(async (tx) => {
          const rows = await tx.select().from(companies);
          await tx.insert(companies).values({
            name: `Queued ${i} after ${rows.length}`,
            company_type: "customer_company",
          });
        })),
    );
    const after = await env.tenant.db.select().from(companies);
    assert.equal(after.length, before + 40);
    // Each transaction saw every earlier one: the counts it read are all distinct.
    const seen = new Set(after.slice(before).map((c) => c.name.split(" after ")[1]));
    assert.equal(seen.size, 40);
  }));

Deno.test("tenant write queue - waiting writes share one commit; one that fails is undone alone with its own error", () =>
  withEnv(async (env) => {
    const db = env.tenant.db;
    const transaction = db.transaction.bind(db);
    let commits = 0;
    db.transaction = ((...args: Parameters<typeof transaction>) => {
      commits++;
      return transaction(...args);
    }) as typeof db.transaction;
    const before = (await db.select().from(companies)).length;
    const results = await Promise.allSettled(
      Array.from({ length: 30 }, (_, i) =>
        env.tenant.write(async (tx) => {
          await tx.insert(companies).values({ name: `Grouped ${i}`, company_type: "customer_company" });
          if (i % 3 === 1) throw new Error(`refused ${i}`);
          return i;
        })),
    );
    const names = (await db.select().from(companies)).slice(before).map((c) => c.name);
    assert.deepEqual(
      names,
      Array.from({ length: 30 }, (_, i) => i).filter((i) => i % 3 !== 1).map((i) => `Grouped ${i}`),
    );
    results.forEach((r, i) => {
      if (i % 3 === 1) assert.equal(r.status === "rejected" && (r.reason as Error).message, `refused ${i}`);
      else assert.equal(r.status === "fulfilled" && r.value, i);
    });
    assert.ok(commits < 10, `30 writes in ${commits} commits`);
  }));

Deno.test("tenant write queue - writes arriving while a commit is synced join the next group, which commits once that sync is done; each is answered after a sync begun after its commit", () =>
  withEnv(async (env) => {
    if (!env.tenant.url.startsWith("file:")) return; // a libSQL server commits durably in its own call
    const real = walSync.syncData;
    let release!: () => void;
    const held = new Promise<void>((r) => release = r);
    let holding = true;
    let syncs = 0;
    walSync.syncData = async (path) => {
      syncs++;
      if (holding) {
        holding = false;
        await held;
      }
      return real(path);
    };
    const insert = (name: string) => {
      const state = { answered: false };
      const done = env.tenant.write((tx) =>
        tx.insert(companies).values({ name, company_type: "customer_company" })
      )
        .then(() => state.answered = true);
      return { state, done };
    };
    const visible = async (name: string) =>
      Number(
        (await env.tenant.client.execute({
          sql: "select count(*) as n from companies where name = ?",
          args: [name],
        }))
          .rows[0].n,
      ) === 1;
    try {
      const a = insert("Pipelined A");
      await new Promise((r) => setTimeout(r, 20));
      assert.ok(await visible("Pipelined A"), "A is committed");
      assert.equal(a.state.answered, false, "A waits for its sync");
      const b = insert("Pipelined B");
      await new Promise((r) => setTimeout(r, 20));
      const c = insert("Pipelined C");
      await new Promise((r) => setTimeout(r, 20));
      assert.equal(await visible("Pipelined B"), false, "B's group waits for A's sync before it commits");
      assert.equal(b.state.answered, false);
      assert.equal(a.state.answered, false);
      const syncsBefore = syncs;
      release();
      await a.done;
      for (let i = 0; i < 100 && !(await visible("Pipelined C")); i++) {
        await new Promise((r) => setTimeout(r, 5));
      }
      assert.ok(await visible("Pipelined B") && await visible("Pipelined C"), "B and C committed together");
      await Promise.all([b.done, c.done]);
      assert.equal(syncs, syncsBefore + 1, "B and C shared one sync, begun after their commit");
    } finally {
      walSync.syncData = real;
      release();
    }
  }));

Deno.test("tenant write queue - a write committed before a restore's fence but durable only after it is refused (503), not acknowledged", () =>
  withEnv(async (env) => {
    if (!env.tenant.url.startsWith("file:")) return; // a libSQL server commits durably in its own call
    const real = walSync.syncData;
    let release!: () => void;
    const held = new Promise<void>((r) => release = r);
    let holding = true;
    walSync.syncData = async (path) => {
      if (holding) {
        holding = false;
        await held;
      }
      return real(path);
    };
    try {
      const write = env.tenant.write((tx) =>
        tx.insert(companies).values({ name: "Committed Before Fence", company_type: "customer_company" })
      ).then(() => "acknowledged", (e) => e);
      await new Promise((r) => setTimeout(r, 20));
      // The restore's fence, from its own connection, while the write waits for its sync.
      const cli = await openClient(env.tenant.url);
      try {
        await cli.execute(`PRAGMA user_version = ${RETIRED}`);
        release();
        const outcome = await write;
        assert.notEqual(outcome, "acknowledged");
        assert.equal((outcome as { status?: number }).status, 503);
        assert.match((outcome as Error).message, /being restored/);
      } finally {
        await cli.execute("PRAGMA user_version = 0");
        cli.close();
      }
    } finally {
      walSync.syncData = real;
      release();
    }
  }));
