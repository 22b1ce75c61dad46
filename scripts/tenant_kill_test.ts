/**
 * The tenant CLI killed (SIGKILL) at every stage of create, restore, migrate and delete, and at moments inside
 * its longest steps: the tenant is then the old one or the new one, a retry of the same command completes, and
 * `delete --yes` removes whatever state it is in (decision 037). The CLI runs as a child process with
 * `TENANT_TEST_STAGES=1`: it prints `stage <name>` on stderr and waits for a line on stdin, so the test kills
 * it exactly there; kills inside a step are timed from a stage, at fractions of that step's measured length.
 */
import assert from "node:assert/strict";
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath as fromFileUrl } from "node:url";
import { migrate } from "drizzle-orm/libsql/migrator";
import { Catalog } from "../db/catalog.ts";
import { tenants } from "../db/catalog/schema.ts";
import { openClient, TENANT_MIGRATIONS, tenantDrizzle } from "../db/client.ts";
import { tenantFile } from "../db/provision.ts";
import { RETIRED } from "../db/tenants.ts";
import { cli, staged } from "./testing/tenant_cli.ts";

const ROOT = fromFileUrl(new URL("..", import.meta.url));
const SLUG = "kk19";
const HOST = "kk19.test";

const createArgs = (name = "KK Inspections") => [
  "create",
  SLUG,
  "--name",
  name,
  "--host",
  HOST,
  "--admin-email",
  "admin@kk19.test",
  "--admin-password",
  "admin-pass-1",
];

