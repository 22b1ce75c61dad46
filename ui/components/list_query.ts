import type { z } from "zod";

/**
 * A list page's URL query, parsed leniently (the API parses strictly): each parameter the schema
 * rejects is dropped and falls back to its default, so a hand-edited `?page=abc` still renders.
 */
export function lenientQuery<S extends z.ZodObject>(schema: S, params: URLSearchParams): z.infer<S> {
  const kept: Record<string, string> = {};
  for (const [key, value] of params) {
    const field = schema.shape[key] as z.ZodType | undefined;
    if (field && field.safeParse(value).success) kept[key] = value;
  }
  const parsed = schema.safeParse(kept);
  return parsed.success ? parsed.data : schema.parse({});
}
