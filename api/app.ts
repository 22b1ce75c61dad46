import { createHash, timingSafeEqual } from "node:crypto";
import { securityHeaders } from "./middleware/security_headers.ts";
import { Hono } from "hono";
import { StaticAssets } from "./static_assets.ts";
import { join } from "node:path";
import { catalogLocation, type Config, sqldRouteOf } from "./config.ts";
import { stopDeepReads } from "../db/deep_reads.ts";
import { useSqldRoute } from "../db/client.ts";
import type { AppEnv, Services } from "./lib/context.ts";
import { AppError } from "../lib/errors.ts";
import { tenantMiddleware } from "./middleware/tenant.ts";
import { FairGate, tenantGate } from "./middleware/tenant_gate.ts";
import { Metrics } from "./lib/metrics.ts";
import { InFlight } from "./lib/stall_watch.ts";
import { sessionMiddleware } from "./middleware/session.ts";
import { compressMiddleware } from "./middleware/compress.ts";
import { csrfMiddleware } from "./middleware/csrf.ts";
import { bodyLimitMiddleware } from "./middleware/body_limit.ts";
import { requireSessionMiddleware } from "./middleware/require_session.ts";
import { authRoutes } from "./auth/routes.ts";
import { companiesRoutes } from "./admin/companies/routes.ts";
import { usersRoutes } from "./admin/users/routes.ts";
import { jobsRoutes } from "./pt/jobs/routes.ts";
import { partsRoutes } from "./pt/parts/routes.ts";
import { inspectionsRoutes } from "./pt/inspections/routes.ts";
import { inspectionMediaRoutes } from "./pt/inspections/media_routes.ts";
import { filesRoutes } from "./files/routes.ts";
import { itemsRoutes } from "./sales/items/routes.ts";
import { taxesRoutes } from "./sales/taxes/routes.ts";
import { categoriesRoutes } from "./sales/categories/routes.ts";
import { subCategoriesRoutes } from "./sales/sub_categories/routes.ts";
import { inventoryRoutes } from "./sales/inventory/routes.ts";
import { auditRoutes } from "./sales/audit/routes.ts";
import { availabilityRoutes } from "./sales/availability/routes.ts";
import { batchParseRoutes } from "./sales/batch_parse/routes.ts";
import { templatesRoutes } from "./sales/templates/routes.ts";
import { inventoryRowsRoutes } from "./sales/inventory_rows/routes.ts";
import { linesRoutes } from "./sales/lines/routes.ts";
import { ticketsRoutes } from "./sales/tickets/routes.ts";
import { rejectionsRoutes } from "./sales/rejections/routes.ts";
import { printingRoutes } from "./sales/printing/routes.ts";
import { serialsRoutes } from "./serials/routes.ts";
import { pageRoutes } from "../ui/routes.tsx";
import { errorPage } from "../ui/render.tsx";
import { Catalog } from "../db/catalog.ts";
import { TenantCache } from "../db/tenants.ts";
import { SessionSigner } from "./auth/token.ts";
import { LoginThrottle } from "./auth/throttle.ts";
import { Assets } from "../ui/assets.ts";
import { z } from "zod";
import { HTTPException } from "hono/http-exception";
import { zodToAppError } from "./lib/validate.ts";
import { setAnswerHeader } from "./lib/static_body.ts";
import { diskFullError, isDiskFull, isUnavailable, unavailableError } from "./lib/db_helpers.ts";

export async function createServices(config: Config): Promise<Services> {
  useSqldRoute(sqldRouteOf(config));
  const catalog = await Catalog.open(config.DATA_DIR, catalogLocation(config));
  return {
    config,
    catalog,
    tenants: new TenantCache(config.DATA_DIR, config.TENANT_CACHE_SIZE),
    signer: new SessionSigner(await catalog.sessionSecret(config.SESSION_SECRET), config.SESSION_HOURS),
    throttle: new LoginThrottle(),
    assets: new Assets(),
    inflight: new InFlight(),
    trim: { runs: 0, totalMs: 0, longestMs: 0 },
  };
}

export async function closeServices(s: Services) {
  await s.tenants.closeAll();
  s.catalog.close();
  stopDeepReads();
}

