/**
 * docker-compose.yml's sqld, started for real: the argv the image's entrypoint would exec (deploy_entrypoint.ts)
 * given to the sqld binary of the same version, with keys from `tenant keys init`, then the file's catalog
 * one-shot and a `create --remote`, and requests without and with tokens on the catalog and a tenant namespace.
 * Only the container's addresses and paths become loopback ports and a temporary directory.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { addressFetch } from "../db/sqld.ts";
import { entrypointArgv, SQLD_WORKDIR } from "./deploy_entrypoint.ts";
import { keysInitCommand } from "./tenant_keys.ts";
import { freePort, SQLD_PATH } from "./testing/sqld.ts";
import { type Check, type Compose, interpolate, ROOT } from "./deploy_compose.ts";

const dec = new TextDecoder();

/** `KEY=value` lines of an env file (comments and blank lines skipped), as compose reads them. */
export function parseEnvFile(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of text.split("\n")) {
    const m = /^\s*([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line);
    if (m) env[m[1]] = m[2].trim();
  }
  return env;
}

const list = (
  v: unknown,
): string[] => (v === undefined ? [] : Array.isArray(v) ? v.map(String) : [String(v)]);

/** A service's environment as the container gets it: its env_file(s) under `dir`, then `environment`. */
function serviceEnv(service: Compose, dir: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const f of list(service.env_file)) {
    Object.assign(env, parseEnvFile(readFileSync(join(dir, f), "utf8")));
  }
  for (const [k, v] of Object.entries(service.environment ?? {})) env[k] = String(v ?? "");
  return env;
}

/** One pipeline request to a namespace by name, through sqld's address; answers the status and the body. */
async function pipeline(port: number, host: string, token: string | undefined, sql: string) {
  const res = await addressFetch({ host: "127.0.0.1", port })(`http://${host}/v2/pipeline`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ requests: [{ type: "execute", stmt: { sql } }, { type: "close" }] }),
  });
  return { status: res.status, body: await res.text() };
}

