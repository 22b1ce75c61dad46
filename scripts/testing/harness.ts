import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseConfig } from "../../api/config.ts";
import { closeServices, createApp, createServices } from "../../api/app.ts";
import type { Services } from "../../api/lib/context.ts";
import type { TenantDb } from "../../db/tenants.ts";
import { createTenant } from "../../db/provision.ts";
import { type MakeUser, makeUser } from "../../db/factories.ts";
import type { User } from "../../db/schema/mod.ts";
import { ignoreNotOnSqld, type Sqld, startSqldDatabase, testsOnSqld } from "./sqld.ts";

ignoreNotOnSqld();

export const ADMIN = { email: "admin@acme.test", password: "admin-pass-1" };

export interface RequestOptions {
  method?: string;
  json?: unknown;
  form?: Record<string, string>;
  /** Bearer token */
  token?: string;
  cookie?: string;
  host?: string;
  headers?: Record<string, string>;
}

export interface TestEnv {
  app: ReturnType<typeof createApp>;
  services: Services;
  dataDir: string;
  /** the tenant `acme` (host acme.test), with its owner company and admin */
  tenant: TenantDb;
  host: string;
  request(path: string, opts?: RequestOptions): Promise<Response>;
  /** JSON body of a request that must answer `status` (default 200). */
  json<T = any>(path: string, opts?: RequestOptions & { status?: number }): Promise<T>;
  login(email?: string, password?: string, host?: string): Promise<string>;
  /** a user of the tenant (default: the owner company) and their Bearer token */
  userWithToken(over?: MakeUser): Promise<{ user: User; token: string }>;
  /** another tenant on another host, for isolation tests */
  addTenant(slug: string, host: string): Promise<TenantDb>;
  /**
   * Another app instance over the same catalog and tenant databases, as a second process behind a proxy
   * would be: its own tenant cache, write queues, throttle and token memory. Closed with the environment.
   */
  instance(): Promise<Instance>;
  close(): Promise<void>;
}

export type Instance = ReturnType<typeof clientOf> & { services: Services };

/** Requests to one app (one instance), as a browser or API client would send them. */
export function clientOf(app: ReturnType<typeof createApp>, host: string) {
  const request = (path: string, o: RequestOptions = {}) => {
    const h = o.host ?? host;
    const headers: Record<string, string> = { host: h, ...o.headers };
    let body: BodyInit | undefined;
    if (o.json !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(o.json);
    } else if (o.form) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      body = new URLSearchParams(o.form).toString();
    }
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    if (o.cookie) {
      headers.cookie = o.cookie;
      headers.origin ??= `http://${h}`;
    }
    return Promise.resolve(app.request(`http://${h}${path}`, { method: o.method ?? "GET", headers, body }));
  };

  const json = async (path: string, o: RequestOptions & { status?: number } = {}) => {
    const res = await request(path, o);
    const text = await res.text();
    const want = o.status ?? 200;
    if (res.status !== want) {
      throw new Error(
        `${o.method ?? "GET"} ${path}: expected ${want}, got ${res.status}: ${text.slice(0, 500)}`,
      );
    }
    return text ? JSON.parse(text) : undefined;
  };

  const login = async (email = ADMIN.email, password = ADMIN.password, h = host) => {
    const body = await json("/api/login/access-token", {
      method: "POST",
      form: { username: email, password },
      host: h,
    });
    return body.access_token as string;
  };

  return { request, json, login };
}

/**
 * A real server app over a fresh DATA_DIR with one migrated tenant: no mocks, no shared state. With
 * `TEST_DB=sqld` its tenants live on real libSQL servers (scripts/testing/sqld.ts) instead of files.
 */
export async function testEnv(env: Record<string, string> = {}): Promise<TestEnv> {
  const dataDir = mkdtempSync(join(tmpdir(), "bo-test-"));
  const config = parseConfig({
    DATA_DIR: dataDir,
    SCRYPT_N: "1024",
    LOG_REQUESTS: "false",
    DEMO_TENANT: "false",
    SESSION_SECRET: "test-secret-test-secret-test-secret-0123",
    ...env,
  });
  const services = await createServices(config);
  // Tests keep a tenant's database (`tenant.db`, `addTenant`'s answer) across their requests and read it
  // directly: the cache must not close it when no request has come for a while (a slow matrix on sqld left
  // one tenant alone past `closeMs`). Trimming idle connections stays; db/tenant_idle_test.ts tests closing.
  services.tenants.setIdleLimits({ closeMs: Infinity, warm: Infinity, bytes: Infinity });
  const app = createApp(services);
  const servers: Sqld[] = [];
  const addTenant = async (slug: string, host: string) => {
    // TEST_DB=sqld: every tenant of the test on a real libSQL server of its own (the catalog stays a file).
    let dbUrl: string | undefined;
    if (testsOnSqld()) {
      const server = await startSqldDatabase();
      servers.push(server);
      dbUrl = server.url;
    }
    const t = await createTenant(services.catalog, {
      dbUrl,
      slug,
      name: `${slug[0].toUpperCase()}${slug.slice(1)} Inspections`,
      hosts: [host],
      adminEmail: ADMIN.email,
      adminPassword: ADMIN.password,
      scryptN: 1024,
    });
    return services.tenants.get(t);
  };
  const tenant = await addTenant("acme", "acme.test");
  const host = "acme.test";

  const { request, json, login } = clientOf(app, host);
  const instances: Services[] = [];

  return {
    app,
    services,
    dataDir,
    tenant,
    host,
    request,
    json,
    login,
    async userWithToken(over: MakeUser = {}) {
      const password = over.password ?? "password123";
      const user = await makeUser(tenant.db, { company_id: 1, ...over, password });
      return { user, token: await login(user.email, password) };
    },
    addTenant,
    async instance() {
      const other = await createServices(config);
      instances.push(other);
      return { services: other, ...clientOf(createApp(other), host) };
    },
    async close() {
      for (const other of instances) await closeServices(other);
      await closeServices(services);
      for (const server of servers) await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Runs `fn` with a fresh environment and always cleans it up. */
export async function withEnv(fn: (env: TestEnv) => Promise<void>, env?: Record<string, string>) {
  const e = await testEnv(env);
  try {
    await fn(e);
  } finally {
    await e.close();
  }
}

/**
 * ANALYZE on a file tenant, whose query plans the plan tests check under local statistics. A libSQL server
 * refuses ANALYZE, so on sqld (`TEST_DB=sqld`) those tests check their results only: answers whether plans
 * are checked.
 */
export async function analyzeForPlans(env: TestEnv): Promise<boolean> {
  if (!env.tenant.url.startsWith("file:")) return false;
  await env.tenant.client.execute("ANALYZE");
  return true;
}
