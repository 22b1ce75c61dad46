import { createMiddleware } from "hono/factory";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { Context } from "hono";
import type { AppEnv } from "../lib/context.ts";
import { servedOverHttps } from "../lib/public_origin.ts";
import { loadSessionUser } from "../auth/service.ts";
import { SessionSigner } from "../auth/token.ts";

export const SESSION_COOKIE = "session";

export function setSessionCookie(c: Context<AppEnv>, token: string) {
  setCookie(c, SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: "Lax",
    secure: servedOverHttps(c),
    path: "/",
    maxAge: c.get("services").signer.hours * 3600,
  });
}

export function clearSessionCookie(c: Context<AppEnv>) {
  deleteCookie(c, SESSION_COOKIE, { path: "/" });
}

export const DEVICE_COOKIE = "device";

/** Marks this browser as one that signed in to the account (see LoginThrottle): its own allowance. */
export function setDeviceCookie(c: Context<AppEnv>, token: string) {
  setCookie(c, DEVICE_COOKIE, token, {
    httpOnly: true,
    sameSite: "Strict",
    secure: servedOverHttps(c),
    path: "/",
    maxAge: SessionSigner.deviceDays * 24 * 3600,
  });
}

/** The session token the request carries: Bearer first, then the cookie. */
export function presentedToken(c: Context<AppEnv>): string | undefined {
  const auth = c.req.header("authorization");
  const bearer = auth?.toLowerCase().startsWith("bearer ") ? auth.slice(7).trim() : undefined;
  return bearer || getCookie(c, SESSION_COOKIE);
}

/**
 * Cookie or Bearer -> verified token -> user of this tenant. A token of another tenant, an older
 * session version (password changed, logged out everywhere), a logged-out session or an inactive user
 * leaves the request signed out.
 */
export const sessionMiddleware = createMiddleware<AppEnv>(async (c, next) => {
  const { signer } = c.get("services");
  const tenant = c.get("tenant");
  const auth = c.req.header("authorization");
  const bearer = auth?.toLowerCase().startsWith("bearer ") ? auth.slice(7).trim() : undefined;
  const cookie = getCookie(c, SESSION_COOKIE);
  const token = bearer || cookie;
  c.set("user", undefined);
  c.set("sessionId", undefined);
  c.set("cookieAuth", !bearer && !!cookie);
  if (token) {
    const claims = await signer.verify(token);
    if (claims && claims.tid === tenant.tenant.id) {
      const loaded = await loadSessionUser(tenant.db, claims.sub, claims.sid);
      if (loaded && loaded.sessionVersion === claims.ver) {
        c.set("user", loaded.user);
        c.set("sessionId", claims.sid);
        // Sliding session: a cookie past half its life is renewed.
        const age = Date.now() / 1000 - claims.iat;
        if (!bearer && age > (signer.hours * 3600) / 2) {
          setSessionCookie(c, await signer.sign(claims));
        }
      }
    }
  }
  await next();
});
