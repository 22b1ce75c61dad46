import { type Context, Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../lib/context.ts";
import { ctxOf } from "../lib/context.ts";
import { valid } from "../lib/validator.ts";
import { login, revokeSession } from "./service.ts";
import {
  clearSessionCookie,
  DEVICE_COOKIE,
  presentedToken,
  setDeviceCookie,
  setSessionCookie,
} from "../middleware/session.ts";
import { getCookie } from "hono/cookie";
import { AppError } from "../../lib/errors.ts";
import { clientAddressOf } from "../lib/client_address.ts";

const LoginForm = z.object({
  username: z.string().optional(),
  email: z.string().optional(),
  password: z.string({ error: "Required" }).min(1, "Required").max(200),
}).refine((f) => (f.username || f.email)?.trim(), { message: "Required", path: ["username"] });

/** The client's address: the socket's peer, or the client a trusted proxy names (`TRUST_PROXY`). */
export function clientAddress(c: Context<AppEnv>): string {
  const info = (c.env as { remoteAddr?: { hostname?: string } } | undefined)?.remoteAddr;
  return clientAddressOf(
    c.get("services").config.TRUST_PROXY,
    info?.hostname,
    c.req.header("x-forwarded-for"),
  );
}

/**
 * Signs in from this request (its address and device cookie count for throttling), sets the session and
 * device cookies, and answers the session token. The sign-in form and the token endpoint both use it.
 */
export async function signIn(c: Context<AppEnv>, email: string, password: string): Promise<string> {
  const { token, device } = await login(c.get("services"), c.get("tenant"), {
    email,
    password,
    address: clientAddress(c),
    device: getCookie(c, DEVICE_COOKIE),
  });
  setSessionCookie(c, token);
  setDeviceCookie(c, device);
  return token;
}

/** Ends the session the request presents, on the server too, and clears its cookie. */
export async function signOut(c: Context<AppEnv>) {
  await revokeSession(c.get("services"), c.get("tenant"), presentedToken(c));
  clearSessionCookie(c);
}

export const authRoutes = new Hono<AppEnv>()
  .post("/login/access-token", valid("form", LoginForm), async (c) => {
    const f = c.req.valid("form");
    const token = await signIn(c, (f.username || f.email)!, f.password);
    return c.json({ access_token: token, token_type: "bearer" });
  })
  .post("/logout", async (c) => {
    await signOut(c);
    return c.body(null, 204);
  })
  .get("/admin/users/me", (c) => {
    const user = c.get("user");
    if (!user) throw new AppError("unauthorized", "Not authenticated");
    return c.json(ctxOf(c).user);
  });
