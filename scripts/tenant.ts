/**
 * The tenant CLI: `deno task tenant <command>` / `npm run tenant -- <command>`, over DATA_DIR.
 * Every command function takes the data directory, opens what it needs and closes it again, so tests
 * call them in-process and the process exits when a command is done.
 */
import { closeSync, copyFileSync, existsSync, openSync, readSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { and, eq, sql } from "drizzle-orm";
import type { Client } from "@libsql/client";
import { catalogLocation, parseConfig, sqldConfig, sqldRouteOf } from "../api/config.ts";
import { useSqldRoute } from "../db/client.ts";
import { Catalog, type RemoteCatalog } from "../db/catalog.ts";
import { type Tenant, tenant_hosts, tenants } from "../db/catalog/schema.ts";
import { migrateTenant, openClient, resolveDbUrl, tenantDrizzle } from "../db/client.ts";
import {
  createTenant,
  ProvisionError,
  recoverSlug,
  removeDatabaseFiles,
  type Stage,
  tenantFile,
} from "../db/provision.ts";
import { forgetPending, lockSlug, notePending, syncPath, TenantBusyError } from "../db/tenant_files.ts";
import { RETIRED } from "../db/tenants.ts";
import { deleteNamespace, namespaceOf, type SqldConfig } from "../db/sqld.ts";
import { companies, inspections, jobs, users } from "../db/schema/mod.ts";
import { CliError } from "./cli_error.ts";
import { backupRemote, fence, restoreRemote, verifyTenant } from "./tenant_remote.ts";
import { catalogInitCommand, keysInitCommand } from "./tenant_keys.ts";

export { CliError };

export const USAGE = `Usage: deno task tenant <command>   (or npm run tenant -- <command>)

Commands:
  create <slug> --name <company> --host <host>[,<host>] --admin-email <email> --admin-password <password>
         [--remote | --db-url <libsql url> --db-token <token>]
  list
  migrate [<slug>|--all]                 (no argument: every tenant)
  backup <slug> --out <file>             consistent copy while the server runs
  restore <slug> --from <file>           replace the tenant database from a backup
  disable <slug> | enable <slug>
  delete <slug> --yes
  seed-demo <slug> [--size small|large]
  keys init [--dir secrets] [--force] [--print]
                                         a key pair, tokens and admin key that lock a libSQL server:
                                         sqld_jwt_key.pem (public), sqld.env and app.env (0600)
  catalog init [--wait <seconds>]        make CATALOG_URL's namespace on SQLD_ADMIN_URL's server and check
                                         it opens with CATALOG_TOKEN only

DATA_DIR (default ./data) holds catalog.db and tenants/; CATALOG_URL puts the catalog on a libSQL
server; SQLD_ADMIN_URL and SQLD_URL name the libSQL server of --remote tenants.`;

/** Where the commands work: DATA_DIR, and the catalog and libSQL server when they are remote. */
export interface Place {
  dataDir: string;
  catalog?: RemoteCatalog;
  sqld?: SqldConfig;
  /** tests: called at each stage of create, restore, migrate and delete (`TENANT_TEST_STAGES`) */
  stage?: Stage;
}

const noStage: Stage = () => Promise.resolve();

/** A data directory alone is a place with a local catalog and no libSQL server. */
const place = (where: string | Place): Place => typeof where === "string" ? { dataDir: where } : where;

async function withCatalog<T>(where: string | Place, fn: (c: Catalog) => Promise<T>): Promise<T> {
  const { dataDir, catalog: remote } = place(where);
  const catalog = await Catalog.open(dataDir, remote);
  try {
    return await fn(catalog);
  } finally {
    catalog.close();
  }
}

/**
 * `fn` holding the slug's lock (one command per tenant at a time in a DATA_DIR, db/tenant_files.ts), after
 * removing what an interrupted command of the slug left behind; answers `fn`'s result and those leftovers.
 */
async function withSlug<T>(
  where: Place,
  catalog: Catalog,
  slug: string,
  fn: (leftovers: string[]) => Promise<T>,
): Promise<T> {
  const lock = lockSlug(where.dataDir, slug);
  try {
    return await fn(await recoverSlug(catalog, slug, where.sqld));
  } finally {
    lock.release();
  }
}

/**
 * A restore killed after it fenced the old database and before the catalog pointed elsewhere leaves the
 * tenant refusing every write. Holding the slug's lock, no restore of it is running: the fence is lifted.
 */
async function liftStaleFence(dataDir: string, t: Tenant): Promise<boolean> {
  const file = tenantFile(dataDir, t.db_url);
  if (file && !existsSync(file)) return false;
  const url = resolveDbUrl(dataDir, t.db_url);
  const fenced = await withClient(url, t.db_token, async (c) => {
    const rs = await c.execute("PRAGMA user_version");
    return Number(rs.rows[0]?.[0]) === RETIRED;
  });
  if (fenced) await fence(url, t.db_token, false);
  return fenced;
}

async function mustFind(catalog: Catalog, slug: string): Promise<Tenant> {
  const t = await catalog.bySlug(slug);
  if (!t) throw new CliError(`no tenant "${slug}"`);
  return t;
}

/** The tenant's database file (undefined for a remote database); a missing file is refused. */
function localFile(dataDir: string, t: Tenant): string | undefined {
  const file = tenantFile(dataDir, t.db_url);
  // Opening a missing file would quietly create an empty database.
  if (file && !existsSync(file)) throw new CliError(`database file ${file} of tenant "${t.slug}" is missing`);
  return file;
}

async function withClient<T>(url: string, token: string | null, fn: (c: Client) => Promise<T>) {
  const client = await openClient(url, token);
  try {
    return await fn(client);
  } finally {
    client.close();
  }
}

export function humanSize(bytes: number): string {
  const units = ["B", "KB", "MB", "GB", "TB"];
  let n = bytes, i = 0;
  while (n >= 1024 && i < units.length - 1) n /= 1024, i++;
  return i === 0 ? `${n} B` : `${n.toFixed(1)} ${units[i]}`;
}

export interface CreateOptions {
  name?: string;
  hosts: string[];
  adminEmail?: string;
  adminPassword?: string;
  dbUrl?: string;
  dbToken?: string;
  remote?: boolean;
  scryptN?: number;
}

export async function createCommand(where: string | Place, slug: string, o: CreateOptions): Promise<string> {
  if (o.dbToken && !o.dbUrl) throw new CliError("--db-token needs --db-url");
  const { sqld, stage, catalog: shared } = place(where);
  // A shared catalog names the tenant to every instance, but a file is on this machine alone: the others
  // would find a tenant whose database they cannot open (issue 33).
  if (shared && !o.remote && !o.dbUrl) {
    throw new CliError(
      "the catalog is shared (CATALOG_URL): a tenant in a file of this machine would not open on the other " +
        "instances; use --remote (SQLD_URL) or --db-url",
    );
  }
  return await withCatalog(where, async (catalog) => {
    const t = await createTenant(
      catalog,
      {
        slug,
        name: o.name ?? "",
        hosts: o.hosts,
        adminEmail: o.adminEmail ?? "",
        adminPassword: o.adminPassword ?? "",
        dbUrl: o.dbUrl,
        dbToken: o.dbToken,
        remote: o.remote,
        scryptN: o.scryptN,
      },
      sqld,
      stage,
    );
    const hosts = (await catalog.list()).find((r) => r.id === t.id)?.hosts ?? [];
    return `created tenant ${t.slug} (${t.name}) on ${hosts.join(", ")}; admin ${
      o.adminEmail!.toLowerCase()
    }`;
  });
}

/** One line per tenant: slug, name, hosts, database location, size, status (columns aligned). */
export function listCommand(where: string | Place): Promise<string[]> {
  const { dataDir } = place(where);
  return withCatalog(where, async (catalog) => {
    const rows = (await catalog.list()).map((t) => {
      const file = tenantFile(dataDir, t.db_url);
      let size = "-";
      if (file) {
        size = existsSync(file)
          ? humanSize(statSync(file).size + (existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0))
          : "missing";
      }
      return [t.slug, t.name, t.hosts.join(","), file ?? t.db_url, size, t.status];
    });
    if (!rows.length) return [`no tenants in ${dataDir}`];
    const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
    return rows.map((r) => r.map((cell, i) => cell.padEnd(widths[i])).join("  ").trimEnd());
  });
}

async function appliedMigrations(client: Client): Promise<number> {
  const exists = await client.execute(
    "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'",
  );
  if (!exists.rows.length) return 0;
  const r = await client.execute("SELECT count(*) AS n FROM __drizzle_migrations");
  return Number(r.rows[0].n);
}

/** Applies pending migrations to one tenant, or to every tenant when `slug` is absent. */
/**
 * Applies pending migrations to one tenant, or to every tenant when `slug` is absent. drizzle's migrator runs
 * every pending migration of a database in one transaction (`client.migrate`: one BEGIN ... COMMIT on a file,
 * one batch on sqld), so a migrate killed part-way leaves the database as it was, and its retry applies them.
 */
export function migrateCommand(where: string | Place, slug?: string): Promise<string[]> {
  const p = place(where);
  const { dataDir, stage = noStage } = p;
  return withCatalog(where, async (catalog) => {
    const list: Tenant[] = slug ? [await mustFind(catalog, slug)] : await catalog.list();
    if (!list.length) return [`no tenants in ${dataDir}`];
    const lines: string[] = [];
    const failed: string[] = [];
    for (const listed of list) {
      try {
        const applied = await withSlug(p, catalog, listed.slug, async () => {
          const t = await mustFind(catalog, listed.slug);
          localFile(dataDir, t);
          await liftStaleFence(dataDir, t);
          return await withClient(resolveDbUrl(dataDir, t.db_url), t.db_token, async (client) => {
            const before = await appliedMigrations(client);
            await stage("migrate:begin");
            await migrateTenant(tenantDrizzle(client));
            await stage("migrate:committed");
            return (await appliedMigrations(client)) - before;
          });
        });
        lines.push(`migrated ${listed.slug}: ${applied} migration(s) applied`);
      } catch (e) {
        failed.push(`${listed.slug}: ${(e as Error).message}`);
      }
    }
    if (failed.length) throw new CliError(`migration failed for ${failed.join("; ")}`, lines);
    return lines;
  });
}

/**
 * `VACUUM INTO` reads one snapshot of the database, so the copy is consistent while the server
 * keeps writing (WAL: readers and the writer do not block each other). A tenant on a libSQL server is
 * copied through the client in one read transaction into the same kind of file.
 */
export function backupCommand(where: string | Place, slug: string, out: string): Promise<string> {
  const { dataDir } = place(where);
  return withCatalog(where, async (catalog) => {
    const t = await mustFind(catalog, slug);
    const file = localFile(dataDir, t);
    const target = resolve(out);
    if (existsSync(target)) throw new CliError(`${out} already exists; choose another --out file`);
    if (!existsSync(dirname(target))) throw new CliError(`directory ${dirname(target)} does not exist`);
    if (!file) {
      const rows = await backupRemote(t, target);
      return `backed up ${slug} from ${t.db_url} to ${target} (${rows} rows, ${
        humanSize(statSync(target).size)
      })`;
    }
    try {
      await withClient("file:" + file, null, (c) => c.execute({ sql: "VACUUM INTO ?", args: [target] }));
    } catch (e) {
      removeDatabaseFiles(target);
      throw new CliError(`backup of "${slug}" failed: ${(e as Error).message}`);
    }
    return `backed up ${slug} to ${target} (${humanSize(statSync(target).size)})`;
  });
}

const SQLITE_HEADER = "SQLite format 3\0";

function hasSqliteHeader(file: string): boolean {
  const buf = new Uint8Array(16);
  const fd = openSync(file, "r");
  try {
    return readSync(fd, buf, 0, 16, 0) === 16 && new TextDecoder().decode(buf) === SQLITE_HEADER;
  } finally {
    closeSync(fd);
  }
}

/** Checks a copied backup is a tenant database and brings it to the current schema. */
async function prepareRestored(file: string, from: string) {
  await withClient("file:" + file, null, async (client) => {
    await verifyTenant(client, from);
    await migrateTenant(tenantDrizzle(client));
    // A copy of a file that was itself replaced must not carry that fence into service.
    await client.execute("PRAGMA user_version = 0");
  });
}

function timestamp(d = new Date()): string {
  return d.toISOString().replace(/[-:]/g, "").replace(".", "");
}

/**
 * The backup is copied to a new file, checked and migrated. Then the old file is fenced (a running
 * server's writes to it are refused from that moment, never acknowledged and lost), the catalog is
 * pointed at the new file (the server reopens on its next request: writes acknowledged from then on
 * are in the new file), and only then are the old files removed.
 */
export function restoreCommand(where: string | Place, slug: string, from: string): Promise<string> {
  const p = place(where);
  const { dataDir, sqld, stage = noStage } = p;
  return withCatalog(where, (catalog) =>
    withSlug(p, catalog, slug, async () => {
      const t = await mustFind(catalog, slug);
      const oldFile = localFile(dataDir, t);
      if (!existsSync(from) || !statSync(from).isFile()) throw new CliError(`${from} does not exist`);
      if (!hasSqliteHeader(from)) throw new CliError(`${from} is not a SQLite database`);
      // (A remote tenant's restore needs the libSQL server's admin API: without it, it is refused below.)
      if (oldFile || sqld) await liftStaleFence(dataDir, t);
      if (!oldFile) return await restoreRemote(catalog, t, from, sqld, stage);
      // The new file's name is its own from the start: no catalog row points at it until the switch below,
      // so a restore killed before that leaves it to the next command for the slug, which removes it.
      const dbUrl = `file:tenants/${slug}-${timestamp()}.db`;
      const newFile = tenantFile(dataDir, dbUrl)!;
      if (existsSync(newFile)) throw new CliError(`${newFile} already exists; try again`);
      copyFileSync(from, newFile);
      // A copy of a live WAL database holds recent commits in its -wal file.
      if (existsSync(`${from}-wal`)) copyFileSync(`${from}-wal`, `${newFile}-wal`);
      await stage("restore:copied");
      try {
        await prepareRestored(newFile, from);
        syncPath(newFile);
        syncPath(dirname(newFile));
      } catch (e) {
        removeDatabaseFiles(newFile);
        if (e instanceof CliError) throw e;
        throw new CliError(`${from} is not a valid tenant database: ${(e as Error).message}`);
      }
      await stage("restore:prepared");
      await fence("file:" + oldFile, null, true);
      await stage("restore:fenced");
      // The switch: one catalog write. Killed before it, the tenant is the old one (its fence is lifted by the
      // next command for the slug); after it, the restored one (the old file is then nobody's and is removed).
      const r = await catalog.db.update(tenants).set({ db_url: dbUrl })
        .where(and(eq(tenants.id, t.id), eq(tenants.db_url, t.db_url)));
      if (r.rowsAffected !== 1) {
        await fence("file:" + oldFile, null, false);
        removeDatabaseFiles(newFile);
        throw new CliError(`tenant "${slug}" changed during the restore; try again`);
      }
      await stage("restore:switched");
      removeDatabaseFiles(oldFile);
      return `restored ${slug} from ${from} into ${newFile}`;
    }));
}

export function setStatusCommand(
  where: string | Place,
  slug: string,
  status: "active" | "disabled",
): Promise<string> {
  return withCatalog(where, async (catalog) => {
    const t = await mustFind(catalog, slug);
    if (t.status === status) return `${slug} is already ${status}`;
    await catalog.db.update(tenants).set({ status }).where(eq(tenants.id, t.id));
    return status === "disabled"
      ? `disabled ${slug}: every request to it now answers 403`
      : `enabled ${slug}`;
  });
}

/**
 * Catalog first, in one transaction (the server stops serving the tenant at once), then the database files or
 * the namespace. Killed between the two, the tenant is gone and what it left is removed by the next command
 * for the slug (this one again, or a create). A slug that is not in the catalog is not an error: what an
 * interrupted command left of it is removed, and the answer says there was nothing else to delete.
 */
export function deleteCommand(where: string | Place, slug: string, yes: boolean): Promise<string> {
  const p = place(where);
  const { dataDir, sqld, stage = noStage } = p;
  return withCatalog(where, (catalog) =>
    withSlug(p, catalog, slug, async (leftovers) => {
      const t = await catalog.bySlug(slug);
      if (!t) {
        if (!yes) throw new CliError(`no tenant "${slug}"`);
        return leftovers.length
          ? `no tenant "${slug}" in the catalog; removed what an interrupted command left: ${
            leftovers.join(", ")
          }`
          : `no tenant "${slug}": nothing to delete`;
      }
      if (!yes) throw new CliError(`delete removes tenant "${slug}" and its data for good; add --yes`);
      const file = tenantFile(dataDir, t.db_url);
      const namespace = sqld && namespaceOf(sqld.baseUrl, t.db_url);
      // Noted before the row goes, so a kill right after leaves the namespace to the next command's recovery.
      if (namespace) notePending(dataDir, slug, namespace);
      await catalog.db.transaction(async (tx) => {
        await tx.delete(tenant_hosts).where(eq(tenant_hosts.tenant_id, t.id));
        await tx.delete(tenants).where(eq(tenants.id, t.id));
      });
      await stage("delete:unregistered");
      if (namespace) {
        await deleteNamespace(sqld, namespace).catch((e) => {
          if (/404|not found|doesn't exist|does not exist/i.test(e.message)) return;
          throw new CliError(
            `deleted ${slug} from the catalog, but not yet its namespace (${e.message}); run delete again`,
          );
        });
        forgetPending(dataDir, slug, namespace);
        return `deleted ${slug} and its namespace ${namespace} on the libSQL server`;
      }
      if (!file) return `deleted ${slug} from the catalog; its remote database ${t.db_url} is left as it is`;
      removeDatabaseFiles(file);
      return `deleted ${slug} and ${file}`;
    }));
}

export function seedDemoCommand(
  where: string | Place,
  slug: string,
  size: "small" | "large",
  scryptN = 131072,
): Promise<string> {
  const { dataDir } = place(where);
  return withCatalog(where, async (catalog) => {
    const t = await mustFind(catalog, slug);
    localFile(dataDir, t);
    return await withClient(resolveDbUrl(dataDir, t.db_url), t.db_token, async (client) => {
      const db = tenantDrizzle(client);
      await migrateTenant(db);
      // Loaded here, not at the top: the demo's data pulls in the services (0.3-0.4 s of module loading that
      // every other command, and every spawn of the CLI in the tests, would pay).
      const { seedDemo } = await import("./demo.ts");
      // The large size takes a while: its progress goes straight to the terminal.
      await seedDemo(db, { size, scryptN, log: size === "large" ? (line) => console.log(line) : undefined });
      const count = async (table: typeof companies | typeof users | typeof jobs | typeof inspections) =>
        (await db.select({ n: sql<number>`count(*)` }).from(table))[0].n;
      return `seeded ${slug} (${size}): ${await count(companies)} companies, ${await count(users)} users, ` +
        `${await count(jobs)} jobs, ${await count(inspections)} inspections`;
    });
  });
}

// ---- argument parsing ----

interface Parsed {
  positional: string[];
  flags: Map<string, string | true>;
}

/** `--flag value`, `--flag=value` and boolean flags; anything not in `valued`/`bool` is refused. */
export function parseArgs(args: string[], valued: string[], bool: string[] = []): Parsed {
  const positional: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (!a.startsWith("--")) {
      positional.push(a);
      continue;
    }
    const eqAt = a.indexOf("=");
    const name = eqAt < 0 ? a.slice(2) : a.slice(2, eqAt);
    if (flags.has(name)) throw new CliError(`--${name} given twice`);
    if (bool.includes(name)) {
      if (eqAt >= 0) throw new CliError(`--${name} takes no value`);
      flags.set(name, true);
    } else if (valued.includes(name)) {
      const value = eqAt >= 0 ? a.slice(eqAt + 1) : args[++i];
      if (value === undefined || (eqAt < 0 && value.startsWith("--"))) {
        throw new CliError(`--${name} needs a value`);
      }
      flags.set(name, value);
    } else {
      throw new CliError(`unknown flag --${name}`);
    }
  }
  return { positional, flags };
}

function positionals(p: Parsed, names: string[], optional = 0): string[] {
  const required = names.length - optional;
  if (p.positional.length < required) throw new CliError(`missing <${names[p.positional.length]}>`);
  if (p.positional.length > names.length) {
    throw new CliError(`unexpected argument "${p.positional[names.length]}"`);
  }
  return p.positional;
}

function required(p: Parsed, name: string): string {
  const v = p.flags.get(name);
  if (typeof v !== "string" || !v) throw new CliError(`--${name} is required`);
  return v;
}

const str = (p: Parsed, name: string) => p.flags.get(name) as string | undefined;

export interface RunOptions extends Place {
  scryptN?: number;
}

/** Runs one command line; returns the success lines. Throws CliError/ProvisionError on bad input. */
export async function run(argv: string[], o: RunOptions): Promise<string[]> {
  const [command, ...args] = argv;
  const where: Place = { dataDir: o.dataDir, catalog: o.catalog, sqld: o.sqld, stage: o.stage };
  switch (command) {
    case "create": {
      const p = parseArgs(args, ["name", "host", "admin-email", "admin-password", "db-url", "db-token"], [
        "remote",
      ]);
      const [slug] = positionals(p, ["slug"]);
      const name = required(p, "name");
      const hosts = required(p, "host").split(",").map((h) => h.trim()).filter(Boolean);
      return [
        await createCommand(where, slug, {
          name,
          hosts,
          adminEmail: required(p, "admin-email"),
          adminPassword: required(p, "admin-password"),
          dbUrl: str(p, "db-url"),
          dbToken: str(p, "db-token"),
          remote: p.flags.has("remote"),
          scryptN: o.scryptN,
        }),
      ];
    }
    case "list":
      positionals(parseArgs(args, []), []);
      return listCommand(where);
    case "migrate": {
      const p = parseArgs(args, [], ["all"]);
      const [slug] = positionals(p, ["slug"], 1);
      if (slug && p.flags.has("all")) throw new CliError("give either <slug> or --all, not both");
      return migrateCommand(where, slug);
    }
    case "backup": {
      const p = parseArgs(args, ["out"]);
      const [slug] = positionals(p, ["slug"]);
      return [await backupCommand(where, slug, required(p, "out"))];
    }
    case "restore": {
      const p = parseArgs(args, ["from"]);
      const [slug] = positionals(p, ["slug"]);
      return [await restoreCommand(where, slug, required(p, "from"))];
    }
    case "disable":
    case "enable": {
      const [slug] = positionals(parseArgs(args, []), ["slug"]);
      return [await setStatusCommand(where, slug, command === "disable" ? "disabled" : "active")];
    }
    case "delete": {
      const p = parseArgs(args, [], ["yes"]);
      const [slug] = positionals(p, ["slug"]);
      return [await deleteCommand(where, slug, p.flags.has("yes"))];
    }
    case "seed-demo": {
      const p = parseArgs(args, ["size"]);
      const [slug] = positionals(p, ["slug"]);
      const size = str(p, "size") ?? "small";
      if (size !== "small" && size !== "large") throw new CliError("--size must be small or large");
      return [await seedDemoCommand(where, slug, size, o.scryptN)];
    }
    case "keys": {
      const [sub, ...rest] = args;
      if (sub !== "init") throw new CliError(`unknown command "keys ${sub ?? ""}" (see --help)`);
      const p = parseArgs(rest, ["dir", "catalog-namespace"], ["force", "print"]);
      positionals(p, []);
      return await keysInitCommand({
        dir: str(p, "dir") ?? "secrets",
        force: p.flags.has("force"),
        print: p.flags.has("print"),
        catalogNamespace: str(p, "catalog-namespace"),
      });
    }
    case "catalog": {
      const [sub, ...rest] = args;
      if (sub !== "init") throw new CliError(`unknown command "catalog ${sub ?? ""}" (see --help)`);
      const p = parseArgs(rest, ["wait"]);
      positionals(p, []);
      const wait = Number(str(p, "wait") ?? "0");
      if (!Number.isInteger(wait) || wait < 0 || wait > 3600) {
        throw new CliError("--wait must be a whole number of seconds (at most 3600)");
      }
      return await catalogInitCommand(o.sqld, o.catalog, wait);
    }
    default:
      throw new CliError(`unknown command "${command}" (see --help)`);
  }
}

/**
 * `TENANT_TEST_STAGES=1` (tests only): each stage prints `stage <name>` on stderr and waits for a line on stdin
 * before it goes on, so a test can kill the command at exactly that point (end of input: no more waits).
 */
function pausingStage(): Stage {
  const reader = Deno.stdin.readable.getReader();
  let ended = false;
  let buffered = "";
  const dec = new TextDecoder();
  return async (name) => {
    console.error(`stage ${name}`);
    while (!ended && !buffered.includes("\n")) {
      const { value, done } = await reader.read();
      if (done) ended = true;
      else buffered += dec.decode(value);
    }
    buffered = buffered.slice(buffered.indexOf("\n") + 1);
  };
}

async function main(): Promise<number> {
  const argv = Deno.args;
  if (!argv.length || argv.includes("--help") || argv.includes("-h") || argv[0] === "help") {
    console.log(USAGE);
    return 0;
  }
  try {
    const config = parseConfig(Deno.env.toObject());
    useSqldRoute(sqldRouteOf(config));
    const lines = await run(argv, {
      dataDir: config.DATA_DIR,
      catalog: catalogLocation(config),
      sqld: sqldConfig(config),
      scryptN: config.SCRYPT_N,
      stage: Deno.env.get("TENANT_TEST_STAGES") ? pausingStage() : undefined,
    });
    for (const line of lines) console.log(line);
    return 0;
  } catch (e) {
    if (e instanceof CliError) { for (const line of e.output) console.log(line); }
    const known = e instanceof CliError || e instanceof ProvisionError || e instanceof TenantBusyError;
    const message = (e as Error)?.message ?? String(e);
    console.error(`error: ${message.split("\n")[0]}`);
    if (!known && Deno.env.get("DEBUG")) console.error(e);
    return 1;
  }
}

if (import.meta.main) Deno.exit(await main());
