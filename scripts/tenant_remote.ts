/**
 * Backup and restore of tenants on a libSQL server (decision 020), for the tenant CLI. A backup is a
 * local SQLite file, like a file tenant's: restore takes either kind.
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { and, eq } from "drizzle-orm";
import type { Client } from "@libsql/client";
import type { Catalog } from "../db/catalog.ts";
import { type Tenant, tenants } from "../db/catalog/schema.ts";
import { migrateTenant, openClient, tenantDrizzle } from "../db/client.ts";
import { copyDatabase, verifyCopy } from "../db/copy.ts";
import { removeDatabaseFiles, type Stage } from "../db/provision.ts";
import { forgetPending, notePending } from "../db/tenant_files.ts";
import { createNamespace, deleteNamespace, namespaceOf, type SqldConfig } from "../db/sqld.ts";
import { RETIRED } from "../db/tenants.ts";
import { CliError } from "./cli_error.ts";

async function withClient<T>(
  url: string,
  token: string | null,
  fn: (c: Client) => Promise<T>,
  exact = false,
) {
  const client = await openClient(url, token, { exact });
  try {
    return await fn(client);
  } finally {
    client.close();
  }
}

/** A sound tenant database (`from` names it in messages): not damaged, with the tables every tenant has. */
export async function verifyTenant(
  client: Client,
  from: string,
  check: "quick_check" | "integrity_check" = "quick_check",
) {
  const result = await client.execute(`PRAGMA ${check}`);
  if (String(result.rows[0]?.[0]) !== "ok") throw new CliError(`${from} is a damaged database`);
  const tables = new Set(
    (await client.execute("SELECT name FROM sqlite_master WHERE type = 'table'")).rows.map((r) =>
      String(r.name)
    ),
  );
  const missing = ["users", "companies", "__drizzle_migrations"].filter((n) => !tables.has(n));
  if (missing.length) throw new CliError(`${from} is not a tenant database (no ${missing.join(", ")} table)`);
}

/**
 * Sets (or lifts) the fence on a tenant database, a file or on a libSQL server. The write transaction
 * waits for a writer in flight; after its commit no server write can commit there: each checks the fence
 * inside its own transaction and is refused (503) instead, to be retried where the catalog then points.
 */
export async function fence(url: string, token: string | null, on: boolean) {
  await withClient(url, token, async (client) => {
    const tx = await client.transaction("write");
    try {
      await tx.execute(`PRAGMA user_version = ${on ? RETIRED : 0}`);
      await tx.commit();
    } finally {
      tx.close();
    }
  });
}

/** One read transaction on the server, copied into a new local SQLite file (no -wal beside it). */
export async function backupRemote(t: Tenant, target: string): Promise<number> {
  try {
    return await withClient(t.db_url, t.db_token, (from) =>
      withClient("file:" + target, null, async (to) => {
        const { rows, counts } = await copyDatabase(from, to);
        await verifyCopy(to, counts);
        await to.execute("PRAGMA journal_mode=DELETE");
        return rows;
      }, true), true);
  } catch (e) {
    removeDatabaseFiles(target);
    throw new CliError(`backup of "${t.slug}" failed: ${(e as Error).message}`);
  }
}

/** How long the old namespace outlives the switch, for requests that were already using it. */
const OLD_NAMESPACE_GRACE_MS = 3000;

const stamp = () => new Date().toISOString().replace(/[-:.]/g, "").toLowerCase();

/**
 * Loads the backup into a new namespace, checks and migrates it there, fences the old database, then
 * points the catalog at the new namespace in one write. The old namespace is deleted when it is on the
 * configured server (an adopted `--db-url` database is left as it is, fenced).
 */
export async function restoreRemote(
  catalog: Catalog,
  t: Tenant,
  from: string,
  sqld?: SqldConfig,
  stage: Stage = () => Promise.resolve(),
) {
  if (!sqld) {
    throw new CliError(
      `tenant "${t.slug}" is on a libSQL server: restoring it needs SQLD_ADMIN_URL and SQLD_URL`,
    );
  }
  // Opening the backup itself would change it (journal mode): a private copy is read instead.
  const dir = mkdtempSync(join(tmpdir(), "restore-"));
  const copy = join(dir, "backup.db");
  try {
    copyFileSync(from, copy);
    if (existsSync(`${from}-wal`)) copyFileSync(`${from}-wal`, `${copy}-wal`);
    await withClient("file:" + copy, null, (c) => verifyTenant(c, from)).catch((e) => {
      throw e instanceof CliError ? e : new CliError(`${from} is not a valid tenant database: ${e.message}`);
    });
    const namespace = `${t.slug}-${stamp()}`;
    const made = await createNamespace(sqld, namespace).catch((e) => {
      throw new CliError(e.message);
    });
    // This command's own until the catalog points at it: killed before the switch, the next command for the
    // slug (run from this DATA_DIR) deletes it (db/provision.ts recoverSlug).
    notePending(catalog.dataDir, t.slug, namespace);
    const old = namespaceOf(sqld.baseUrl, t.db_url);
    try {
      await withClient("file:" + copy, null, (src) =>
        withClient(made.url, made.token, async (dst) => {
          await verifyCopy(dst, (await copyDatabase(src, dst)).counts);
          await verifyTenant(dst, `the restored namespace ${namespace}`, "integrity_check");
          await migrateTenant(tenantDrizzle(dst));
        }, true), true);
      await stage("restore:prepared");
      // The old namespace is noted before the switch: killed after it, the next command deletes it.
      if (old) notePending(catalog.dataDir, t.slug, old);
      await switchTo(catalog, t, made, stage);
    } catch (e) {
      await deleteNamespace(sqld, namespace).catch(() => undefined);
      forgetPending(catalog.dataDir, t.slug, namespace);
      if (old) forgetPending(catalog.dataDir, t.slug, old);
      throw e instanceof CliError
        ? e
        : new CliError(`restore of "${t.slug}" failed: ${(e as Error).message}`);
    }
    forgetPending(catalog.dataDir, t.slug, namespace);
    await stage("restore:switched");
    if (!old) {
      return `restored ${t.slug} from ${from} into namespace ${namespace}; ${t.db_url} is left as it is`;
    }
    // Requests that found the tenant just before the switch may still be on the old namespace: fenced,
    // their writes are refused (503); gone, they would fail (500). They are given a moment to finish.
    await new Promise((r) => setTimeout(r, OLD_NAMESPACE_GRACE_MS));
    const left = await deleteNamespace(sqld, old).then(
      () => forgetPending(catalog.dataDir, t.slug, old) ?? "",
      (e) => `; could not delete ${old} (the next command for ${t.slug} tries again): ${e.message}`,
    );
    return `restored ${t.slug} from ${from} into namespace ${namespace}${
      left || `; deleted namespace ${old}`
    }`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Fence the old database, then one catalog write; a tenant changed meanwhile is put back as it was. */
async function switchTo(catalog: Catalog, t: Tenant, made: { url: string; token: string }, stage: Stage) {
  await fence(t.db_url, t.db_token, true);
  await stage("restore:fenced");
  let switched = false;
  try {
    const r = await catalog.db.update(tenants).set({ db_url: made.url, db_token: made.token })
      .where(and(eq(tenants.id, t.id), eq(tenants.db_url, t.db_url)));
    switched = r.rowsAffected === 1;
  } finally {
    if (!switched) await fence(t.db_url, t.db_token, false);
  }
  if (!switched) throw new CliError(`tenant "${t.slug}" changed during the restore; try again`);
}
