/**
 * What keeps the tenant CLI's commands all or nothing when they are killed (decision 037): one command per
 * tenant at a time in a DATA_DIR (a lock the kernel lets go of when its process dies), and, under that lock,
 * the removal of what a killed command left behind: database files no catalog row points at, and namespaces on
 * the libSQL server that a command noted as its own before it was killed.
 *
 * The catalog row is what makes a tenant exist. Every command changes it in one catalog transaction, made
 * after everything it points at is complete (create, restore) or before what it pointed at is removed
 * (delete, restore's old database). A command killed on either side of that write leaves the old or the new
 * tenant, and at most files or a namespace that nothing points at: the next command for the slug removes them.
 */
import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
} from "node:fs";
import { join } from "node:path";

/** Refused because another live command holds the tenant's lock. */
export class TenantBusyError extends Error {}

export interface SlugLock {
  release(): void;
}

const tenantsDir = (dataDir: string) => join(dataDir, "tenants");

/**
 * Takes the slug's lock (`tenants/.<slug>.lock`, an exclusive `flock`), or refuses at once when another live
 * process holds it. A process that dies holds nothing: the kernel drops its lock, so a killed command never
 * blocks the next. The lock file is removed on release; a holder that finds the file it locked already
 * replaced (its previous holder removed it meanwhile) locks the new one instead.
 */
export function lockSlug(dataDir: string, slug: string): SlugLock {
  mkdirSync(tenantsDir(dataDir), { recursive: true });
  const path = join(tenantsDir(dataDir), `.${slug}.lock`);
  for (;;) {
    const file = Deno.openSync(path, { read: true, write: true, create: true });
    let locked = false;
    try {
      locked = file.tryLockSync(true);
    } catch (e) {
      file.close();
      throw e;
    }
    if (!locked) {
      file.close();
      throw new TenantBusyError(
        `another tenant command is working on "${slug}" right now; try again when it is done`,
      );
    }
    const held = file.statSync();
    let there: Deno.FileInfo | undefined;
    try {
      there = Deno.statSync(path);
    } catch { /* removed by the previous holder */ }
    if (there && there.ino === held.ino && there.dev === held.dev) {
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          rmSync(path, { force: true });
          file.close();
        },
      };
    }
    file.close();
  }
}

/** A file database and the files SQLite keeps beside it. */
export const DATABASE_SUFFIXES = ["", "-wal", "-shm", "-journal"];

/** The name `create` builds a file tenant under until it is complete (`tenants/.<slug>.new.db`). */
export const buildingName = (slug: string) => `.${slug}.new.db`;

/**
 * The slug's database files that no catalog row points at (`referenced`: absolute paths of every row's file),
 * removed; answers their names. Only names this code gives a slug's databases are looked at:
 * `<slug>.db` (create), `<slug>-<UTC stamp>.db` (restore; the stamp's capital T and Z are never in a slug, so
 * no other slug's files match) and `.<slug>.new.db` (create, before it is complete). Call it holding the
 * slug's lock: no live command of this DATA_DIR is then making any of them.
 */
export function removeUnreferenced(dataDir: string, slug: string, referenced: Set<string>): string[] {
  const dir = tenantsDir(dataDir);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const escaped = slug.replace(/[-]/g, "\\-");
  const ours = new RegExp(
    `^(${escaped}(-\\d{8}T\\d{9}Z)?\\.db|\\.${escaped}\\.new\\.db)(-wal|-shm|-journal)?$`,
  );
  const removed: string[] = [];
  for (const name of names.sort()) {
    const m = ours.exec(name);
    if (!m || referenced.has(join(dir, m[1]))) continue;
    rmSync(join(dir, name), { force: true });
    removed.push(name);
  }
  return removed;
}

/** fsync of a file or a directory (a rename is durable once its directory is synced). */
export function syncPath(path: string) {
  const fd = openSync(path, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

// ---- namespaces a command made or is about to remove, until the catalog says whether they are in use ----

const pendingPath = (dataDir: string, slug: string) => join(tenantsDir(dataDir), `.${slug}.pending.json`);

/**
 * Namespaces on the libSQL server that a command of this slug noted as its own (made and not yet pointed at by
 * the catalog, or pointed at and about to be removed). Read under the slug's lock.
 */
export function pendingNamespaces(dataDir: string, slug: string): string[] {
  try {
    const parsed = JSON.parse(readFileSync(pendingPath(dataDir, slug), "utf8"));
    return Array.isArray(parsed.namespaces)
      ? parsed.namespaces.filter((n: unknown) => typeof n === "string")
      : [];
  } catch {
    return [];
  }
}

/** Writes the list whole (a temporary file renamed over it, synced), so a kill leaves the old list or the new. */
export function setPendingNamespaces(dataDir: string, slug: string, namespaces: string[]) {
  const path = pendingPath(dataDir, slug);
  if (!namespaces.length) {
    rmSync(path, { force: true });
    return;
  }
  mkdirSync(tenantsDir(dataDir), { recursive: true });
  const tmp = `${path}.tmp`;
  Deno.writeTextFileSync(tmp, JSON.stringify({ namespaces: [...new Set(namespaces)] }));
  syncPath(tmp);
  renameSync(tmp, path);
  syncPath(tenantsDir(dataDir));
}

export function notePending(dataDir: string, slug: string, namespace: string) {
  setPendingNamespaces(dataDir, slug, [...pendingNamespaces(dataDir, slug), namespace]);
}

export function forgetPending(dataDir: string, slug: string, namespace: string) {
  setPendingNamespaces(dataDir, slug, pendingNamespaces(dataDir, slug).filter((n) => n !== namespace));
}
