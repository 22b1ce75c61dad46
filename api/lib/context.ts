import type { InFlight } from "./stall_watch.ts";
import type { TrimStats } from "./malloc_trim.ts";
import type { Config } from "../config.ts";
import type { Catalog } from "../../db/catalog.ts";
import type { TenantCache, TenantDb } from "../../db/tenants.ts";
import type { TenantDatabase } from "../../db/client.ts";
import type { SessionSigner } from "../auth/token.ts";
import type { LoginThrottle } from "../auth/throttle.ts";
import type { Assets } from "../../ui/assets.ts";
import type { Company } from "../../db/schema/mod.ts";
import { AppError } from "../../lib/errors.ts";

/** Long-lived things the app is built from; made once in createApp, never from Deno.env. */
export interface Services {
  config: Config;
  catalog: Catalog;
  tenants: TenantCache;
  signer: SessionSigner;
  throttle: LoginThrottle;
  assets: Assets;
  /** requests in progress, named when the event loop stalls (api/lib/stall_watch.ts) */
  inflight: InFlight;
  /** figures of the periodic malloc_trim (api/lib/malloc_trim.ts), started by api/main.ts */
  trim: TrimStats;
  /** set when the process is shutting down: /readyz answers 503 so a proxy stops sending requests */
  draining?: boolean;
}

/** The signed-in user as the browser sees it (`GET /api/admin/users/me`). */
export interface CurrentUser {
  id: number;
  name: string;
  email: string;
  phone: string;
  active: boolean;
  isSalesRep: boolean;
  account_type: string;
  company_id: number;
  company: Pick<Company, "id" | "name" | "company_type" | "isOwner" | "settings" | "tax_id" | "custom">;
  roles: string[];
  permissions: string[];
  categories: number[];
  categories_bu: number[];
  jobs: number[];
  passwordReset: boolean;
}

/** What a service function receives: the tenant's database and who is asking. */
export interface Ctx {
  tdb: TenantDb;
  db: TenantDatabase;
  user: CurrentUser;
  config: Config;
  /** The request's `If-Match` header, checked by `requireMatch` inside the write (decision 038). */
  ifMatch?: string;
}

export type AppEnv = {
  Variables: {
    requestId: string;
    services: Services;
    tenant: TenantDb;
    user: CurrentUser | undefined;
    /** the signed-in session's id (`sid`): what logging out revokes */
    sessionId: string | undefined;
    /** true when the session came from the cookie (CSRF applies), false for Bearer. */
    cookieAuth: boolean;
  };
};

// deno-lint-ignore no-explicit-any
type AnyContext = { get: (k: any) => any; req?: { header(name: string): string | undefined } };

/** The host name the request came to: the one the tenant was found by (labels link back to it). */
export function requestHost(c: { req: { header(name: string): string | undefined; url: string } }): string {
  return c.req.header("host") ?? new URL(c.req.url).host;
}

/** The service context of a request that must be signed in; 401 otherwise. */
export function ctxOf(c: AnyContext): Ctx {
  const user = c.get("user") as CurrentUser | undefined;
  if (!user) throw new AppError("unauthorized", "Not authenticated");
  const tdb = c.get("tenant") as TenantDb;
  const config = (c.get("services") as Services).config;
  return { tdb, db: tdb.db, user, config, ifMatch: c.req?.header("if-match") };
}
