import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath as fromFileUrl } from "node:url";
import { eq, like } from "drizzle-orm";
import { Catalog } from "../db/catalog.ts";
import { tenants } from "../db/catalog/schema.ts";
import { openClient, tenantDrizzle } from "../db/client.ts";
import { ProvisionError } from "../db/provision.ts";
import { companies, users } from "../db/schema/mod.ts";
import { TenantCache } from "../db/tenants.ts";
import { withEnv } from "./testing/harness.ts";
import { createArgs } from "./testing/tenant_cli.ts";
import { backupCommand, CliError, listCommand, restoreCommand, run } from "./tenant.ts";

const ROOT = fromFileUrl(new URL("..", import.meta.url));

async function withDataDir(fn: (dataDir: string) => Promise<void>) {
  const dataDir = mkdtempSync(join(tmpdir(), "tenant-cli-"));
  try {
    await fn(dataDir);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** `create` arguments; `over` replaces flags by name (`{ "--name": "Acme" }`). */
const create = (dataDir: string, slug: string, host: string, over: Record<string, string> = {}) =>
  run(createArgs(slug, host, over), { dataDir, scryptN: 1024 });

/** The real CLI in a child process. */
async function cli(dataDir: string, ...args: string[]) {
  return await cliEnv(dataDir, {}, ...args);
}

/** The real CLI in a child process, with `env` on top of DATA_DIR. */
async function cliEnv(dataDir: string, env: Record<string, string>, ...args: string[]) {
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

async function withCatalog<T>(dataDir: string, fn: (c: Catalog) => Promise<T>): Promise<T> {
  const c = await Catalog.open(dataDir);
  try {
    return await fn(c);
  } finally {
    c.close();
  }
}

async function companyNames(file: string): Promise<string[]> {
  const client = await openClient("file:" + file);
  try {
    return (await tenantDrizzle(client).select({ name: companies.name }).from(companies)).map((c) => c.name);
  } finally {
    client.close();
  }
}

const tenantFiles = (dataDir: string) => readdirSync(join(dataDir, "tenants")).sort();

Deno.test("tenant cli - create then list shows each tenant with hosts, file, size and status", async () => {
  await withDataDir(async (dataDir) => {
    const [line] = await run(
      [
        "create",
        "acme",
        "--name=Acme Inspections",
        "--host",
        "acme.test,ACME.localhost",
        "--admin-email",
        "Admin@acme.test",
        "--admin-password=admin-pass-1",
      ],
      { dataDir, scryptN: 1024 },
    );
    assert.match(line, /acme/);
    assert.match(line, /acme\.test, acme\.localhost/);
    assert.match(line, /admin@acme\.test/);
    await create(dataDir, "beta", "beta.test");

    const lines = await listCommand(dataDir);
    assert.equal(lines.length, 2);
    assert.match(lines[0], /^acme\s+Acme Inspections\s+acme\.test,acme\.localhost\s+\S+tenants\/acme\.db\s+/);
    assert.match(lines[0], /\d+(\.\d)? (B|KB|MB)\s+active$/);
    assert.match(lines[1], /^beta\s+beta Inspections\s+beta\.test\s+/);

    const client = await openClient("file:" + join(dataDir, "tenants/acme.db"));
    const [admin] = await tenantDrizzle(client).select().from(users).where(
      eq(users.email, "admin@acme.test"),
    );
    client.close();
    assert.equal(admin.account_type, "Company-Admin");
    assert.ok(admin.permissions.includes("approval-authority"));
  });
});

Deno.test("tenant cli - the real CLI refuses a duplicate slug with one error line and exit 1", async () => {
  await withDataDir(async (dataDir) => {
    const ok = await cli(dataDir, ...createArgs("acme", "acme.test"));
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, /created tenant acme/);
    const before = await listCommand(dataDir);

    const dup = await cli(dataDir, ...createArgs("acme", "other.test", { "--name": "Other" }));
    assert.equal(dup.code, 1);
    assert.equal(dup.stderr, 'error: tenant "acme" already exists\n');
    assert.deepEqual(await listCommand(dataDir), before);
    assert.deepEqual(tenantFiles(dataDir).filter((f) => f.endsWith(".db")), ["acme.db"]);

    for (
      const [args, message] of [
        [["frobnicate"], /^error: unknown command "frobnicate"/],
        [["backup", "acme"], /^error: --out is required/],
        [["list", "--verbose"], /^error: unknown flag --verbose/],
        [["disable", "nope"], /^error: no tenant "nope"/],
      ] as const
    ) {
      const r = await cli(dataDir, ...args);
      assert.equal(r.code, 1, args.join(" "));
      assert.match(r.stderr, message);
      assert.equal(r.stderr.trim().split("\n").length, 1);
    }
    const help = await cli(dataDir);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^Usage:/);
    assert.match((await cli(dataDir, "create", "--help")).stdout, /seed-demo <slug>/);
  });
});

Deno.test("tenant cli - with a shared catalog (CATALOG_URL) a tenant in a local file is refused before anything is made", async () => {
  await withDataDir(async (dataDir) => {
    // The address is never asked: the refusal comes first.
    const r = await cliEnv(
      dataDir,
      { CATALOG_URL: "http://catalog.invalid:8080" },
      ...createArgs("acme", "acme.test"),
    );
    assert.equal(r.code, 1);
    assert.match(
      r.stderr,
      /^error: the catalog is shared \(CATALOG_URL\): .* use --remote \(SQLD_URL\) or --db-url\n$/,
    );
    assert.ok(!existsSync(join(dataDir, "tenants")), "no tenant file, nor its folder, was made");
  });
});

Deno.test("tenant cli - a host of another tenant is refused and nothing is made", async () => {
  await withDataDir(async (dataDir) => {
    await create(dataDir, "acme", "acme.test");
    await assert.rejects(
      create(dataDir, "beta", "beta.test,ACME.test"),
      (e) => e instanceof ProvisionError && /acme\.test already belongs/.test(e.message),
    );
    await withCatalog(dataDir, async (c) => {
      assert.equal(await c.bySlug("beta"), undefined);
      assert.deepEqual(await c.hostsTaken(["beta.test"]), []);
    });
    assert.deepEqual(tenantFiles(dataDir).filter((f) => f.startsWith("beta")), []);
  });
});

Deno.test("tenant cli - a bad email or a short password is refused with no file left behind", async () => {
  await withDataDir(async (dataDir) => {
    await assert.rejects(
      create(dataDir, "acme", "acme.test", { "--admin-email": "not-an-email" }),
      /--admin-email is not a valid email address/,
    );
    await assert.rejects(
      create(dataDir, "acme", "acme.test", { "--admin-password": "short" }),
      /at least 8 characters/,
    );
    await assert.rejects(create(dataDir, "Bad Slug", "x.test"), /slug must be/);
    await assert.rejects(run(["create", "acme", "--name", "Acme"], { dataDir }), /--host is required/);
    assert.deepEqual(tenantFiles(dataDir), []);
    await withCatalog(dataDir, async (c) => assert.equal(await c.count(), 0));
  });
});

Deno.test("tenant cli - backup while the server writes is a consistent prefix of the writes", async () => {
  await withDataDir(async (dataDir) => {
    await create(dataDir, "acme", "acme.test");
    const catalog = await Catalog.open(dataDir);
    const cache = new TenantCache(dataDir, 10);
    try {
      const tdb = await cache.get((await catalog.bySlug("acme"))!);
      // Enough data that the copy takes a while, so writes land while it runs.
      const pad = "x".repeat(4000);
      await tdb.write(async (tx) => {
        for (let i = 0; i < 30; i++) {
          await tx.insert(companies).values(
            Array.from({ length: 100 }, (_, j) => ({
              name: `bulk-${i * 100 + j}`,
              company_type: "customer_company" as const,
              custom: { pad },
            })),
          );
        }
      });

      let done = 0, stop = false;
      const writer = (async () => {
        while (!stop) {
          const n = done + 1;
          // Two rows per transaction: a backup must hold both or neither.
          await tdb.write((tx) =>
            tx.insert(companies).values([
              { name: `w-${n}-a`, company_type: "customer_company" },
              { name: `w-${n}-b`, company_type: "customer_company" },
            ])
          );
          done = n;
          await new Promise((r) => setTimeout(r, 1));
        }
      })();
      while (done < 20) await new Promise((r) => setTimeout(r, 5));
      const doneAtStart = done;
      const out = join(dataDir, "acme-backup.db");
      const res = await cli(dataDir, "backup", "acme", "--out", out);
      const doneAtEnd = done;
      while (done < doneAtEnd + 10) await new Promise((r) => setTimeout(r, 5));
      stop = true;
      await writer;
      assert.equal(res.code, 0, res.stderr);
      assert.match(res.stdout, /backed up acme to .*acme-backup\.db/);

      const client = await openClient("file:" + out);
      const check = await client.execute("PRAGMA integrity_check");
      const db = tenantDrizzle(client);
      const written = await db.select({ name: companies.name }).from(companies).where(
        like(companies.name, "w-%"),
      );
      const bulk = await db.select({ name: companies.name }).from(companies).where(
        like(companies.name, "bulk-%"),
      );
      client.close();
      assert.equal(check.rows[0][0], "ok");
      assert.equal(bulk.length, 3000);
      const k = written.length / 2;
      assert.ok(Number.isInteger(k), "every transaction is whole in the backup");
      assert.deepEqual(
        written.map((r) => r.name).sort(),
        Array.from({ length: k }, (_, i) => [`w-${i + 1}-a`, `w-${i + 1}-b`]).flat().sort(),
      );
      assert.ok(k >= doneAtStart && k <= doneAtEnd, `${doneAtStart} <= ${k} <= ${doneAtEnd}`);
      assert.ok(done > k, "the server kept writing after the backup");

      const again = await cli(dataDir, "backup", "acme", "--out", out);
      assert.equal(again.code, 1);
      assert.match(again.stderr, /^error: .*already exists/);
    } finally {
      await cache.closeAll();
      catalog.close();
    }
  });
});

Deno.test("tenant cli - restore brings the backed-up data back, also for a running server", async () => {
  await withDataDir(async (dataDir) => {
    await create(dataDir, "acme", "acme.test");
    const catalog = await Catalog.open(dataDir);
    const cache = new TenantCache(dataDir, 10);
    try {
      const live = await cache.get((await catalog.bySlug("acme"))!);
      await live.write((tx) =>
        tx.insert(companies).values({ name: "Before Backup", company_type: "customer_company" })
      );
      const out = join(dataDir, "backup.db");
      await backupCommand(dataDir, "acme", out);
      await live.write((tx) =>
        tx.insert(companies).values({ name: "After Backup", company_type: "customer_company" })
      );

      const [line] = await run(["restore", "acme", "--from", out], { dataDir });
      assert.match(line, /restored acme/);

      // The running server reads the catalog per request: its next get() opens the restored file.
      const reopened = await cache.get((await catalog.bySlug("acme"))!);
      assert.notEqual(reopened, live);
      const names = (await reopened.db.select().from(companies)).map((c) => c.name);
      assert.ok(names.includes("Before Backup"));
      assert.ok(!names.includes("After Backup"));

      await withCatalog(dataDir, async (fresh) => {
        const t = (await fresh.bySlug("acme"))!;
        assert.match(t.db_url, /^file:tenants\/acme-\d{8}T\d{9}Z\.db$/);
        const freshCache = new TenantCache(dataDir, 10);
        const tdb = await freshCache.get(t);
        const [admin] = await tdb.db.select().from(users).where(eq(users.email, "admin@acme.test"));
        assert.ok(admin);
        assert.ok(!(await tdb.db.select().from(companies)).some((c) => c.name === "After Backup"));
        await freshCache.closeAll();
      });
      assert.ok(!existsSync(join(dataDir, "tenants/acme.db")), "the old file is removed");
      assert.equal(tenantFiles(dataDir).filter((f) => f.endsWith(".db")).length, 1);
    } finally {
      await cache.closeAll();
      catalog.close();
    }
  });
});

Deno.test("tenant cli - restore refuses a file that is not a tenant database and changes nothing", async () => {
  await withDataDir(async (dataDir) => {
    await create(dataDir, "acme", "acme.test");
    const before = tenantFiles(dataDir);
    const text = join(dataDir, "notes.txt");
    writeFileSync(text, "just some text, certainly longer than sixteen bytes\n");
    await assert.rejects(
      restoreCommand(dataDir, "acme", text),
      (e) => e instanceof CliError && /is not a SQLite database/.test(e.message),
    );

    const other = join(dataDir, "other.db");
    const client = await openClient("file:" + other);
    await client.execute("CREATE TABLE notes (body TEXT)");
    client.close();
    await assert.rejects(
      restoreCommand(dataDir, "acme", other),
      /not a tenant database \(no users, companies/,
    );

    const almost = join(dataDir, "almost.db");
    const c2 = await openClient("file:" + almost);
    await c2.execute("CREATE TABLE users (id INTEGER)");
    await c2.execute("CREATE TABLE companies (id INTEGER)");
    c2.close();
    await assert.rejects(restoreCommand(dataDir, "acme", almost), /no __drizzle_migrations table/);
    await assert.rejects(restoreCommand(dataDir, "acme", join(dataDir, "missing.db")), /does not exist/);

    assert.deepEqual(tenantFiles(dataDir), before);
    await withCatalog(
      dataDir,
      async (c) => assert.equal((await c.bySlug("acme"))!.db_url, "file:tenants/acme.db"),
    );
    assert.ok((await companyNames(join(dataDir, "tenants/acme.db"))).includes("acme Inspections"));
  });
});

Deno.test("tenant cli - a remote tenant's failed backup leaves no file, and its restore needs the libSQL server", async () => {
  await withDataDir(async (dataDir) => {
    const closed = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const url = `http://far.localhost:${(closed.addr as Deno.NetAddr).port}`;
    closed.close();
    await withCatalog(dataDir, (c) => c.db.insert(tenants).values({ slug: "far", name: "Far", db_url: url }));
    await assert.rejects(
      backupCommand(dataDir, "far", join(dataDir, "b.db")),
      /^Error: backup of "far" failed/,
    );
    assert.ok(!existsSync(join(dataDir, "b.db")));
    writeFileSync(join(dataDir, "b.db"), "SQLite format 3\0" + "x".repeat(100));
    await assert.rejects(
      restoreCommand(dataDir, "far", join(dataDir, "b.db")),
      /restoring it needs SQLD_ADMIN_URL and SQLD_URL/,
    );
    const [line] = await listCommand(dataDir);
    assert.equal(line.replace(/\s+/g, " "), `far Far ${url} - active`);
  });
});

Deno.test("tenant cli - disable suspends the tenant for a running server and enable resumes it", async () => {
  await withEnv(async (env) => {
    const dataDir = env.dataDir;
    assert.equal((await env.request("/signin")).status, 200);
    assert.match((await run(["disable", "acme"], { dataDir }))[0], /disabled acme/);
    await withCatalog(dataDir, async (c) => assert.equal((await c.bySlug("acme"))!.status, "disabled"));
    assert.equal((await env.request("/signin")).status, 403);
    assert.match((await listCommand(dataDir))[0], /disabled$/);

    await run(["enable", "acme"], { dataDir });
    await withCatalog(dataDir, async (c) => assert.equal((await c.bySlug("acme"))!.status, "active"));
    assert.equal((await env.request("/signin")).status, 200);
  });
});

Deno.test("tenant cli - delete needs --yes, then removes the catalog entry and the files", async () => {
  await withDataDir(async (dataDir) => {
    await create(dataDir, "acme", "acme.test");
    await create(dataDir, "beta", "beta.test");
    await assert.rejects(run(["delete", "acme"], { dataDir }), /add --yes/);
    await withCatalog(dataDir, async (c) => assert.ok(await c.bySlug("acme")));
    assert.ok(existsSync(join(dataDir, "tenants/acme.db")));

    await run(["delete", "acme", "--yes"], { dataDir });
    await withCatalog(dataDir, async (c) => {
      assert.equal(await c.bySlug("acme"), undefined);
      assert.deepEqual(await c.hostsTaken(["acme.test"]), []);
      assert.ok(await c.bySlug("beta"));
    });
    assert.ok(!tenantFiles(dataDir).some((f) => f.startsWith("acme")));
    // The host is free again.
    await create(dataDir, "acme2", "acme.test");
  });
});

Deno.test("tenant cli - seed-demo adds companies and users, and is safe to run twice", async () => {
  await withDataDir(async (dataDir) => {
    await create(dataDir, "acme", "acme.test");
    const file = join(dataDir, "tenants/acme.db");
    assert.equal((await companyNames(file)).length, 1);
    const [line] = await run(["seed-demo", "acme"], { dataDir });
    assert.match(line, /seeded acme \(small\): \d+ companies/);
    const seeded = await companyNames(file);
    assert.ok(seeded.length > 5);
    assert.ok(seeded.includes("Permian Well Services"));
    await run(["seed-demo", "acme", "--size=small"], { dataDir });
    assert.equal((await companyNames(file)).length, seeded.length);
    await assert.rejects(
      run(["seed-demo", "acme", "--size", "huge"], { dataDir }),
      /--size must be small or large/,
    );
  });
});

Deno.test("tenant cli - migrate applies to one tenant or all, and names an unknown slug", async () => {
  await withDataDir(async (dataDir) => {
    await create(dataDir, "acme", "acme.test");
    await create(dataDir, "beta", "beta.test");
    assert.deepEqual(await run(["migrate"], { dataDir }), [
      "migrated acme: 0 migration(s) applied",
      "migrated beta: 0 migration(s) applied",
    ]);
    assert.equal((await run(["migrate", "--all"], { dataDir })).length, 2);
    assert.deepEqual(await run(["migrate", "beta"], { dataDir }), ["migrated beta: 0 migration(s) applied"]);
    await assert.rejects(run(["migrate", "nope"], { dataDir }), /no tenant "nope"/);
    await assert.rejects(run(["migrate", "acme", "--all"], { dataDir }), /not both/);

    rmSync(join(dataDir, "tenants/beta.db"));
    await assert.rejects(
      run(["migrate"], { dataDir }),
      (e) =>
        e instanceof CliError && /beta\.db of tenant "beta" is missing/.test(e.message) &&
        e.output.length === 1,
    );
    assert.ok(!existsSync(join(dataDir, "tenants/beta.db")), "a missing file is not recreated empty");
  });
});
