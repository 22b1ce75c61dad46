import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../lib/context.ts";
import { AppError } from "../lib/errors.ts";

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Cookie-authenticated writes must come from this site: Origin (or Referer) must name the request's
 * own host. Bearer calls carry no ambient credential and pass.
 */
export const csrfMiddleware = createMiddleware<AppEnv>(async (c, next) => {
  if (SAFE.has(c.req.method) || !c.get("cookieAuth")) return next();
  const source = c.req.header("origin") ?? c.req.header("referer");
  const host = c.req.header("host") ?? new URL(c.req.url).host;
  let sourceHost: string | undefined;
  try {
    sourceHost = source ? new URL(source).host : undefined;
  } catch { /* unparsable: refused below */ }
  if (sourceHost !== host) throw new AppError("forbidden", "Cross-site request refused.");
  await next();
});
