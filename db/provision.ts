import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { z } from "zod";
import type { Catalog } from "./catalog.ts";
import { normalizeHost } from "./catalog.ts";
import { tenant_hosts, tenants } from "./catalog/schema.ts";
import { migrateTenant, openClient, resolveDbUrl, tenantDrizzle } from "./client.ts";
import { companies, users } from "./schema/mod.ts";
import { hashPassword } from "../lib/password.ts";
import { ROLES } from "../lib/policy.ts";
import { createNamespace, deleteNamespace, namespaceOf, type SqldConfig } from "./sqld.ts";
import {
  buildingName,
  forgetPending,
  lockSlug,
  notePending,
  pendingNamespaces,
  removeUnreferenced,
  syncPath,
} from "./tenant_files.ts";

export const Slug = z.string().regex(
  /^[a-z0-9][a-z0-9-]{0,39}$/,
  "slug must be 1-40 lower-case letters, digits or dashes",
);
const HOST_RE = /^(\[[0-9a-f:]+\]|[a-z0-9]([a-z0-9.-]*[a-z0-9])?)$/;
/** Host names as the server compares them (lower case, no port), each checked and named when bad. */
const Host = z.string().transform((h, ctx) => {
  const host = normalizeHost(h);
  if (!HOST_RE.test(host)) ctx.addIssue({ code: "custom", message: `host "${h}" is not a valid host name` });
  return host;
});

export const CreateTenantInput = z.object({
  slug: Slug,
  name: z.string().trim().min(1, "--name is required").max(200),
  hosts: z.array(Host).min(1, "--host is required"),
  adminEmail: z.email("--admin-email is not a valid email address"),
  adminPassword: z.string().min(8, "--admin-password must be at least 8 characters"),
  adminName: z.string().trim().min(1).default("Administrator"),
  dbUrl: z.string().regex(
    /^(libsql|https?|wss?):\/\//,
    "--db-url must be a libsql://, http(s):// or ws(s):// URL",
  ).optional(),
  dbToken: z.string().optional(),
  /** a new namespace on the configured libSQL server */
  remote: z.boolean().optional(),
  scryptN: z.number().int().optional(),
});
export type CreateTenantInput = z.input<typeof CreateTenantInput>;

export class ProvisionError extends Error {}

/**
 * A test's window into a command (`TENANT_TEST_STAGES`, scripts/tenant.ts): called at each stage, it may
 * print the stage's name and wait, so that a test kills the command exactly there.
 */
export type Stage = (name: string) => Promise<void>;
const noStage: Stage = () => Promise.resolve();

/**
 * Makes the tenant database (migrated, with the owner company and an admin holding every role), and
 * only then records it in the catalog, so a running server never sees a half-made tenant. A file tenant
 * is built as `tenants/.<slug>.new.db` and renamed to `tenants/<slug>.db` once complete and closed; the
 * catalog row, written last in one transaction, is what makes it exist. On any failure what was made (the
 * file, or the namespace on `sqld`) is removed again; when the process is killed instead, the next command
 * for the slug removes it (`recoverSlug`), and a retry of `create` completes. Holds the slug's lock
 * (db/tenant_files.ts) throughout, so no other command of this DATA_DIR works on the slug meanwhile.
 */
export async function createTenant(
  catalog: Catalog,
  raw: CreateTenantInput,
  sqld?: SqldConfig,
  stage: Stage = noStage,
) {
  const parsed = CreateTenantInput.safeParse(raw);
  if (!parsed.success) throw new ProvisionError(parsed.error.issues[0].message);
  const input = parsed.data;
  const hosts = [...new Set(input.hosts)];
  if (input.remote && input.dbUrl) throw new ProvisionError("give either --remote or --db-url, not both");
  if (input.remote && !sqld) {
    throw new ProvisionError("--remote needs the libSQL server: set SQLD_ADMIN_URL and SQLD_URL");
  }
  const lock = lockSlug(catalog.dataDir, input.slug);
  try {
    await recoverSlug(catalog, input.slug, sqld);
    if (await catalog.bySlug(input.slug)) throw new ProvisionError(`tenant "${input.slug}" already exists`);
    const taken = await catalog.hostsTaken(hosts);
    if (taken.length) throw new ProvisionError(`host ${taken.join(", ")} already belongs to another tenant`);
    return await build(catalog, input, hosts, stage, sqld);
  } finally {
    lock.release();
  }
}

async function build(
  catalog: Catalog,
  input: z.output<typeof CreateTenantInput>,
  hosts: string[],
  stage: Stage,
  sqld?: SqldConfig,
) {
  const made = await newDatabase(catalog, input, sqld);
  await stage("create:made");
  let client;
  try {
    client = await openClient(made.buildUrl, made.token);
  } catch (e) {
    await made.undo();
    throw new ProvisionError(`could not create tenant "${input.slug}": ${(e as Error).message}`);
  }
  try {
    const db = tenantDrizzle(client);
    await migrateTenant(db);
    await stage("create:migrated");
    const password_hash = await hashPassword(input.adminPassword, input.scryptN);
    await db.transaction(async (tx) => {
      const [owner] = await tx.insert(companies).values({
        name: input.name,
        company_type: "inspection_company",
        isOwner: true,
        settings: { apps: ["sales"] },
      }).returning();
      await tx.insert(users).values({
        name: input.adminName,
        email: input.adminEmail.toLowerCase(),
        phone: "",
        password_hash,
        account_type: "Company-Admin",
        company_id: owner.id,
        permissions: [...ROLES, "approval-authority"],
      });
    });
    await stage("create:filled");
    await made.complete(client);
    client = undefined;
    await stage("create:in-place");
    await catalog.db.transaction(async (tx) => {
      const [t] = await tx.insert(tenants).values({
        slug: input.slug,
        name: input.name,
        db_url: made.url,
        db_token: made.token,
      }).returning();
      await tx.insert(tenant_hosts).values(hosts.map((host) => ({ host, tenant_id: t.id })));
    });
    made.registered();
    await stage("create:registered");
    return (await catalog.bySlug(input.slug))!;
  } catch (e) {
    client?.close();
    await made.undo();
    if (e instanceof ProvisionError) throw e;
    throw new ProvisionError(`could not create tenant "${input.slug}": ${(e as Error).message}`);
  }
}