async function waitUp(url: string, exited: () => boolean): Promise<boolean> {
  const until = Date.now() + 15_000;
  while (Date.now() < until && !exited()) {
    if (await fetch(url).then((r) => (r.body?.cancel(), r.ok), () => false)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

/** docker-compose.yml's sqld running here, with the container's addresses and paths mapped to this machine. */
export interface LocalSqld {
  /** the argv the image's entrypoint execs, as the container has it */
  argv: string[];
  /** sqld's user API (container port 8080) and admin API, on loopback */
  httpPort: number;
  adminPort?: number;
  /** a container address or path (`0.0.0.0:8080`, `sqld:9090`, `/run/secrets/...`, `/var/lib/sqld/...`), here */
  here(s: string): string;
  /** a service's environment as its container gets it (env files, then `environment`), mapped here */
  envOf(service: string): Record<string, string>;
  stop(): Promise<void>;
}

/**
 * Starts the compose file's sqld in `dir` (the compose file's directory as an operator has it after `tenant keys
 * init`: `dir/secrets`), as its image would: answers it, or why it did not start (exit code and error line).
 */
export async function startLocalSqld(compose: Compose, dir: string): Promise<LocalSqld | { failed: string }> {
  const root = join(dir, "root");
  const sqld = compose.services.sqld;
  const sqldEnv = interpolate(serviceEnv(sqld, dir)) as Record<string, string>;
  const argv = entrypointArgv(interpolate(list(sqld.command)) as string[], sqldEnv);
  const ports = new Map<string, number>();
  for (const m of [...argv, ...Object.values(sqldEnv)].join(" ").matchAll(/0\.0\.0\.0:(\d+)/g)) {
    if (!ports.has(m[1])) ports.set(m[1], freePort());
  }
  const secretFiles = new Map<string, string>();
  for (const s of list(sqld.secrets)) {
    secretFiles.set(`/run/secrets/${s}`, join(dir, compose.secrets[s].file));
  }
  const here = (s: string) => {
    let out = s.replace(/0\.0\.0\.0:(\d+)/g, (_, p) => `127.0.0.1:${ports.get(p)}`)
      .replace(/\bsqld:(\d+)/g, (_, p) => `127.0.0.1:${ports.get(p)}`);
    for (const [target, file] of secretFiles) out = out.replaceAll(target, file);
    return out.replace(/(^|=)(\/var\/lib\/sqld)/, (_, pre, path) => pre + join(root, path));
  };
  const envOf = (service: string): Record<string, string> =>
    Object.fromEntries(
      Object.entries(interpolate(serviceEnv(compose.services[service], dir)) as Record<string, string>)
        .map(([k, v]) => [k, here(v)]),
    );
  const httpPort = ports.get("8080");
  if (!httpPort) return { failed: `no HTTP listener on port 8080: ${argv.join(" ")}` };
  const adminPort = [...ports.entries()].find(([p]) =>
    argv.join(" ").includes(`admin-listen-addr=0.0.0.0:${p}`)
  )?.[1];

  // docker-wrapper.sh makes SQLD_DB_PATH (relative to the WORKDIR) before the entrypoint runs.
  const workdir = join(root, SQLD_WORKDIR);
  const dbPath = here(sqldEnv.SQLD_DB_PATH || "iku.db");
  mkdirSync(dbPath.startsWith("/") ? dbPath : join(workdir, dbPath), { recursive: true });
  let exited = false;
  const proc = new Deno.Command(SQLD_PATH, {
    args: argv.slice(1).map(here),
    cwd: workdir,
    clearEnv: true,
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", ...envOf("sqld") },
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const stderr = new Response(proc.stderr).text();
  const status = proc.status.then((s) => (exited = true, s));
  const stop = async () => {
    try {
      proc.kill("SIGKILL");
    } catch { /* gone */ }
    await status;
  };
  if (!await waitUp(`http://127.0.0.1:${httpPort}/health`, () => exited)) {
    await stop();
    const text = await stderr;
    const why = text.split("\n").find((l) => /error/i.test(l)) ?? text.slice(-300);
    return { failed: `exit ${(await status).code}: ${why.trim()}` };
  }
  return { argv, httpPort, adminPort, here, envOf, stop };
}

export async function sqldChecks(compose: Compose): Promise<Check[]> {
  const checks: Check[] = [];
  const dir = mkdtempSync(join(tmpdir(), "deploy-check-"));
  let sqld: LocalSqld | undefined;
  try {
    await keysInitCommand({ dir: join(dir, "secrets") });
    const started = await startLocalSqld(compose, dir);
    const name = "sqld starts with the entrypoint's argv";
    if ("failed" in started) {
      checks.push({ name, ok: false, detail: started.failed });
      return checks;
    }
    sqld = started;
    const { argv, httpPort, adminPort, envOf } = sqld;
    checks.push({ name, ok: true, detail: argv.join(" ") });
    if (adminPort) {
      const res = await fetch(`http://127.0.0.1:${adminPort}/v1/namespaces/probe/create`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      });
      await res.body?.cancel();
      checks.push({
        name: "admin API refuses a request without its key",
        ok: res.status === 401,
        detail: `${res.status}`,
      });
    }

    // The app side: the catalog one-shot as the file runs it, then a tenant as the README makes it.
    const oneShot = list(compose.services.catalog.command);
    const catalogEnv = { ...envOf("catalog"), DATA_DIR: join(dir, "cli") };
    for (const run of [1, 2]) {
      const out = await new Deno.Command(join(ROOT, oneShot[0]), {
        args: oneShot.slice(1),
        cwd: ROOT,
        env: catalogEnv,
      })
        .output();
      const text = (dec.decode(out.stdout) + dec.decode(out.stderr)).trim();
      checks.push({
        name: `catalog one-shot, run ${run}`,
        ok: out.success,
        detail: text.split("\n").pop() ?? "",
      });
    }
    const env: Record<string, string> = {
      ...envOf("app1"),
      DATA_DIR: join(dir, "cli"),
      SCRYPT_N: "1024",
    };
    const created = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        "scripts/tenant.ts",
        "create",
        "acme",
        "--name",
        "Acme",
        "--host",
        "acme.example",
        "--admin-email",
        "admin@acme.example",
        "--admin-password",
        "a-long-passphrase",
        "--remote",
      ],
      cwd: ROOT,
      env,
    }).output();
    const createdText = (dec.decode(created.stdout) + dec.decode(created.stderr)).trim();
    checks.push({ name: "tenant create --remote", ok: created.success, detail: createdText });
    if (!created.success) return checks;

    const catalogHost = new URL(env.CATALOG_URL).host;
    const token = env.CATALOG_TOKEN;
    const q = "SELECT db_url, db_token FROM tenants WHERE slug = 'acme'";
    const open = await pipeline(httpPort, catalogHost, undefined, q);
    checks.push({
      name: "catalog refuses a request without a token",
      ok: open.status === 401,
      detail: `${open.status}`,
    });
    const read = await pipeline(httpPort, catalogHost, token, q);
    checks.push({ name: "catalog takes CATALOG_TOKEN", ok: read.status === 200, detail: `${read.status}` });
    const row = JSON.parse(read.body).results?.[0]?.response?.result?.rows?.[0] ?? [];
    const tenantHost = new URL(row[0]?.value ?? "http://missing").host;
    const tenantToken = row[1]?.value as string | undefined;
    const select = "SELECT count(*) FROM users";
    const tenant = [
      ["tenant namespace refuses a request without a token", undefined, 401],
      ["tenant namespace refuses CATALOG_TOKEN", token, 401],
      ["tenant namespace takes its own token", tenantToken, 200],
    ] as const;
    for (const [name, t, want] of tenant) {
      const r = await pipeline(httpPort, tenantHost, t, select);
      checks.push({ name, ok: r.status === want, detail: `${tenantHost}: ${r.status}` });
    }
    const cross = await pipeline(httpPort, catalogHost, tenantToken, q);
    checks.push({
      name: "catalog refuses a tenant's token",
      ok: cross.status === 401,
      detail: `${cross.status}`,
    });
    return checks;
  } finally {
    await sqld?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
