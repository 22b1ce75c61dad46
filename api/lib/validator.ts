/** The routes' validation middleware: hono's, failing through the app's one error path. Server-only. */
import { zValidator } from "@hono/zod-validator";
import type { ValidationTargets } from "hono";
import type { ZodType } from "zod";
import { refuseBadInput, zodToAppError } from "./validate.ts";

/** @hono/zod-validator whose failures take the app's one error path (422 with field errors). */
export function valid<T extends ZodType, Target extends keyof ValidationTargets>(target: Target, schema: T) {
  return zValidator(target, schema, (result) => {
    if (!result.success) throw zodToAppError(result.error);
  }, {
    validationFunction: (s, value) => {
      refuseBadInput(value);
      // The library's result type is conditional on T, which a generic T cannot satisfy.
      return s.safeParseAsync(value) as never;
    },
  });
}