/**
 * Where the new tenant's database goes: a new file under DATA_DIR, a new namespace on the libSQL server
 * (`remote`), or the adopted `dbUrl`. `buildUrl` is where it is built; `complete` closes the client and
 * puts the database where `url` says; `registered` is called once the catalog points at it; `undo`
 * removes what was made (only what no catalog row points at).
 */
async function newDatabase(catalog: Catalog, input: z.output<typeof CreateTenantInput>, sqld?: SqldConfig) {
  const dataDir = catalog.dataDir;
  const closing = (client: { close(): void }) => Promise.resolve(client.close());
  if (input.remote) {
    const { url, token } = await createNamespace(sqld!, input.slug).catch((e) => {
      throw new ProvisionError(e.message);
    });
    // Noted as this command's own once sqld made it (a namespace of the same name made by anyone else was
    // refused above): a kill from here on leaves it to `recoverSlug`, which removes it unless the catalog
    // points at it.
    notePending(dataDir, input.slug, input.slug);
    const undo = async () => {
      await deleteNamespace(sqld!, input.slug).catch(() => undefined);
      forgetPending(dataDir, input.slug, input.slug);
    };
    const registered = () => forgetPending(dataDir, input.slug, input.slug);
    return { url, token, buildUrl: url, complete: closing, registered, undo };
  }
  if (input.dbUrl) {
    const noop = () => Promise.resolve();
    return {
      url: input.dbUrl,
      token: input.dbToken,
      buildUrl: input.dbUrl,
      complete: closing,
      registered: noop,
      undo: noop,
    };
  }
  const url = `file:tenants/${input.slug}.db`;
  const file = tenantFile(dataDir, url)!;
  const dir = dirname(file);
  const building = join(dir, buildingName(input.slug));
  // recoverSlug removed what no catalog row points at: a file here now belongs to a tenant.
  if (existsSync(file)) throw new ProvisionError(`database file ${file} already exists`);
  mkdirSync(dir, { recursive: true });
  removeDatabaseFiles(building);
  /**
   * The database is whole in one file before it gets its name: switched out of WAL (which checkpoints every
   * commit into the file and removes the -wal), closed, synced, then renamed in one step (rename is atomic
   * within a directory) and the directory synced. The server switches it back to WAL when it opens it.
   */
  const complete = async (client: { execute(sql: string): Promise<unknown>; close(): void }) => {
    try {
      await client.execute("PRAGMA journal_mode=DELETE");
    } finally {
      client.close();
    }
    if (existsSync(`${building}-wal`)) throw new Error(`${building}-wal is still there after the checkpoint`);
    syncPath(building);
    renameSync(building, file);
    syncPath(dir);
  };
  const undo = async () => {
    removeDatabaseFiles(building);
    if (!(await referencedFiles(catalog)).has(file)) removeDatabaseFiles(file);
  };
  return { url, token: input.dbToken, buildUrl: "file:" + building, complete, registered: () => {}, undo };
}

/** Absolute paths of the files every catalog row points at. */
async function referencedFiles(catalog: Catalog): Promise<Set<string>> {
  const rows = await catalog.db.select({ db_url: tenants.db_url }).from(tenants);
  return new Set(rows.map((r) => tenantFile(catalog.dataDir, r.db_url)).filter((f): f is string => !!f));
}

/**
 * Removes what a killed command of this slug left behind: its database files no catalog row points at
 * (db/tenant_files.ts `removeUnreferenced`), and the namespaces it noted as its own that no row points at.
 * Call it holding the slug's lock. Answers what it removed, one phrase each.
 */
export async function recoverSlug(catalog: Catalog, slug: string, sqld?: SqldConfig): Promise<string[]> {
  const removed = removeUnreferenced(catalog.dataDir, slug, await referencedFiles(catalog));
  const pending = pendingNamespaces(catalog.dataDir, slug);
  if (pending.length && sqld) {
    const rows = await catalog.db.select({ db_url: tenants.db_url }).from(tenants);
    const used = new Set(rows.map((r) => namespaceOf(sqld.baseUrl, r.db_url)));
    for (const ns of pending) {
      if (!used.has(ns)) {
        await deleteNamespace(sqld, ns).catch((e) => {
          // Already gone is what was wanted.
          if (!/404|not found|doesn't exist|does not exist/i.test((e as Error).message)) throw e;
        });
        removed.push(`namespace ${ns}`);
      }
      forgetPending(catalog.dataDir, slug, ns);
    }
  }
  return removed;
}

export function removeDatabaseFiles(file: string) {
  for (const f of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) rmSync(f, { force: true });
}

export function tenantFile(dataDir: string, dbUrl: string): string | undefined {
  return dbUrl.startsWith("file:") ? resolveDbUrl(dataDir, dbUrl).slice("file:".length) : undefined;
}
