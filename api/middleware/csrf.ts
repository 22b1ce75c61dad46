import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../lib/context.ts";
import { AppError } from "../../lib/errors.ts";

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

function hostOf(url: string | undefined): string | undefined {
  try {
    return url ? new URL(url).host : undefined;
  } catch {
    return "unparsable"; // `Origin: null` (a sandboxed frame) and junk: never this site
  }
}

/**
 * Writes must come from this site. A browser names the page that sent a write in Origin (or
 * Sec-Fetch-Site): another site's is refused whatever the credentials, which also stops login CSRF (a
 * forged sign-in form planting the attacker's session). Cookie-authenticated writes must also name
 * their origin (Origin or Referer). Bearer and cookie-less calls from non-browsers carry neither
 * header and no ambient credential, and pass.
 */
export const csrfMiddleware = createMiddleware<AppEnv>(async (c, next) => {
  if (SAFE.has(c.req.method)) return next();
  const host = c.req.header("host") ?? new URL(c.req.url).host;
  const origin = c.req.header("origin");
  const crossSite = c.req.header("sec-fetch-site") === "cross-site";
  if (crossSite || (origin !== undefined && hostOf(origin) !== host)) {
    throw new AppError("forbidden", "Cross-site request refused.");
  }
  if (c.get("cookieAuth") && hostOf(origin ?? c.req.header("referer")) !== host) {
    throw new AppError("forbidden", "Cross-site request refused.");
  }
  await next();
});