async function withDataDir(fn: (dataDir: string) => Promise<void>) {
  const dataDir = mkdtempSync(join(tmpdir(), "tenant-kill-"));
  try {
    await fn(dataDir);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const dec = new TextDecoder();

async function withCatalog<T>(dataDir: string, fn: (c: Catalog) => Promise<T>): Promise<T> {
  const c = await Catalog.open(dataDir);
  try {
    return await fn(c);
  } finally {
    c.close();
  }
}

const newestMigrations = () =>
  JSON.parse(readFileSync(join(TENANT_MIGRATIONS, "meta/_journal.json"), "utf8")).entries.length as number;

/** What a tenant file holds: its migrations, its companies' names, its fence, and whether it is sound. */
async function inspect(file: string) {
  const client = await openClient("file:" + file);
  try {
    const check = String((await client.execute("PRAGMA quick_check")).rows[0][0]);
    const migrations = Number((await client.execute("SELECT count(*) FROM __drizzle_migrations")).rows[0][0]);
    const tables = Number(
      (await client.execute("SELECT count(*) FROM sqlite_master WHERE type = 'table'")).rows[0][0],
    );
    const fence = Number((await client.execute("PRAGMA user_version")).rows[0][0]);
    const hasCompanies = (await client.execute(
      "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'companies'",
    )).rows.length > 0;
    const names = hasCompanies
      ? (await client.execute("SELECT name FROM companies ORDER BY id")).rows.map((r) => String(r[0]))
      : [];
    const admins = hasCompanies
      ? Number(
        (await client.execute("SELECT count(*) FROM users WHERE email = 'admin@kk19.test'")).rows[0][0],
      )
      : 0;
    return { check, migrations, tables, fence, names, admins };
  } finally {
    client.close();
  }
}

/** The tenant as the catalog has it: undefined (no row and its host free), or its row with what its file holds. */
async function tenantState(dataDir: string) {
  return await withCatalog(dataDir, async (c) => {
    const t = await c.bySlug(SLUG);
    if (!t) {
      assert.deepEqual(await c.hostsTaken([HOST]), [], "no row, and the host is free");
      return undefined;
    }
    const file = tenantFile(dataDir, t.db_url)!;
    assert.ok(existsSync(file), `the catalog's file ${file} exists`);
    return { t, file, ...(await inspect(file)) };
  });
}

/** Files of the slug in tenants/ (the lock file is removed when its command ends, or stays from a killed one). */
const slugFiles = (dataDir: string) =>
  readdirSync(join(dataDir, "tenants")).filter((f) => f.includes(SLUG) && !f.endsWith(".lock")).sort();

/** The new state of create: a row, a sound file at the newest migration with the owner company and admin. */
async function assertCreated(dataDir: string, name = "KK Inspections") {
  const s = await tenantState(dataDir);
  assert.ok(s, "the tenant is in the catalog");
  assert.equal(s.check, "ok");
  assert.equal(s.migrations, newestMigrations());
  assert.deepEqual(s.names, [name]);
  assert.equal(s.admins, 1);
  assert.equal(s.fence, 0);
  return s;
}

/** `delete --yes` succeeds from any state and leaves no row and no file of the slug. */
async function assertDeletes(dataDir: string) {
  const del = await cli(dataDir, "delete", SLUG, "--yes");
  assert.equal(del.code, 0, del.stderr);
  assert.equal(await tenantState(dataDir), undefined);
  assert.deepEqual(slugFiles(dataDir), []);
}

const CREATE_STAGES = [
  "create:made",
  "create:migrated",
  "create:filled",
  "create:in-place",
  "create:registered",
];

Deno.test("tenant kill - create killed at each stage and inside its steps leaves no tenant or the whole one; the retry completes and delete cleans any state", async () => {
  // One run to its end: the stages, and the length of each step to aim kills inside it.
  const timed = await withDataDirResult(async (dataDir) => {
    const run = await staged(dataDir, createArgs());
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(run.stages.map((s) => s.name), CREATE_STAGES);
    await assertCreated(dataDir);
    assert.deepEqual(
      slugFiles(dataDir),
      [`${SLUG}.db`],
      "no -wal beside it: the file was whole when renamed",
    );
    return run.stages;
  });
  const length = (from: string) => {
    const i = timed.findIndex((s) => s.name === from);
    return timed[i + 1].at - timed[i].at;
  };
  const kills: { at: string; afterMs?: number }[] = CREATE_STAGES.map((at) => ({ at }));
  // Inside the migration (one transaction), the admin's insert and the rename of the finished file.
  for (const from of ["create:made", "create:migrated", "create:filled"]) {
    for (const f of [0.2, 0.5, 0.8]) kills.push({ at: from, afterMs: Math.round(length(from) * f) });
  }
  const outcomes: string[] = [];
  for (const kill of kills) {
    await withDataDir(async (dataDir) => {
      const run = await staged(dataDir, createArgs(), kill);
      const label = `killed at ${kill.at}${kill.afterMs === undefined ? "" : ` +${kill.afterMs} ms`}`;
      const state = await tenantState(dataDir);
      if (state) {
        // Only once the catalog row is written: the whole tenant.
        assert.ok(run.stages.some((s) => s.name === "create:in-place"), label);
        await assertCreated(dataDir);
        outcomes.push(`${label}: new`);
        const again = await cli(dataDir, ...createArgs());
        assert.equal(again.code, 1);
        assert.equal(again.stderr, `error: tenant "${SLUG}" already exists\n`, label);
      } else {
        outcomes.push(
          `${label}: old${slugFiles(dataDir).length ? ` (left ${slugFiles(dataDir).join(" ")})` : ""}`,
        );
        const again = await cli(dataDir, ...createArgs());
        assert.equal(again.code, 0, `${label}: retry: ${again.stderr}`);
        await assertCreated(dataDir);
        assert.deepEqual(slugFiles(dataDir), [`${SLUG}.db`], `${label}: the retry removed what was left`);
      }
      await assertDeletes(dataDir);
      // And the same state again, deleted before any retry: delete takes it as it is.
      await withDataDir(async (other) => {
        await staged(other, createArgs(), kill);
        await assertDeletes(other);
        const fresh = await cli(other, ...createArgs());
        assert.equal(fresh.code, 0, fresh.stderr);
      });
    });
  }
  console.log(outcomes.join("\n"));
});

async function withDataDirResult<T>(fn: (dataDir: string) => Promise<T>): Promise<T> {
  let out!: T;
  await withDataDir(async (d) => {
    out = await fn(d);
  });
  return out;
}

/** A made tenant and a backup of it taken before "After Backup" was added. */
async function tenantWithBackup(dataDir: string): Promise<string> {
  const made = await cli(dataDir, ...createArgs());
  assert.equal(made.code, 0, made.stderr);
  const backup = join(dataDir, "backup.db");
  const b = await cli(dataDir, "backup", SLUG, "--out", backup);
  assert.equal(b.code, 0, b.stderr);
  const client = await openClient("file:" + join(dataDir, "tenants", `${SLUG}.db`));
  await client.execute(
    "INSERT INTO companies (name, company_type) VALUES ('After Backup', 'customer_company')",
  );
  client.close();
  return backup;
}

const RESTORE_STAGES = ["restore:copied", "restore:prepared", "restore:fenced", "restore:switched"];

Deno.test("tenant kill - restore killed at each stage leaves the old tenant (writable again after the next command) or the restored one; the retry completes", async () => {
  const timed = await withDataDirResult(async (dataDir) => {
    const backup = await tenantWithBackup(dataDir);
    const run = await staged(dataDir, ["restore", SLUG, "--from", backup]);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(run.stages.map((s) => s.name), RESTORE_STAGES);
    return run.stages;
  });
  const copyMs = timed[1].at - timed[0].at;
  const kills: { at: string; afterMs?: number }[] = RESTORE_STAGES.map((at) => ({ at }));
  for (const f of [0.2, 0.5, 0.8]) kills.push({ at: "restore:copied", afterMs: Math.round(copyMs * f) });
  const outcomes: string[] = [];
  for (const kill of kills) {
    await withDataDir(async (dataDir) => {
      const backup = await tenantWithBackup(dataDir);
      await staged(dataDir, ["restore", SLUG, "--from", backup], kill);
      const label = `killed at ${kill.at}${kill.afterMs === undefined ? "" : ` +${kill.afterMs} ms`}`;
      const s = (await tenantState(dataDir))!;
      assert.ok(s, label);
      assert.equal(s.check, "ok", label);
      assert.equal(s.migrations, newestMigrations(), label);
      const restored = !s.names.includes("After Backup");
      outcomes.push(`${label}: ${restored ? "new" : "old"}${s.fence === RETIRED ? " (fenced)" : ""}`);
      if (restored) {
        assert.match(s.t.db_url, /^file:tenants\/kk19-\d{8}T\d{9}Z\.db$/, label);
        assert.equal(s.fence, 0, label);
      } else {
        assert.equal(s.t.db_url, `file:tenants/${SLUG}.db`, label);
        if (s.fence === RETIRED) {
          // Killed between the fence and the switch: the next command for the slug lifts it.
          assert.equal(kill.at, "restore:fenced", label);
          const m = await cli(dataDir, "migrate", SLUG);
          assert.equal(m.code, 0, m.stderr);
          assert.equal((await tenantState(dataDir))!.fence, 0, `${label}: migrate lifted the fence`);
        }
      }
      const again = await cli(dataDir, "restore", SLUG, "--from", backup);
      assert.equal(again.code, 0, `${label}: retry: ${again.stderr}`);
      const after = (await tenantState(dataDir))!;
      assert.deepEqual(after.names, ["KK Inspections"], label);
      assert.equal(after.fence, 0, label);
      assert.deepEqual(
        slugFiles(dataDir),
        [after.t.db_url.slice("file:tenants/".length)],
        `${label}: only the restored file is left`,
      );
      await assertDeletes(dataDir);
    });
  }
  console.log(outcomes.join("\n"));
});

/** Migrations of the tenant file up to the first `n` only (a tenant made by an older release). */
async function olderTenant(dataDir: string, n: number) {
  const folder = mkdtempSync(join(tmpdir(), "older-migrations-"));
  try {
    cpSync(TENANT_MIGRATIONS, folder, { recursive: true });
    const journalFile = join(folder, "meta/_journal.json");
    const journal = JSON.parse(readFileSync(journalFile, "utf8"));
    journal.entries = journal.entries.slice(0, n);
    writeFileSync(journalFile, JSON.stringify(journal));
    // The catalog (and tenants/) first.
    await withCatalog(dataDir, () => Promise.resolve());
    const file = join(dataDir, "tenants", `${SLUG}.db`);
    const client = await openClient("file:" + file);
    await migrate(tenantDrizzle(client), { migrationsFolder: folder });
    client.close();
    await withCatalog(dataDir, async (c) => {
      await c.db.insert(tenants).values({ slug: SLUG, name: "KK", db_url: `file:tenants/${SLUG}.db` });
    });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

Deno.test("tenant kill - migrate killed before, inside or after its one transaction leaves every migration or none; the retry applies them", async () => {
  const older = Math.floor(newestMigrations() / 2);
  const tablesAt = async (n: number) =>
    await withDataDirResult(async (dataDir) => {
      await olderTenant(dataDir, n);
      return (await inspect(join(dataDir, "tenants", `${SLUG}.db`))).tables;
    });
  const oldTables = await tablesAt(older);
  const timed = await withDataDirResult(async (dataDir) => {
    await olderTenant(dataDir, older);
    const run = await staged(dataDir, ["migrate", SLUG]);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(run.stages.map((s) => s.name), ["migrate:begin", "migrate:committed"]);
    return run.stages;
  });
  const txMs = timed[1].at - timed[0].at;
  const kills: { at: string; afterMs?: number }[] = [{ at: "migrate:begin" }, { at: "migrate:committed" }];
  for (const f of [0.05, 0.15, 0.3, 0.45, 0.6, 0.75, 0.9]) {
    kills.push({ at: "migrate:begin", afterMs: Math.round(txMs * f) });
  }
  const outcomes: string[] = [];
  for (const kill of kills) {
    await withDataDir(async (dataDir) => {
      await olderTenant(dataDir, older);
      await staged(dataDir, ["migrate", SLUG], kill);
      const label = `killed at ${kill.at}${kill.afterMs === undefined ? "" : ` +${kill.afterMs} ms`}`;
      const file = join(dataDir, "tenants", `${SLUG}.db`);
      // Frames the killed transaction had written to the WAL without its commit: SQLite ignores them on open.
      const wal = existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0;
      const s = await inspect(file);
      assert.equal(s.check, "ok", label);
      assert.ok(s.migrations === older || s.migrations === newestMigrations(), `${label}: ${s.migrations}`);
      if (s.migrations === older) {
        assert.equal(s.tables, oldTables, `${label}: no table of a later migration`);
      }
      outcomes.push(`${label}: ${s.migrations === older ? "old" : "new"} (-wal ${wal} bytes when killed)`);
      const again = await cli(dataDir, "migrate", SLUG);
      assert.equal(again.code, 0, `${label}: retry: ${again.stderr}`);
      assert.equal((await inspect(file)).migrations, newestMigrations(), label);
      await assertDeletes(dataDir);
    });
  }
  console.log(`migration transaction ${Math.round(txMs)} ms\n${outcomes.join("\n")}`);
});

Deno.test("tenant kill - delete killed after the catalog write leaves no tenant; the retry removes its files, and a new create of the slug works", async () => {
  await withDataDir(async (dataDir) => {
    const made = await cli(dataDir, ...createArgs());
    assert.equal(made.code, 0, made.stderr);
    await staged(dataDir, ["delete", SLUG, "--yes"], { at: "delete:unregistered" });
    assert.equal(await tenantState(dataDir), undefined);
    assert.deepEqual(slugFiles(dataDir), [`${SLUG}.db`], "the file no row points at");
    // A create of the slug takes the file as a leftover.
    const again = await cli(dataDir, ...createArgs("KK Again"));
    assert.equal(again.code, 0, again.stderr);
    await assertCreated(dataDir, "KK Again");
    // Killed again, then deleted again: the retry removes the file; once more is no error.
    await staged(dataDir, ["delete", SLUG, "--yes"], { at: "delete:unregistered" });
    const retry = await cli(dataDir, "delete", SLUG, "--yes");
    assert.equal(retry.code, 0, retry.stderr);
    assert.match(retry.stdout, /removed what an interrupted command left: kk19\.db/);
    assert.deepEqual(slugFiles(dataDir), []);
    const twice = await cli(dataDir, "delete", SLUG, "--yes");
    assert.equal(twice.code, 0, twice.stderr);
    assert.match(twice.stdout, /no tenant "kk19": nothing to delete/);
    // A catalog row whose file is gone is deleted too.
    assert.equal((await cli(dataDir, ...createArgs())).code, 0);
    rmSync(join(dataDir, "tenants", `${SLUG}.db`));
    await assertDeletes(dataDir);
  });
});

Deno.test("tenant kill - a second command on the same tenant while one runs is refused at once and changes nothing", async () => {
  await withDataDir(async (dataDir) => {
    const proc = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "scripts/tenant.ts", ...createArgs()],
      cwd: ROOT,
      env: { DATA_DIR: dataDir, SCRYPT_N: "1024", TENANT_TEST_STAGES: "1" },
      stdin: "piped",
      stdout: "null",
      stderr: "piped",
    }).spawn();
    const reader = proc.stderr.getReader();
    const stdin = proc.stdin.getWriter();
    let seen = "";
    // Let it go on from each stage until it has migrated its file, and keep it waiting there.
    while (!seen.includes("stage create:migrated")) {
      const { value, done } = await reader.read();
      if (done) break;
      const chunk = dec.decode(value);
      seen += chunk;
      for (const _ of chunk.matchAll(/^stage (?!create:migrated)/gm)) {
        await stdin.write(new TextEncoder().encode("\n"));
      }
    }
    const other = await cli(dataDir, "delete", SLUG, "--yes");
    assert.equal(other.code, 1);
    assert.match(other.stderr, /^error: another tenant command is working on "kk19"/);
    assert.ok(existsSync(join(dataDir, "tenants", `.${SLUG}.new.db`)), "the live create's file is kept");
    await stdin.close();
    while (!(await reader.read()).done) { /* drain */ }
    assert.equal((await proc.status).code, 0);
    await assertCreated(dataDir);
  });
});
