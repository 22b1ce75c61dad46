import { createMiddleware } from "hono/factory";
import { bodyLimit } from "hono/body-limit";
import { matchedRoutes } from "hono/route";
import type { AppEnv } from "../lib/context.ts";
import { AppError } from "../../lib/errors.ts";
import { isUploadLimit } from "../files/routes.ts";

/** Any request body but an upload's: forms and JSON saves are a few KB; a 5,000-row batch is an upload. */
export const MAX_BODY_BYTES = 1024 * 1024;

const tooLarge = () => {
  throw new AppError("too_large", `The request is larger than ${MAX_BODY_BYTES / 1024 / 1024} MB.`);
};
const limit = bodyLimit({ maxSize: MAX_BODY_BYTES, onError: tooLarge });

/** Methods whose requests carry no body here: one sent anyway is never read. */
const BODILESS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Every request body, whatever its framing (Content-Length or chunked), is cut at the limit with 413
 * before more is read: Content-Length is checked up front, a chunked body is counted as it streams.
 * Upload routes carry their own limit (`uploadLimitOf`: signed in first, then the upload size) and are left to it.
 *
 * A body with a Content-Length is checked by its header alone, without asking for `req.body`: that makes the
 * body a stream, whose objects outlived each save and cost every young-generation collection 2-3 ms (hono's
 * bodyLimit asks for it on every request; measured on a bare server: 597 KB promoted a collection, 0 without:
 * decision 034).
 */
export const bodyLimitMiddleware = createMiddleware<AppEnv>(async (c, next) => {
  if (matchedRoutes(c).some((r) => isUploadLimit(r.handler))) return next();
  if (!c.req.header("transfer-encoding")) {
    const length = c.req.header("content-length");
    if (length !== undefined) {
      if (Number(length) > MAX_BODY_BYTES) tooLarge();
      return next();
    }
    if (BODILESS.has(c.req.method)) return next();
  }
  return await limit(c, next);
});
