import { z } from "zod";

/**
 * The list conventions' query schemas and pure helpers: what islands may import through the api schema files
 * (scripts/import_boundaries_test.ts). The reading and answering of lists, which needs the event loop's turns
 * (lib/event_loop.ts, server-only), is api/lib/list_query.ts, which re-exports these.
 */

const bool = z.preprocess(
  (v) => (v === "true" || v === true ? true : v === "false" || v === false ? false : v),
  z.boolean(),
);

/**
 * The list conventions: page (1-based; -1, as downloads are called, means every row), rowsPerPage
 * (-1 = all), sortBy, descending.
 */
export const ListQuery = z.object({
  page: z.coerce.number().int().max(1_000_000_000).refine(
    (n) => n >= 1 || n === -1,
    "page must be 1 or more, or -1",
  )
    .default(1),
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

/**
 * limit/offset for a ListQuery; rowsPerPage -1 (or page -1) means every row, or only the first `firstRows`
 * of them where a server-rendered page asks for "All" (`listPage`: the browser fetches the rest, streamed).
 * `afterLast`: the read starts after a download's last row (`everyRow`), so it takes the next rows from there.
 */
export function pageWindow(q: { page: number; rowsPerPage: number; firstRows?: number }, afterLast = false) {
  if (afterLast) return { limit: q.rowsPerPage, offset: 0 };
  if (q.rowsPerPage === -1 || q.page === -1) return { limit: q.firstRows ?? -1, offset: 0 };
  return { limit: q.rowsPerPage, offset: (q.page - 1) * q.rowsPerPage };
}

/**
 * Whether a query names no filter but `kept` (besides the page's own fields): a list whose figures are kept
 * for those filters (by triggers) reads them instead of counting. Every other field of the query's schema is
 * a filter, so one added later is counted.
 */
export function onlyFilters<Q extends object>(shape: object, kept: string[]): (q: Q) => boolean {
  const notFilters = new Set(["page", "rowsPerPage", "sortBy", "descending", ...kept]);
  const filters = Object.keys(shape).filter((k) => !notFilters.has(k));
  return (q) =>
    filters.every((k) =>
      (q as Record<string, unknown>)[k] === undefined || (q as Record<string, unknown>)[k] === ""
    );
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
