import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../lib/context.ts";
import { AppError } from "../../lib/errors.ts";

/**
 * The API routes a signed-out caller may reach: signing in and out. Every other `/api/` path needs a session.
 */
export const PUBLIC_API = new Set(["POST /api/login/access-token", "POST /api/logout"]);

/**
 * A signed-out request to the API is answered 401 here, before any route reads its path, query or body: no
 * validator, body limit (413) or malformed-body answer (400) tells a caller without a session anything about
 * a route's inputs, and none of them runs for one (issue 30, point 7). Mounted after the session middleware
 * (which decides who is signed in) and before the CSRF check and the body limit. An unknown `/api/` path is
 * 401 too when signed out: 404 answers only those who may call the API. Services still call `ctxOf`, which
 * refuses the same way, so a route mounted outside `/api/` is not left open.
 */
export const requireSessionMiddleware = createMiddleware<AppEnv>(async (c, next) => {
  const path = c.req.path;
  if (
    (path === "/api" || path.startsWith("/api/")) && !c.get("user") &&
    !PUBLIC_API.has(`${c.req.method} ${path}`)
  ) {
    throw new AppError("unauthorized", "Not authenticated");
  }
  await next();
});
