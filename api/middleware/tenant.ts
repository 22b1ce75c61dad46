import { createMiddleware } from "hono/factory";
import { type AppEnv, requestHost } from "../lib/context.ts";
import { AppError } from "../../lib/errors.ts";
import { freezeInBackground } from "../sales/issued/freeze.ts";

/**
 * Host -> catalog -> open tenant database. The catalog is read on every request (a local indexed
 * read), so the CLI's create, disable, enable and delete take effect without a restart.
 */
export const tenantMiddleware = createMiddleware<AppEnv>(async (c, next) => {
  const s = c.get("services");
  const host = requestHost(c);
  const tenant = await s.catalog.resolveHost(host);
  if (!tenant) throw new AppError("not_found", "No business is served at this address.");
  if (tenant.status === "disabled") throw new AppError("forbidden", "This business account is suspended.");
  const { tdb, release } = await s.tenants.acquire(tenant);
  c.set("tenant", tdb);
  // Invoices issued before this release are frozen once after the upgrade, beside the requests (decision 040).
  freezeInBackground(tdb);
  try {
    await next();
  } finally {
    release();
  }
});
