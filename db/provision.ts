import { existsSync, mkdirSync, rmSync } from "node:fs";
import { dirname } from "node:path";
import { z } from "zod";
import type { Catalog } from "./catalog.ts";
import { normalizeHost } from "./catalog.ts";
import { tenant_hosts, tenants } from "./catalog/schema.ts";
import { migrateTenant, openClient, resolveDbUrl, tenantDrizzle } from "./client.ts";
import { companies, users } from "./schema/mod.ts";
import { hashPassword } from "../lib/password.ts";
import { ROLES } from "../lib/policy.ts";
import { createNamespace, deleteNamespace, type SqldConfig } from "./sqld.ts";

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
 * Makes the tenant database (migrated, with the owner company and an admin holding every role), and
 * only then records it in the catalog, so a running server never sees a half-made tenant. On any
 * failure the new database file, or the new namespace (`remote`, on `sqld`), is removed again.
 */
export async function createTenant(catalog: Catalog, raw: CreateTenantInput, sqld?: SqldConfig) {
  const parsed = CreateTenantInput.safeParse(raw);
  if (!parsed.success) throw new ProvisionError(parsed.error.issues[0].message);
  const input = parsed.data;
  const hosts = [...new Set(input.hosts)];
  if (await catalog.bySlug(input.slug)) throw new ProvisionError(`tenant "${input.slug}" already exists`);
  const taken = await catalog.hostsTaken(hosts);
  if (taken.length) throw new ProvisionError(`host ${taken.join(", ")} already belongs to another tenant`);

  const made = await newDatabase(catalog.dataDir, input, sqld);
  let client;
  try {
    client = await openClient(made.openUrl, made.token);
  } catch (e) {
    await made.undo();
    throw new ProvisionError(`could not create tenant "${input.slug}": ${(e as Error).message}`);
  }
  try {
    const db = tenantDrizzle(client);
    await migrateTenant(db);
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
    client.close();
    await catalog.db.transaction(async (tx) => {
      const [t] = await tx.insert(tenants).values({
        slug: input.slug,
        name: input.name,
        db_url: made.url,
        db_token: made.token,
      }).returning();
      await tx.insert(tenant_hosts).values(hosts.map((host) => ({ host, tenant_id: t.id })));
    });
    return (await catalog.bySlug(input.slug))!;
  } catch (e) {
    client.close();
    await made.undo();
    if (e instanceof ProvisionError) throw e;
    throw new ProvisionError(`could not create tenant "${input.slug}": ${(e as Error).message}`);
  }
}

/**
 * Where the new tenant's database goes: a new file under DATA_DIR, a new namespace on the libSQL server
 * (`remote`), or the adopted `dbUrl`. `undo` removes what was made.
 */
async function newDatabase(dataDir: string, input: z.output<typeof CreateTenantInput>, sqld?: SqldConfig) {
  if (input.remote && input.dbUrl) throw new ProvisionError("give either --remote or --db-url, not both");
  if (input.remote) {
    if (!sqld) throw new ProvisionError("--remote needs the libSQL server: set SQLD_ADMIN_URL and SQLD_URL");
    const { url, token } = await createNamespace(sqld, input.slug).catch((e) => {
      throw new ProvisionError(e.message);
    });
    const undo = () => deleteNamespace(sqld, input.slug).catch(() => undefined);
    return { url, token, openUrl: url, undo };
  }
  const url = input.dbUrl ?? `file:tenants/${input.slug}.db`;
  const openUrl = resolveDbUrl(dataDir, url);
  const file = tenantFile(dataDir, url);
  if (file && existsSync(file)) throw new ProvisionError(`database file ${file} already exists`);
  if (file) mkdirSync(dirname(file), { recursive: true });
  const undo = () => Promise.resolve(file && removeDatabaseFiles(file));
  return { url, token: input.dbToken, openUrl, undo };
}

export function removeDatabaseFiles(file: string) {
  for (const f of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) rmSync(f, { force: true });
}

export function tenantFile(dataDir: string, dbUrl: string): string | undefined {
  return dbUrl.startsWith("file:") ? resolveDbUrl(dataDir, dbUrl).slice("file:".length) : undefined;
}
