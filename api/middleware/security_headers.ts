// Security headers on every answer (issue 30, point 6): pages, JSON, files, assets and errors alike.
import type { MiddlewareHandler } from "hono";
import { setAnswerHeader } from "../lib/static_body.ts";
import { servedOverHttps } from "../lib/public_origin.ts";

/**
 * Scripts come only from this origin (the islands are module files: no inline script runs, so no nonce is
 * needed); style attributes stay allowed (React's `style` props); frames only from this origin, and nothing may
 * frame this app. A page that frames another origin names it (`framing`: the sales dashboard).
 */
export function contentSecurityPolicy(framing: string[] = []): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "media-src 'self' blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self'",
    "manifest-src 'self'",
    ["frame-src 'self'", ...framing].join(" "),
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}
export const CONTENT_SECURITY_POLICY = contentSecurityPolicy();

const ALWAYS: [string, string][] = [
  ["X-Frame-Options", "DENY"],
  ["X-Content-Type-Options", "nosniff"],
  ["Referrer-Policy", "same-origin"],
  ["Cross-Origin-Opener-Policy", "same-origin"],
  ["Cross-Origin-Resource-Policy", "same-origin"],
];

export const securityHeaders: MiddlewareHandler = async (c, next) => {
  await next();
  for (const [name, value] of ALWAYS) setAnswerHeader(c, name, value);
  // A page's own policy (one that frames another origin) is kept; every other answer gets the strict one.
  if (!c.res.headers.get("content-security-policy")) {
    setAnswerHeader(c, "Content-Security-Policy", CONTENT_SECURITY_POLICY);
  }
  // Served over https (directly or behind a proxy that says so): browsers keep to https for a year.
  if (servedOverHttps(c)) {
    setAnswerHeader(c, "Strict-Transport-Security", "max-age=31536000; includeSubDomains");
  }
};
