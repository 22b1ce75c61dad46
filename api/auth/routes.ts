import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../lib/context.ts";
import { ctxOf } from "../lib/context.ts";
import { valid } from "../lib/validate.ts";
import { login, revokeSession } from "./service.ts";
import {
  clearSessionCookie,
  DEVICE_COOKIE,
  presentedToken,
  setDeviceCookie,
  setSessionCookie,
} from "../middleware/session.ts";
import { getCookie } from "hono/cookie";
import { AppError } from "../lib/errors.ts";

const LoginForm = z.object({
  username: z.string().optional(),
  email: z.string().optional(),
  password: z.string({ error: "Required" }).min(1, "Required").max(200),
}).refine((f) => (f.username || f.email)?.trim(), { message: "Required", path: ["username"] });

export function clientAddress(c: { env: unknown; req: { header(n: string): string | undefined } }): string {
  const info = (c.env as { remoteAddr?: { hostname?: string } } | undefined)?.remoteAddr;
  return info?.hostname ?? c.req.header("x-forwarded-for")?.split(",")[0].trim() ?? "unknown";
}

export const authRoutes = new Hono<AppEnv>()
  .post("/login/access-token", valid("form", LoginForm), async (c) => {
    const f = c.req.valid("form");
    const { token, device } = await login(c.get("services"), c.get("tenant"), {
      email: (f.username || f.email)!,
      password: f.password,
      address: clientAddress(c),
      device: getCookie(c, DEVICE_COOKIE),
    });
    setSessionCookie(c, token);
    setDeviceCookie(c, device);
    return c.json({ access_token: token, token_type: "bearer" });
  })
  .post("/logout", async (c) => {
    await revokeSession(c.get("services"), c.get("tenant"), presentedToken(c));
    clearSessionCookie(c);
    return c.body(null, 204);
  })
  .get("/admin/users/me", (c) => {
    const user = c.get("user");
    if (!user) throw new AppError("unauthorized", "Not authenticated");
    return c.json(ctxOf(c).user);
  });
