import { z } from "zod";

const bool = z.preprocess(
  (v) => (v === "true" || v === true ? true : v === "false" || v === false ? false : v),
  z.boolean(),
);

/** The list conventions: page (1-based), rowsPerPage (-1 = all), sortBy, descending. */
export const ListQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  rowsPerPage: z.coerce.number().int().min(-1).max(1000).refine((n) => n !== 0, "rowsPerPage cannot be 0")
    .default(25),
  sortBy: z.string().max(64).optional(),
  descending: bool.optional(),
});
export type ListQuery = z.infer<typeof ListQuery>;

export interface ListResult<T> {
  results: T[];
  total: number;
}

/** limit/offset for a ListQuery; rowsPerPage -1 means every row. */
export function pageWindow(q: { page: number; rowsPerPage: number }) {
  if (q.rowsPerPage === -1) return { limit: -1, offset: 0 };
  return { limit: q.rowsPerPage, offset: (q.page - 1) * q.rowsPerPage };
}

/** Escapes LIKE wildcards so a search for "50%" finds "50%". Use with `escape '\\'`. */
export function likeContains(text: string): string {
  return "%" + text.replace(/[\\%_]/g, (m) => "\\" + m) + "%";
}

export const optionalText = z.string().trim().max(200).optional().transform((v) => v || undefined);
export const queryBool = bool;

/** An optional enum for query strings, where "" means no filter. */
export const queryEnum = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess((v) => (v === "" ? undefined : v), z.enum(values).optional());
