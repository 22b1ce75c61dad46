import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Buffer } from "node:buffer";
import { randomBytes } from "node:crypto";
import { fileURLToPath as fromFileUrl } from "node:url";
import { openClient } from "../db/client.ts";
import { createNamespace } from "../db/sqld.ts";
import { createTenant } from "../db/provision.ts";
import { companies, files, revoked_sessions } from "../db/schema/mod.ts";
import type { Tenant } from "../db/catalog/schema.ts";
import { type TestEnv, withEnv } from "./testing/harness.ts";
import { freePort, type RunningSqld, sqldAvailable, withSqld } from "./testing/sqld.ts";
import { run } from "./tenant.ts";
import { until } from "./testing/until.ts";

const ROOT = fromFileUrl(new URL("..", import.meta.url));
const opts = { ignore: !sqldAvailable(), sanitizeResources: false, sanitizeOps: false };

const createArgs = (slug: string, ...more: string[]) => [
  "create",
  slug,
  "--name",
  `${slug} Remote Co`,
  "--host",
  `${slug}.test`,
  "--admin-email",
  `boss@${slug}.test`,
  "--admin-password",
  "remote-password",
  ...more,
];

/** The real CLI in a child process, with `env` on top of DATA_DIR. */
async function cli(dataDir: string, env: Record<string, string>, ...args: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "scripts/tenant.ts", ...args],
    cwd: ROOT,
    env: { DATA_DIR: dataDir, SCRYPT_N: "1024", ...env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

async function tenantOf(env: TestEnv, slug: string): Promise<Tenant> {
  return (await env.services.catalog.bySlug(slug))!;
}

/** Rows of a query on a database, opened with `token`; throws as the server refuses. */
async function query(url: string, token: string | null, sql: string) {
  const c = await openClient(url, token);
  try {
    return (await c.execute(sql)).rows;
  } finally {
    c.close();
  }
}

const createdName = async (env: TestEnv, token: string, host: string, name: string) =>
  await env.json("/api/companies", {
    token,
    host,
    method: "POST",
    json: { name, company_type: "customer_company", custom: {}, settings: "{}" },
  });

const companyNames = async (env: TestEnv, token: string, host: string) =>
  ((await env.json("/api/admin/companies?rowsPerPage=-1", { token, host })).results as { name: string }[])
    .map((c) => c.name).sort();

async function withRemote(fn: (env: TestEnv, sqld: RunningSqld) => Promise<void>) {
  await withSqld((sqld) => withEnv((env) => fn(env, sqld)));
}

Deno.test({
  ...opts,
  name:
    "remote tenants - create --remote makes a namespace only its own token opens; its admin signs in and writes; delete removes it",
  fn: () =>
    withRemote(async (env, sqld) => {
      const [line] = await run(createArgs("north", "--remote"), { dataDir: env.dataDir, sqld: sqld.config });
      assert.match(line, /^created tenant north/);
      const t = await tenantOf(env, "north");
      assert.equal(t.db_url, sqld.config.baseUrl.replace("//", "//north."));
      assert.ok(t.db_token);
      const config = await fetch(`${sqld.config.adminUrl}/v1/namespaces/north/config`).then((r) => r.json());
      assert.equal(config.durability_mode, "strong", "every commit synced, as a file tenant's");

      const token = await env.login("boss@north.test", "remote-password", "north.test");
      await createdName(env, token, "north.test", "Written Through The App");
      const rows = await query(t.db_url, t.db_token, "SELECT name FROM companies ORDER BY id");
      assert.deepEqual(rows.map((r) => r.name), ["north Remote Co", "Written Through The App"]);

      // No token, or another namespace's token, is refused by sqld itself.
      const other = await createNamespace(sqld.config, "other");
      await assert.rejects(query(t.db_url, null, "SELECT 1"), /401/);
      await assert.rejects(query(t.db_url, other.token, "SELECT 1"), /401/);

      const [list] = await run(["list"], { dataDir: env.dataDir });
      assert.ok(!list.includes(t.db_token!), "list never shows a token");

      const [deleted] = await run(["delete", "north", "--yes"], { dataDir: env.dataDir, sqld: sqld.config });
      assert.equal(deleted, "deleted north and its namespace north on the libSQL server");
      await assert.rejects(query(t.db_url, t.db_token, "SELECT 1"), /404/);
    }),
});

Deno.test({
  ...opts,
  name: "remote tenants - an unreachable server or a taken namespace is one error line, exit 1, no tenant",
  fn: () =>
    withRemote(async (env, sqld) => {
      const down = { SQLD_ADMIN_URL: `http://127.0.0.1:${freePort()}`, SQLD_URL: sqld.config.baseUrl };
      const r1 = await cli(env.dataDir, down, ...createArgs("south", "--remote"));
      assert.equal(r1.code, 1);
      assert.match(
        r1.stderr,
        /^error: the libSQL server's admin API at http:\/\/127\.0\.0\.1:\d+ does not answer/,
      );
      assert.equal(r1.stderr.trim().split("\n").length, 1);

      await createNamespace(sqld.config, "taken");
      const r2 = await cli(env.dataDir, sqld.env, ...createArgs("taken", "--remote"));
      assert.equal(r2.code, 1);
      assert.match(r2.stderr, /^error: could not create namespace "taken": Namespace `taken` already exists/);

      const r3 = await cli(env.dataDir, {}, ...createArgs("west", "--remote"));
      assert.equal(r3.code, 1);
      assert.match(r3.stderr, /^error: --remote needs the libSQL server: set SQLD_ADMIN_URL and SQLD_URL/);

      for (const slug of ["south", "taken", "west"]) assert.equal(await tenantOf(env, slug), undefined);
      assert.ok(!existsSync(join(env.dataDir, "tenants/south.db")));
    }),
});

Deno.test({
  ...opts,
  name: "remote tenants - a failed step after the namespace is made deletes the namespace again",
  fn: () =>
    withRemote(async (env, sqld) => {
      // A host taken between the checks and the catalog write: the catalog insert fails last.
      const catalog = env.services.catalog;
      const real = catalog.hostsTaken.bind(catalog);
      catalog.hostsTaken = () => Promise.resolve([]);
      try {
        await assert.rejects(
          createTenant(catalog, {
            slug: "east",
            name: "East",
            hosts: ["acme.test"],
            adminEmail: "boss@east.test",
            adminPassword: "remote-password",
            remote: true,
            scryptN: 1024,
          }, sqld.config),
          /could not create tenant "east"/,
        );
      } finally {
        catalog.hostsTaken = real;
      }
      assert.equal(await tenantOf(env, "east"), undefined);
      // The name is free again: nothing half-made is left on the server.
      await createNamespace(sqld.config, "east");
    }),
});

Deno.test({
  ...opts,
  name: "remote tenants - backup then restore brings the data back into a new namespace the app then serves",
  fn: () =>
    withRemote(async (env, sqld) => {
      const o = { dataDir: env.dataDir, sqld: sqld.config };
      await run(createArgs("north", "--remote"), o);
      await run(["seed-demo", "north"], { ...o, scryptN: 1024 });
      const token = await env.login("boss@north.test", "remote-password", "north.test");
      await createdName(env, token, "north.test", "Before Backup");
      const old = await tenantOf(env, "north");
      const stale = await env.services.tenants.get(old);

      const out = join(env.dataDir, "north.db");
      const [backedUp] = await run(["backup", "north", "--out", out], o);
      assert.match(backedUp, /^backed up north from http:\/\/north\.localhost:\d+ to /);
      assert.equal(new TextDecoder().decode(readFileSync(out).subarray(0, 15)), "SQLite format 3");
      assert.ok(!existsSync(`${out}-wal`), "the backup is one self-contained file");
      await createdName(env, token, "north.test", "After Backup");

      const tables = [
        "companies",
        "users",
        "jobs",
        "inspections",
        "inventory",
        "tickets",
        "__drizzle_migrations",
      ];
      const counts = async (url: string, tok: string | null) =>
        Object.fromEntries(
          await Promise.all(
            tables.map(async (
              t,
            ) => [t, Number((await query(url, tok, `SELECT count(*) AS n FROM ${t}`))[0].n)]),
          ),
        );
      const before = await counts(old.db_url, old.db_token);
      const search = `SELECT rowid FROM inspections_fts WHERE inspections_fts MATCH '"100"' ORDER BY rowid`;
      const found = (await query(old.db_url, old.db_token, search)).map((r) => r.rowid);
      assert.ok(found.length > 0);

      const [restored] = await run(["restore", "north", "--from", out], o);
      assert.match(
        restored,
        /^restored north from .* into namespace north-\d{8}t\d+z; deleted namespace north$/,
      );
      const now = await tenantOf(env, "north");
      assert.notEqual(now.db_url, old.db_url);
      assert.notEqual(now.db_token, old.db_token);

      // The data as it was at the backup: counts, full-text index and exact values.
      const after = await counts(now.db_url, now.db_token);
      assert.deepEqual(after, { ...before, companies: before.companies - 1 });
      assert.deepEqual((await query(now.db_url, now.db_token, search)).map((r) => r.rowid), found);
      assert.equal((await query(now.db_url, now.db_token, "PRAGMA user_version"))[0].user_version, 0);
      assert.equal(
        (await query(now.db_url, now.db_token, "PRAGMA integrity_check"))[0].integrity_check,
        "ok",
      );

      // The running app follows the catalog to the new namespace; the same session still works.
      const names = await companyNames(env, token, "north.test");
      assert.ok(names.includes("Before Backup") && !names.includes("After Backup"));
      await createdName(env, token, "north.test", "After Restore");
      const rows = await query(
        now.db_url,
        now.db_token,
        "SELECT name FROM companies WHERE name = 'After Restore'",
      );
      assert.equal(rows.length, 1);

      // An instance still holding the old database cannot have a write acknowledged there.
      await assert.rejects(stale.write((tx) => tx.run("SELECT 1")));
      await assert.rejects(query(old.db_url, old.db_token, "SELECT 1"), /404/);

      // A backup of the restored tenant opens as the same kind of file.
      await run(["backup", "north", "--out", join(env.dataDir, "again.db")], o);
      assert.ok(existsSync(join(env.dataDir, "again.db")));
    }),
});

Deno.test({
  ...opts,
  name: "remote tenants - a backup that is not a tenant database is refused and the tenant stays as it was",
  fn: () =>
    withRemote(async (env, sqld) => {
      const o = { dataDir: env.dataDir, sqld: sqld.config };
      await run(createArgs("north", "--remote"), o);
      const old = await tenantOf(env, "north");
      // A SQLite file that is not a tenant database: refused before any namespace is made.
      const notTenant = join(env.dataDir, "plain.db");
      const c = await openClient("file:" + notTenant);
      await c.execute("CREATE TABLE t (x)");
      c.close();
      await assert.rejects(run(["restore", "north", "--from", notTenant], o), /is not a tenant database/);
      await assert.rejects(
        run(["restore", "north", "--from", notTenant], { dataDir: env.dataDir }),
        /needs SQLD_ADMIN_URL and SQLD_URL/,
      );
      assert.deepEqual(await tenantOf(env, "north"), old);
      assert.equal((await query(old.db_url, old.db_token, "PRAGMA user_version"))[0].user_version, 0);
      const token = await env.login("boss@north.test", "remote-password", "north.test");
      await createdName(env, token, "north.test", "Still Writable");
    }),
});

Deno.test({
  ...opts,
  name:
    "remote tenants - restore under 8 writers: every write sent after the switch and acknowledged is in the new namespace",
  fn: () =>
    withRemote(async (env, sqld) => {
      const o = { dataDir: env.dataDir, sqld: sqld.config };
      await run(createArgs("north", "--remote"), o);
      const token = await env.login("boss@north.test", "remote-password", "north.test");
      // `sent`: when the request left. A write sent after the switch finds the new namespace; one sent before
      // may have committed on the old one just before its fence and be answered after the switch (the restore
      // takes the tenant back to the backup: that write is of the time before it).
      const create = async (name: string) => {
        const sent = performance.now();
        const res = await env.request("/api/companies", {
          method: "POST",
          token,
          host: "north.test",
          json: { name, company_type: "customer_company" },
        });
        await res.body?.cancel();
        return { name, status: res.status, at: sent };
      };
      assert.equal((await create("Before Backup")).status, 200);
      const backup = join(env.dataDir, "backup.db");
      await run(["backup", "north", "--out", backup], o);

      let stopAt = Infinity;
      const acks: { name: string; status: number; at: number }[][] = Array.from({ length: 8 }, () => []);
      const writers = acks.map(async (mine, w) => {
        for (let n = 0; performance.now() < stopAt; n++) mine.push(await create(`W${w}-${n}`));
      });
      const before = (await tenantOf(env, "north")).db_url;
      let switched = Infinity;
      const cache = env.services.tenants;
      const acquire = cache.acquire.bind(cache);
      cache.acquire = async (t) => {
        const held = await acquire(t);
        if (switched === Infinity && held.tdb.tenant.db_url !== before) switched = performance.now();
        return held;
      };
      // Every writer has had writes acknowledged before the restore starts.
      await until(() => acks.every((mine) => mine.length >= 2), "every writer saving");
      const out = await cli(env.dataDir, sqld.env, "restore", "north", "--from", backup);
      const exited = performance.now();
      assert.equal(out.code, 0, out.stderr);
      stopAt = exited + 400;
      await Promise.all(writers);
      assert.ok(switched < exited, "the switch was seen");

      const now = await tenantOf(env, "north");
      const present = new Set(
        (await query(now.db_url, now.db_token, "SELECT name FROM companies")).map((r) => String(r.name)),
      );
      assert.ok(present.has("Before Backup"));
      const all = acks.flat();
      assert.deepEqual([...new Set(all.map((a) => a.status))].filter((s) => s !== 200 && s !== 503), []);
      let afterSwitch = 0;
      for (const mine of acks) {
        for (const a of mine.filter((a) => a.status === 200 && a.at > switched)) {
          afterSwitch++;
          assert.ok(present.has(a.name), `${a.name}, sent after the switch and acknowledged, is lost`);
        }
      }
      assert.ok(afterSwitch >= 8, `writes kept landing after the restore (${afterSwitch})`);
    }),
});

Deno.test({
  ...opts,
  name:
    "remote tenants - a file tenant's backup restores into a remote tenant, and a remote one's into a file tenant",
  fn: () =>
    withRemote(async (env, sqld) => {
      const o = { dataDir: env.dataDir, sqld: sqld.config };
      await run(createArgs("north", "--remote"), o);
      const acmeToken = await env.login();
      await createdName(env, acmeToken, env.host, "Made In The File Tenant");
      const fromFile = join(env.dataDir, "acme.db");
      await run(["backup", "acme", "--out", fromFile], o);

      await run(["restore", "north", "--from", fromFile], o);
      // north now holds acme's data, its admin included.
      const northToken = await env.login(undefined, undefined, "north.test");
      assert.ok((await companyNames(env, northToken, "north.test")).includes("Made In The File Tenant"));
      await createdName(env, northToken, "north.test", "Made In The Remote Tenant");

      const fromRemote = join(env.dataDir, "north.db");
      await run(["backup", "north", "--out", fromRemote], o);
      const [line] = await run(["restore", "acme", "--from", fromRemote], o);
      assert.match(line, /^restored acme from .* into .*tenants\/acme-\d+T\d+Z\.db$/);
      assert.ok((await companyNames(env, acmeToken, env.host)).includes("Made In The Remote Tenant"));
    }),
});

Deno.test({
  ...opts,
  name: "remote tenants - a backup while the app writes is one snapshot, large stored files included",
  fn: () =>
    withRemote(async (env, sqld) => {
      const o = { dataDir: env.dataDir, sqld: sqld.config };
      await run(createArgs("north", "--remote"), o);
      const tdb = await env.services.tenants.get(await tenantOf(env, "north"));
      // Three stored files of 4 MB: more than one answer of sqld may hold (10 MB by default).
      const blobs = [1, 2, 3].map((n) => randomBytes(4 * 1024 * 1024).fill(n, 0, 1));
      for (const [i, data] of blobs.entries()) {
        await tdb.write((tx) =>
          tx.insert(files).values({
            sha256: `sha-${i}`,
            name: `f${i}.pdf`,
            content_type: "application/pdf",
            size: data.length,
            data,
          })
        );
      }
      let done = 0, stop = false;
      const writer = (async () => {
        while (!stop) {
          const n = done + 1;
          // A company in the first table copied and a row in a later one, in one transaction.
          await tdb.write(async (tx) => {
            await tx.insert(companies).values({ name: `w-${n}`, company_type: "customer_company" });
            await tx.insert(revoked_sessions).values({ sid: `w-${n}`, expires_at: n });
          });
          done = n;
        }
      })();
      const out = join(env.dataDir, "north.db");
      let doneAtStart = 0, doneAtEnd = 0;
      try {
        while (done < 5) await new Promise((r) => setTimeout(r, 5));
        doneAtStart = done;
        await run(["backup", "north", "--out", out], o);
        doneAtEnd = done;
        while (done < doneAtEnd + 3) await new Promise((r) => setTimeout(r, 5));
      } finally {
        stop = true;
        await writer;
      }

      const names = (await query("file:" + out, null, "SELECT name FROM companies WHERE name LIKE 'w-%'"))
        .map((r) => String(r.name)).sort();
      const sids = (await query("file:" + out, null, "SELECT sid FROM revoked_sessions")).map((r) =>
        String(r.sid)
      )
        .sort();
      assert.deepEqual(names, sids, "every transaction is whole in the backup, across tables");
      assert.ok(
        names.length >= doneAtStart && names.length <= doneAtEnd,
        `${doneAtStart} <= ${names.length}`,
      );
      assert.ok(done > names.length, "the app kept writing after the backup");
      const stored = await query("file:" + out, null, "SELECT data FROM files ORDER BY id");
      assert.deepEqual(stored.map((r) => Buffer.from(r.data as ArrayBuffer)), blobs);
    }),
});
