import { z } from "zod";
import { type SqldConfig, type SqldRoute, sqldRoute } from "../db/sqld.ts";
import type { RemoteCatalog } from "../db/catalog.ts";
import { parseTrustedProxies } from "./lib/client_address.ts";

const RemoteUrl = (name: string) =>
  z.string().regex(/^(libsql|https?|wss?):\/\//, `${name} must be a libsql://, http(s):// or ws(s):// URL`);
const HttpUrl = (name: string) =>
  z.string().regex(/^https?:\/\/[^/]+\/?$/, `${name} must be http(s)://host:port`);

/** Everything the server reads from the environment, parsed once at start. */
export const Config = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8000),
  HOST: z.string().default("0.0.0.0"),
  DATA_DIR: z.string().min(1).default("./data"),
  /** HS256 signing secret for sessions; generated once and kept in the catalog when absent. */
  SESSION_SECRET: z.string().min(32, "SESSION_SECRET must be at least 32 characters").optional(),
  SESSION_HOURS: z.coerce.number().positive().max(24 * 30).default(12),
  /** scrypt cost (N). OWASP's 2^17 by default; tests lower it. */
  SCRYPT_N: z.coerce.number().int().min(1024).default(131072),
  MAX_UPLOAD_MB: z.coerce.number().positive().default(20),
  /** Seed a demo tenant on an empty DATA_DIR (npm start). */
  DEMO_TENANT: z.enum(["true", "false"]).default("true").transform((v) => v === "true"),
  LOG_REQUESTS: z.enum(["true", "false"]).default("true").transform((v) => v === "true"),
  /** Open tenant databases kept at once (least recently used closed first). */
  TENANT_CACHE_SIZE: z.coerce.number().int().min(1).default(200),
  /**
   * The open tenant databases' estimated memory (MB): past it, the least recently used without requests are
   * closed (db/tenants.ts, decision 043).
   */
  TENANT_CACHE_MB: z.coerce.number().positive().max(65536).default(64),
  /** Requests of one tenant worked on at once; more wait their turn (one tenant never fills the server). */
  TENANT_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(6),
  /** On SIGTERM: seconds /readyz answers 503 before the server stops accepting (a proxy's time to notice). */
  DRAIN_SECONDS: z.coerce.number().min(0).max(300).default(0),
  /** Bearer token for GET /metrics (Prometheus text); unset, /metrics is 404. */
  METRICS_TOKEN: z.string().min(16, { error: "METRICS_TOKEN must be at least 16 characters" }).optional(),
  /** Log an event-loop turn longer than this (ms) with the requests in progress; 0: off. */
  STALL_LOG_MS: z.coerce.number().int().min(0).max(60_000).default(500),
  /**
   * Every this many seconds the C allocator's free memory goes back to the system (api/lib/malloc_trim.ts,
   * decision 029); 0: never.
   */
  MALLOC_TRIM_SECONDS: z.coerce.number().int().min(0).max(3600).default(10),
  /** Requests of all tenants worked on at once (tenant_gate.ts); waiting tenants take freed turns in rotation. */
  SERVER_CONCURRENCY: z.coerce.number().int().min(1).max(10000).default(8),
  /** The catalog on a libSQL server instead of DATA_DIR/catalog.db: instances share tenants and the secret. */
  CATALOG_URL: RemoteUrl("CATALOG_URL").optional(),
  CATALOG_TOKEN: z.string().optional(),
  /** sqld's admin API (`--admin-listen-addr`): `tenant create --remote` makes namespaces through it. */
  SQLD_ADMIN_URL: HttpUrl("SQLD_ADMIN_URL").optional(),
  /** sqld's `--admin-auth-key`, sent as `Authorization: basic <key>`. */
  SQLD_ADMIN_TOKEN: z.string().optional(),
  /** sqld's HTTP API as tenants reach it; namespace `acme` is `acme.<its host>` (sqld routes by host name). */
  SQLD_URL: HttpUrl("SQLD_URL").refine(
    (u) => !/^https?:\/\/(\d+\.\d+\.\d+\.\d+|\[[0-9a-f:]*\])(:\d+)?\/?$/i.test(u),
    "SQLD_URL must name a host, not an address: sqld finds a namespace by host name (<namespace>.<host>)",
  ).optional(),
  /**
   * Where sqld is reached (`host:port`) when SQLD_URL's names do not resolve there (no wildcard DNS, as in a
   * docker compose network): clients of `<namespace>.<SQLD_URL's host>` connect here with that name as Host.
   */
  SQLD_ADDRESS: z.string().regex(/^[A-Za-z0-9.-]+:\d{1,5}$/, "SQLD_ADDRESS must be host:port").optional(),
  /**
   * The proxies in front of the server (addresses or CIDR networks, comma-separated): from these peers the
   * client's address is taken from `X-Forwarded-For` (api/lib/client_address.ts, decision 054); unset, the
   * socket's peer is the client.
   */
  TRUST_PROXY: z.string().default("").transform((text, ctx) => {
    try {
      return parseTrustedProxies(text);
    } catch (e) {
      ctx.addIssue({ code: "custom", message: (e as Error).message.replace(/^TRUST_PROXY: /, "") });
      return z.NEVER;
    }
  }),
}).superRefine((c, ctx) => {
  if (c.CATALOG_TOKEN && !c.CATALOG_URL) {
    ctx.addIssue({ code: "custom", path: ["CATALOG_TOKEN"], message: "CATALOG_TOKEN needs CATALOG_URL" });
  }
  if (c.SQLD_ADDRESS && !c.SQLD_URL) {
    ctx.addIssue({ code: "custom", path: ["SQLD_ADDRESS"], message: "SQLD_ADDRESS needs SQLD_URL" });
  }
  if (!c.SQLD_ADMIN_URL !== !c.SQLD_URL) {
    const missing = c.SQLD_URL ? "SQLD_ADMIN_URL" : "SQLD_URL";
    ctx.addIssue({ code: "custom", path: [missing], message: "SQLD_ADMIN_URL and SQLD_URL go together" });
  }
});
export type Config = z.infer<typeof Config>;

export function parseConfig(env: Record<string, string | undefined>): Config {
  const parsed = Config.safeParse(
    Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== "")),
  );
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`Bad configuration: ${issue.path.join(".")}: ${issue.message}`);
  }
  return parsed.data;
}

/** The libSQL server for `tenant create --remote`, when configured. */
export function sqldConfig(c: Config): SqldConfig | undefined {
  if (!c.SQLD_ADMIN_URL || !c.SQLD_URL) return undefined;
  return { adminUrl: c.SQLD_ADMIN_URL, adminToken: c.SQLD_ADMIN_TOKEN, baseUrl: c.SQLD_URL };
}

/** Where the catalog lives: a libSQL server when CATALOG_URL is set, else DATA_DIR/catalog.db. */
export function catalogLocation(c: Config): RemoteCatalog | undefined {
  return c.CATALOG_URL ? { url: c.CATALOG_URL, token: c.CATALOG_TOKEN } : undefined;
}

/** Names under SQLD_URL's host sent to SQLD_ADDRESS, when it is set. */
export function sqldRouteOf(c: Config): SqldRoute | undefined {
  return c.SQLD_ADDRESS && c.SQLD_URL ? sqldRoute(c.SQLD_URL, c.SQLD_ADDRESS) : undefined;
}
