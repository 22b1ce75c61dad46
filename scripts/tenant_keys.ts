/**
 * `tenant keys init` and `tenant catalog init` (decision 053): what locks a libSQL server (sqld) for a
 * deployment, and the catalog's namespace on it.
 *
 * `keys init` makes an Ed25519 key pair: its public half is the file sqld reads with `--auth-jwt-key-file`
 * (SPKI PEM, "-----BEGIN PUBLIC KEY-----"), which guards every namespace without a key of its own (the
 * catalog); its private half signs one token scoped to the catalog's namespace (CATALOG_TOKEN) and is then
 * thrown away. It also makes sqld's admin API key (`LIBSQL_ADMIN_AUTH_KEY` for sqld, `SQLD_ADMIN_TOKEN`
 * for the app and the CLI). Tenant namespaces need nothing from here: `create --remote` gives each its own
 * key and token (decision 020). Secrets go to files of mode 0600 and are printed only with `--print`.
 */
import { Buffer } from "node:buffer";
import { chmodSync, existsSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { openClient } from "../db/client.ts";
import type { RemoteCatalog } from "../db/catalog.ts";
import { namespaceOf, type SqldConfig } from "../db/sqld.ts";
import { CliError } from "./cli_error.ts";

/** The files `keys init` writes in its directory, as docker-compose.yml reads them. */
export const KEY_FILES = {
  /** public: sqld's `--auth-jwt-key-file` (readable by sqld's own user in its container, so 0644) */
  publicKey: "sqld_jwt_key.pem",
  /** secret: sqld's environment (`env_file`), the admin API key */
  sqldEnv: "sqld.env",
  /** secret: the app instances' and the CLI's environment (`env_file`) */
  appEnv: "app.env",
} as const;

const b64url = (bytes: ArrayBuffer | Uint8Array) => Buffer.from(bytes as Uint8Array).toString("base64url");

/** An Ed25519 token for sqld: `{"p": {"rw": {"ns": [namespace]}}}`, read and write on one namespace. */
export async function signNamespaceToken(privateKey: CryptoKey, namespace: string): Promise<string> {
  const json = (v: unknown) => b64url(new TextEncoder().encode(JSON.stringify(v)));
  const signing = `${json({ alg: "EdDSA", typ: "JWT" })}.${json({ p: { rw: { ns: [namespace] } } })}`;
  const signature = await crypto.subtle.sign("Ed25519", privateKey, new TextEncoder().encode(signing));
  return `${signing}.${b64url(signature)}`;
}

/** The public key as sqld reads it: SPKI DER in a PEM "PUBLIC KEY" block. */
export async function publicKeyPem(publicKey: CryptoKey): Promise<string> {
  const der = Buffer.from(await crypto.subtle.exportKey("spki", publicKey)).toString("base64");
  const lines = der.match(/.{1,64}/g)!.join("\n");
  return `-----BEGIN PUBLIC KEY-----\n${lines}\n-----END PUBLIC KEY-----\n`;
}

/** Writes a file whole (a temporary beside it, then renamed) with exactly `mode`. */
function writeFile(path: string, text: string, mode: number) {
  const tmp = `${path}.${crypto.randomUUID()}.tmp`;
  writeFileSync(tmp, text, { mode, flag: "wx" });
  chmodSync(tmp, mode); // the umask may have narrowed it
  renameSync(tmp, path);
}

export interface KeysInitOptions {
  dir: string;
  /** replace existing keys (rotation: sqld and every instance must then be restarted) */
  force?: boolean;
  /** the catalog's namespace, the first label of CATALOG_URL's host */
  catalogNamespace?: string;
  /** also print the secrets (the two env files) */
  print?: boolean;
}

export async function keysInitCommand(o: KeysInitOptions): Promise<string[]> {
  const dir = resolve(o.dir);
  const ns = o.catalogNamespace ?? "catalog";
  if (!/^[a-z0-9][a-z0-9-]{0,62}$/.test(ns)) throw new CliError(`"${ns}" is not a valid namespace name`);
  const paths = Object.values(KEY_FILES).map((f) => join(dir, f));
  const taken = paths.filter((p) => existsSync(p));
  if (taken.length && !o.force) {
    throw new CliError(
      `${
        taken[0]
      } already exists: keys are made once (--force makes new ones; then restart sqld and every instance)`,
    );
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // The directory ignores itself, so a `git add -A` in a checkout never takes the secrets.
  if (!existsSync(join(dir, ".gitignore"))) writeFile(join(dir, ".gitignore"), "*\n", 0o644);

  const pair = await crypto.subtle.generateKey({ name: "Ed25519" }, true, [
    "sign",
    "verify",
  ]) as CryptoKeyPair;
  const catalogToken = await signNamespaceToken(pair.privateKey, ns);
  const adminKey = b64url(crypto.getRandomValues(new Uint8Array(32)));
  const sqldEnv = [
    "# sqld's environment (docker-compose.yml env_file), made by `tenant keys init`. Secret: keep it 0600.",
    `LIBSQL_ADMIN_AUTH_KEY=${adminKey}`,
    "",
  ].join("\n");
  const appEnv = [
    "# The app instances' and the tenant CLI's environment, made by `tenant keys init`. Secret: keep it 0600.",
    `# CATALOG_TOKEN opens the libSQL namespace "${ns}" only (signed with ${KEY_FILES.publicKey}'s pair).`,
    `CATALOG_TOKEN=${catalogToken}`,
    `SQLD_ADMIN_TOKEN=${adminKey}`,
    "",
  ].join("\n");
  writeFile(join(dir, KEY_FILES.publicKey), await publicKeyPem(pair.publicKey), 0o644);
  writeFile(join(dir, KEY_FILES.sqldEnv), sqldEnv, 0o600);
  writeFile(join(dir, KEY_FILES.appEnv), appEnv, 0o600);

  const lines = [
    `wrote ${join(dir, KEY_FILES.publicKey)} (public key: sqld --auth-jwt-key-file)`,
    `wrote ${join(dir, KEY_FILES.sqldEnv)} (0600: LIBSQL_ADMIN_AUTH_KEY for sqld)`,
    `wrote ${join(dir, KEY_FILES.appEnv)} (0600: CATALOG_TOKEN for namespace "${ns}", SQLD_ADMIN_TOKEN)`,
    "the private key signed CATALOG_TOKEN and was not kept",
  ];
  if (o.print) lines.push(...sqldEnv.split("\n"), ...appEnv.split("\n"));
  return lines;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Whether a statement on `url` with `token` is refused as unauthenticated (true), runs (false), or fails. */
async function refused(url: string, token: string | null): Promise<boolean> {
  const client = await openClient(url, token);
  try {
    await client.execute("SELECT 1");
    return false;
  } catch (e) {
    if (/\b401\b|unauthori[sz]ed/i.test(String((e as Error)?.message ?? e))) return true;
    throw e;
  } finally {
    client.close();
  }
}

/**
 * Makes the catalog's namespace on the libSQL server (an existing one is kept), with no key of its own, so
 * sqld's server-wide key guards it; then refuses to finish unless the namespace turns away a request without
 * a token and takes CATALOG_TOKEN. Waits up to `waitSeconds` for the admin API to answer (a server starting).
 */
export async function catalogInitCommand(
  sqld: SqldConfig | undefined,
  catalog: RemoteCatalog | undefined,
  waitSeconds = 0,
): Promise<string[]> {
  if (!sqld) throw new CliError("catalog init needs SQLD_ADMIN_URL and SQLD_URL");
  if (!catalog) throw new CliError("catalog init needs CATALOG_URL");
  if (!catalog.token) throw new CliError("catalog init needs CATALOG_TOKEN (see `tenant keys init`)");
  const ns = namespaceOf(sqld.baseUrl, catalog.url);
  if (!ns) throw new CliError(`CATALOG_URL ${catalog.url} is not a namespace of SQLD_URL ${sqld.baseUrl}`);
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (sqld.adminToken) headers.authorization = `basic ${sqld.adminToken}`;
  const deadline = Date.now() + waitSeconds * 1000;
  let made = false;
  for (;;) {
    let res: Response | undefined;
    try {
      res = await fetch(new URL(`/v1/namespaces/${ns}/create`, sqld.adminUrl), {
        method: "POST",
        headers,
        // "strong": every commit synced, as file tenants (decision 020).
        body: JSON.stringify({ durability_mode: "strong" }),
        signal: AbortSignal.timeout(10_000),
      });
    } catch (e) {
      if (Date.now() < deadline) {
        await sleep(1000);
        continue;
      }
      throw new CliError(
        `the libSQL server's admin API at ${sqld.adminUrl} does not answer (${(e as Error).message})`,
      );
    }
    const text = await res.text();
    if (res.status === 401) throw new CliError("the libSQL server's admin API refused SQLD_ADMIN_TOKEN");
    if (res.ok) made = true;
    else if (!/exists/i.test(text)) {
      throw new CliError(`could not create namespace "${ns}": ${text.trim() || `HTTP ${res.status}`}`);
    }
    break;
  }
  if (!await refused(catalog.url, null)) {
    throw new CliError(
      `the catalog namespace "${ns}" answers without a token: start sqld with --auth-jwt-key-file (decision 053)`,
    );
  }
  if (await refused(catalog.url, catalog.token)) {
    throw new CliError(
      `the libSQL server refuses CATALOG_TOKEN on "${ns}": its --auth-jwt-key-file is not the key CATALOG_TOKEN was made with`,
    );
  }
  return [
    `${
      made ? "made" : "kept"
    } the catalog namespace "${ns}"; it refuses requests without a token and takes CATALOG_TOKEN`,
  ];
}