export function createApp(services: Services) {
  const app = new Hono<AppEnv>();
  const gate = new FairGate(services.config.SERVER_CONCURRENCY, services.config.TENANT_CONCURRENCY);
  const metrics = new Metrics();

  app.use(async (c, next) => {
    const id = c.req.header("x-request-id") ?? crypto.randomUUID();
    c.set("requestId", id);
    c.set("services", services);
    const start = performance.now();
    const running = services.inflight.begin(c.req.method, c.req.path, c.req.header("host"));
    try {
      await next();
    } finally {
      services.inflight.end(running);
    }
    setAnswerHeader(c, "x-request-id", id);
    metrics.observe(c.res.status, (performance.now() - start) / 1000);
    if (services.config.LOG_REQUESTS) {
      console.log(JSON.stringify({
        t: new Date().toISOString(),
        id,
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        ms: Math.round(performance.now() - start),
      }));
    }
  });
  app.use(securityHeaders);
  app.use(compressMiddleware);

  app.get("/healthz", (c) => c.json({ ok: true }));
  // Ready to take requests: not shutting down, and the catalog (every request's first read) answers and
  // names a tenant. An instance whose catalog is empty (one started without the CATALOG_URL the others share)
  // would answer 404 to every real tenant: it is not ready. How many tenants the platform has is not said.
  app.get("/readyz", async (c) => {
    if (services.draining) return c.json({ ready: false, detail: "Shutting down." }, 503);
    try {
      if (await services.catalog.count() === 0) {
        return c.json({
          ready: false,
          detail:
            "No business is served here yet: create a tenant with the tenant CLI, or point CATALOG_URL " +
            "at the catalog the other instances share.",
        }, 503);
      }
      return c.json({ ready: true });
    } catch (e) {
      console.error(JSON.stringify({ t: new Date().toISOString(), readyz: String(e) }));
      return c.json({ ready: false, detail: "The tenant catalog does not answer." }, 503);
    }
  });
  app.get("/metrics", (c) => {
    const token = services.config.METRICS_TOKEN;
    if (!token) throw new AppError("not_found", "Not found.");
    if (!sameSecret(c.req.header("authorization") ?? "", `Bearer ${token}`)) {
      throw new AppError("unauthorized", "Metrics need the metrics token.");
    }
    const { active, waiting } = gate.load;
    const { open, writesWaiting } = services.tenants.stats();
    return c.text(
      metrics.render({
        inProgress: active,
        waiting,
        tenantsOpen: open,
        writesWaiting,
        ...services.inflight.stats,
        trim: services.trim,
      }),
      200,
      { "Content-Type": "text/plain; version=0.0.4; charset=utf-8" },
    );
  });
  // The build's hashed files, brotli or gzip as written by the build (api/static_assets.ts).
  const staticAssets = new StaticAssets(join(services.assets.dir, "assets"));
  app.get("/assets/:name", async (c) => {
    const res = await staticAssets.respond(c, c.req.param("name"));
    if (!res) throw new AppError("not_found", "No such asset.");
    return res;
  });
  app.get("/assets/*", () => {
    throw new AppError("not_found", "No such asset.");
  });
  // The offline worker at the root, so its scope covers the pages; never cached, so a new build is seen.
  app.get("/sw.js", (c) =>
    c.body(services.assets.serviceWorker(), 200, {
      "Content-Type": "text/javascript; charset=utf-8",
      "Cache-Control": "no-cache",
    }));

  // Who is asking comes first, then 401 for a signed-out API call, and only then anything that looks at the
  // request's body: the CSRF check, the body limit and each route's validators (issue 30, point 7).
  app.use(
    tenantMiddleware,
    tenantGate(gate),
    sessionMiddleware,
    requireSessionMiddleware,
    csrfMiddleware,
    bodyLimitMiddleware,
  );

  const api = new Hono<AppEnv>()
    .route("/", authRoutes)
    .route("/", companiesRoutes)
    .route("/", usersRoutes)
    .route("/", jobsRoutes)
    .route("/", partsRoutes)
    .route("/", inspectionsRoutes)
    .route("/", inspectionMediaRoutes)
    .route("/", filesRoutes)
    .route("/", itemsRoutes)
    .route("/", taxesRoutes)
    .route("/", categoriesRoutes)
    .route("/", subCategoriesRoutes)
    .route("/", inventoryRoutes)
    .route("/", auditRoutes)
    .route("/", batchParseRoutes)
    .route("/", templatesRoutes)
    .route("/", inventoryRowsRoutes)
    .route("/", linesRoutes)
    .route("/", availabilityRoutes)
    .route("/", ticketsRoutes)
    .route("/", rejectionsRoutes)
    .route("/", serialsRoutes)
    .route("/", printingRoutes);
  api.all("*", () => {
    throw new AppError("not_found", "No such API route.");
  });
  app.route("/api", api);
  app.route("/", pageRoutes);

  app.onError((err, c) => {
    const e = err instanceof AppError
      ? err
      : isDiskFull(err)
      ? diskFullError()
      : isUnavailable(err)
      ? unavailableError()
      : err instanceof z.ZodError
      ? zodToAppError(err)
      : err instanceof HTTPException && err.status < 500
      ? new AppError(err.status === 413 ? "too_large" : "bad_request", err.message || "Malformed request")
      : undefined;
    const isApi = c.req.path.startsWith("/api/") || c.req.path.startsWith("/assets/");
    // Logged: anything unexpected, and a driver's error answered as 507 or 503 (its cause says why).
    if (!e || (!(err instanceof AppError) && e.status >= 500)) {
      console.error(
        JSON.stringify({
          id: c.get("requestId"),
          error: String(err),
          // The driver's own error (SQLITE_BUSY, SQLITE_FULL, ...) is the cause of drizzle's "Failed query".
          cause: (err as Error)?.cause === undefined ? undefined : String((err as Error).cause),
          stack: (err as Error)?.stack,
        }),
      );
    }
    const status = e?.status ?? 500;
    const detail = e?.message ?? "Oops something went wrong!";
    if (!isApi) return errorPage(c, status, detail);
    return c.json({ detail, ...(e?.errors ? { errors: e.errors } : {}), ...e?.body }, status, e?.headers);
  });
  app.notFound((c) => {
    if (c.req.path.startsWith("/api/")) return c.json({ detail: "Not found" }, 404);
    return errorPage(c, 404, "Error - page not found");
  });

  return app;
}

/**
 * Whether a presented secret is the expected one, in a time that does not depend on where they differ: both
 * are hashed to 32 bytes first, so their lengths are not told either.
 */
function sameSecret(presented: string, expected: string): boolean {
  const digest = (s: string) => createHash("sha256").update(s).digest();
  return timingSafeEqual(digest(presented), digest(expected));
}
