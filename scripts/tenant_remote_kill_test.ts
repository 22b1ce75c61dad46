/**
 * The tenant CLI killed at the stages of `create --remote`, `delete` and `restore` of a tenant on a real libSQL
 * server (sqld): the namespaces it made or was removing are deleted by the next command for the slug, so a
 * retry completes and nothing is left on the server that no catalog row points at (decision 037).
 */
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Catalog } from "../db/catalog.ts";
import { namespaceOf } from "../db/sqld.ts";
import { type RunningSqld, sqldAvailable, withSqld } from "./testing/sqld.ts";
import { cliWith, staged } from "./testing/tenant_cli.ts";

const opts = { ignore: !sqldAvailable(), sanitizeResources: false, sanitizeOps: false };
const SLUG = "rk19";

const createArgs = [
  "create",
  SLUG,
  "--name",
  "RK Remote",
  "--host",
  "rk19.test",
  "--admin-email",
  "admin@rk19.test",
  "--admin-password",
  "admin-pass-1",
  "--remote",
];

async function withDataDir(fn: (dataDir: string) => Promise<void>) {
  const dataDir = mkdtempSync(join(tmpdir(), "tenant-remote-kill-"));
  try {
    (await Catalog.open(dataDir)).close();
    await fn(dataDir);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function namespaceExists(sqld: RunningSqld, ns: string): Promise<boolean> {
  const r = await fetch(`${sqld.config.adminUrl}/v1/namespaces/${ns}/config`);
  await r.body?.cancel();
  return r.status === 200;
}

/** The namespace the catalog's row points at, or undefined without a row. */
async function current(dataDir: string, sqld: RunningSqld): Promise<string | undefined> {
  const c = await Catalog.open(dataDir);
  try {
    const t = await c.bySlug(SLUG);
    return t && namespaceOf(sqld.config.baseUrl, t.db_url);
  } finally {
    c.close();
  }
}

/** Namespaces a killed command noted as its own (`tenants/.<slug>.pending.json`). */
function noted(dataDir: string): string[] {
  const f = join(dataDir, "tenants", `.${SLUG}.pending.json`);
  return existsSync(f) ? JSON.parse(readFileSync(f, "utf8")).namespaces : [];
}

Deno.test({
  ...opts,
  name:
    "tenant remote kill - create --remote killed at each stage: the retry deletes the namespace it made and completes; delete killed after the catalog write: the retry deletes the namespace",
  fn: () =>
    withSqld(async (sqld) => {
      const cli = (dataDir: string, ...args: string[]) => cliWith(dataDir, sqld.env, ...args);
      for (const at of ["create:made", "create:migrated", "create:filled", "create:registered"]) {
        await withDataDir(async (dataDir) => {
          await staged(dataDir, createArgs, { at }, sqld.env);
          const row = await current(dataDir, sqld);
          if (at === "create:registered") assert.equal(row, SLUG, at);
          else {
            assert.equal(row, undefined, at);
            assert.ok(await namespaceExists(sqld, SLUG), `${at}: the killed create left its namespace`);
            assert.deepEqual(noted(dataDir), [SLUG], `${at}: noted as its own`);
            const again = await cli(dataDir, ...createArgs);
            assert.equal(again.code, 0, `${at}: retry: ${again.stderr}`);
            assert.equal(await current(dataDir, sqld), SLUG);
          }
          assert.deepEqual(noted(dataDir), [], `${at}: nothing noted once the catalog points at it`);
          // Delete killed after the catalog write, then again: the namespace goes.
          await staged(dataDir, ["delete", SLUG, "--yes"], { at: "delete:unregistered" }, sqld.env);
          assert.equal(await current(dataDir, sqld), undefined);
          assert.ok(await namespaceExists(sqld, SLUG));
          const del = await cli(dataDir, "delete", SLUG, "--yes");
          assert.equal(del.code, 0, del.stderr);
          assert.match(del.stdout, /removed what an interrupted command left: namespace rk19/);
          assert.ok(!(await namespaceExists(sqld, SLUG)), `${at}: the namespace is deleted`);
          assert.deepEqual(noted(dataDir), []);
        });
      }
    }),
});

Deno.test({
  ...opts,
  name:
    "tenant remote kill - restore killed at each stage: the tenant is on the old namespace or the new one, the retry completes, and only the namespace the catalog points at is left",
  fn: () =>
    withSqld(async (sqld) => {
      const cli = (dataDir: string, ...args: string[]) => cliWith(dataDir, sqld.env, ...args);
      for (const at of ["restore:prepared", "restore:fenced", "restore:switched"]) {
        await withDataDir(async (dataDir) => {
          assert.equal((await cli(dataDir, ...createArgs)).code, 0);
          const backup = join(dataDir, "backup.db");
          const b = await cli(dataDir, "backup", SLUG, "--out", backup);
          assert.equal(b.code, 0, b.stderr);
          await staged(dataDir, ["restore", SLUG, "--from", backup], { at }, sqld.env);
          const row = (await current(dataDir, sqld))!;
          if (at === "restore:switched") {
            assert.match(row, /^rk19-\d{8}t\d{9}z$/, at);
            assert.deepEqual(noted(dataDir), [SLUG], `${at}: the old namespace is noted for removal`);
          } else {
            assert.equal(row, SLUG, at);
            const made = noted(dataDir).filter((n) => n !== SLUG);
            assert.equal(made.length, 1, `${at}: the new namespace is noted as the command's own`);
            assert.ok(await namespaceExists(sqld, made[0]), at);
          }
          const seen = [...new Set([SLUG, row, ...noted(dataDir)])];
          const again = await cli(dataDir, "restore", SLUG, "--from", backup);
          assert.equal(again.code, 0, `${at}: retry: ${again.stderr}`);
          const now = (await current(dataDir, sqld))!;
          for (const ns of seen) {
            assert.equal(await namespaceExists(sqld, ns), ns === now, `${at}: namespace ${ns}`);
          }
          assert.deepEqual(noted(dataDir), []);
          const del = await cli(dataDir, "delete", SLUG, "--yes");
          assert.equal(del.code, 0, del.stderr);
          assert.ok(!(await namespaceExists(sqld, now)));
        });
      }
    }),
});
