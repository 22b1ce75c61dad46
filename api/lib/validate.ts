import { zValidator } from "@hono/zod-validator";
import type { ValidationTargets } from "hono";
import { z, type ZodType } from "zod";
import { AppError, type FieldError } from "./errors.ts";

/** zod issues as the spec's field messages: `{path, message}`, the first one also the `detail`. */
export function zodToAppError(error: { issues: z.core.$ZodIssue[] }): AppError {
  const errors: FieldError[] = error.issues.map((i) => ({
    path: i.path.join(".") || "body",
    message: i.message,
  }));
  const first = errors[0];
  const detail = first
    ? (first.path === "body" ? first.message : `${first.path}: ${first.message}`)
    : "Invalid input";
  return new AppError("invalid", detail, errors);
}

/** @hono/zod-validator whose failures take the app's one error path (422 with field errors). */
export function valid<T extends ZodType, Target extends keyof ValidationTargets>(target: Target, schema: T) {
  return zValidator(target, schema, (result) => {
    if (!result.success) throw zodToAppError(result.error);
  });
}

/** Parses with a schema inside a service, answering 422 the same way. */
export function parse<T extends ZodType>(schema: T, input: unknown): z.infer<T> {
  const r = schema.safeParse(input);
  if (!r.success) throw zodToAppError(r.error);
  return r.data;
}

/** `/{id}` path parameters. */
export const IdParam = z.object({ id: z.coerce.number().int().positive() });

/**
 * A JSON object body whose schema the service picks (it depends on who saves what, so the
 * permission check comes before parsing).
 */
export const JsonObject = z.record(z.string(), z.unknown(), { error: "Expected a JSON object" });
