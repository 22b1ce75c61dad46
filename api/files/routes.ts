import { type Context, Hono, type MiddlewareHandler } from "hono";
import type { AppError } from "../../lib/errors.ts";
import { bodyLimit } from "hono/body-limit";
import { type AppEnv, ctxOf } from "../lib/context.ts";
import { IdParam } from "../lib/validate.ts";
import { valid } from "../lib/validator.ts";
import { readFile, tooLarge } from "./service.ts";

/** Room for the form fields and multipart framing around the file itself. */
const FIELDS_ALLOWANCE = 256 * 1024;

/** The upload routes' own body limits: the app-wide 1 MB limit leaves their bodies to them. */
const UPLOAD_LIMITS = new WeakSet<MiddlewareHandler<AppEnv>>();
export const isUploadLimit = (handler: unknown) => UPLOAD_LIMITS.has(handler as MiddlewareHandler<AppEnv>);

/**
 * An upload route's limit: signed in first (no one unauthenticated makes the server read a large body),
 * then the whole request at most `maxBytes(c)`, cut with `tooLarge`'s 413 before more is read.
 */
export function uploadLimitOf(
  maxBytes: (c: Context<AppEnv>) => number,
  tooLarge: (c: Context<AppEnv>) => AppError,
): MiddlewareHandler<AppEnv> {
  const limit: MiddlewareHandler<AppEnv> = async (c, next) => {
    ctxOf(c);
    return await bodyLimit({
      maxSize: maxBytes(c),
      onError: () => {
        throw tooLarge(c);
      },
    })(c, next);
  };
  UPLOAD_LIMITS.add(limit);
  return limit;
}

/** The PDF and spreadsheet uploads: MAX_UPLOAD_MB of file as base64 (4/3) plus the form's fields. */
export const uploadLimit = uploadLimitOf(
  (c) => Math.ceil(c.get("services").config.MAX_UPLOAD_MB * 1024 * 1024 * 4 / 3) + FIELDS_ALLOWANCE,
  (c) => tooLarge(c.get("services").config.MAX_UPLOAD_MB),
);

/** `<how>; filename="..."` with an ASCII fallback, plus the UTF-8 name when it has other characters. */
function disposition(how: "inline" | "attachment", name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return ascii === name
    ? `${how}; filename="${ascii}"`
    : `${how}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * What an uploaded file may do once served (decision 042): nothing. Every one is answered under a sandbox
 * policy (an opaque origin: no scripts, forms, cookies or same-origin requests). Chromium does not apply it
 * to its PDF viewer (the tab keeps this site's origin: `api/files/files_browser_test.ts`), so a PDF (line
 * attachments, pressure-test certificates) is a download, opened outside this site's origin; images (photos,
 * signatures) show inline. Uploads with JavaScript are refused anyway (`pdfScript`); this covers files stored
 * before that check. The app's own documents (tickets, invoices, reports) are answered by their own routes.
 */
export const UPLOADED_FILE_CSP =
  "sandbox; default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'";

/** Images show inline; anything else an upload holds (PDFs) is a download. */
export const uploadDisposition = (contentType: string, name: string) =>
  disposition(contentType.startsWith("image/") ? "inline" : "attachment", name);

export const filesRoutes = new Hono<AppEnv>()
  .get("/files/:id", valid("param", IdParam), async (c) => {
    const file = await readFile(ctxOf(c), c.req.valid("param").id);
    return new Response(new Uint8Array(file.data), {
      headers: {
        "Content-Type": file.content_type,
        "Content-Disposition": uploadDisposition(file.content_type, file.name),
        "Content-Security-Policy": UPLOADED_FILE_CSP,
        "Cache-Control": "private, max-age=3600",
        "X-Content-Type-Options": "nosniff",
      },
    });
  });
