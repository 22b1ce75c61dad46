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

/**
 * Every request body, whatever its framing (Content-Length or chunked), is cut at the limit with 413
 * before more is read: Content-Length is checked up front, a chunked body is counted as it streams.
 * Upload routes carry their own limit (`uploadLimitOf`: signed in first, then the upload size) and are left to it.
 */
export const bodyLimitMiddleware = createMiddleware<AppEnv>(async (c, next) => {
  if (matchedRoutes(c).some((r) => isUploadLimit(r.handler))) return next();
  return await limit(c, next);
});
