import { eq } from "drizzle-orm";
import { companies } from "../../db/schema/mod.ts";
import { publicBaseUrlOf } from "../../lib/public_base_url.ts";
import type { Ctx } from "./context.ts";
import { requestHost } from "./context.ts";

type Request = { req: { header(name: string): string | undefined; url: string } };

/**
 * Whether the browser reached us over TLS: this server's own URL is https, or the proxy in front says so
 * (the first `X-Forwarded-Proto`, the one the browser used, in any case). The session cookies' Secure
 * flag, HSTS and the QR labels' scheme all ask this.
 */
export function servedOverHttps(c: Request): boolean {
  if (new URL(c.req.url).protocol === "https:") return true;
  return c.req.header("x-forwarded-proto")?.split(",")[0].trim().toLowerCase() === "https";
}

/** The origin the browser used for this request: its scheme as the server sees it and the Host. */
export function requestOrigin(c: Request): string {
  return `${servedOverHttps(c) ? "https" : "http"}://${requestHost(c)}`;
}

/**
 * The origin the tenant is reached at, for links that leave the app (QR labels): the owner company's
 * `publicBaseUrl` when set, else the request's own (https when served over TLS, decision 047).
 */
export async function publicOrigin(ctx: Ctx, fromRequest: string): Promise<string> {
  const settings = ctx.user.company.isOwner
    ? ctx.user.company.settings
    : (await ctx.db.select({ settings: companies.settings }).from(companies)
      .where(eq(companies.isOwner, true)).get())?.settings;
  return publicBaseUrlOf(settings) ?? fromRequest;
}
