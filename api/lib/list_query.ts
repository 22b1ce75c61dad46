import { z } from "zod";
import type { Ctx } from "./context.ts";
import { timeSlices, yieldToEventLoop } from "../../lib/event_loop.ts";

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

/** Escapes LIKE wildcards so a search for "50%" finds "50%". Use with `escape '\\'`. */
export function likeContains(text: string): string {
  return "%" + text.replace(/[\\%_]/g, (m) => "\\" + m) + "%";
}

export const optionalText = z.string().trim().max(200).optional().transform((v) => v || undefined);
export const queryBool = bool;

/** An optional enum for query strings, where "" means no filter. */
export const queryEnum = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess((v) => (v === "" ? undefined : v), z.enum(values).optional());

/** Rows per database read when a download walks a whole list. */
const DOWNLOAD_PAGE = 1000;

/**
 * Every row of a list, read a page at a time as the consumer asks for the next one (a streamed
 * download): memory holds one page, and each read is short, so other requests interleave. The first
 * page is read before this resolves, so a bad filter or a record out of scope is refused (404, 422)
 * before the download starts, not halfway through it.
 *
 * `list` gets the page number and, from the second page on, the last row read: a list that can start
 * its read after that row (`rowsAfter` in db_helpers.ts, in its order) reads from there and ignores the page; one that
 * cannot (a sort on a column that may be null) reads the page by its OFFSET. An OFFSET walks every row it
 * skips, so its reads grow with the position: 12 ms a read at row 450,000 of the audit log, where the
 * same read after the last row takes 0.6 ms, and each read is one turn of the event loop.
 */
export async function everyRow<T, U = T>(
  list: (page: number, rowsPerPage: number, last?: NoInfer<T>) => Promise<{ results: T[] }>,
  map: (row: T) => U = (row) => row as unknown as U,
): Promise<AsyncIterable<U>> {
  const first = (await list(1, DOWNLOAD_PAGE)).results;
  return (async function* () {
    let results = first;
    // Other requests run between pages, and within one every few ms (a row's consumers run in its turn).
    const slices = timeSlices();
    for (let page = 1;; page++) {
      for (const row of results) {
        yield map(row);
        if (slices.due()) await yieldToEventLoop();
      }
      if (results.length < DOWNLOAD_PAGE) return;
      await yieldToEventLoop();
      results = (await list(page + 1, DOWNLOAD_PAGE, results[results.length - 1])).results;
    }
  })();
}

/**
 * A list's JSON answer. Every row (`rowsPerPage=-1` or `page=-1`, as the API allows) is streamed: the list is
 * read a page at a time with a turn of the event loop between pages, and each page is written out before the
 * next is read, so a list of 100,000 rows neither holds the thread for seconds nor builds its whole JSON in
 * memory. The answer is the same object as a single read's: the first page's other fields (`total`, totals)
 * and every row in `results` (or the list's own `key`, as a serial's `events`), in the list's order.
 */
export async function listResponse<
  Q extends { page: number; rowsPerPage: number },
  K extends string = "results",
>(
  q: Q,
  /** `last`: from the second page on, the last row read (as `everyRow` gives it) */
  list: (q: Q, last?: any) => Promise<Record<NoInfer<K>, unknown[]>>,
  key: K = "results" as K,
): Promise<Response> {
  if (q.page !== -1 && q.rowsPerPage !== -1) return Response.json(await list(q));
  // Read before the answer starts: a bad filter or a record out of scope is refused with its status.
  const { [key]: first, ...rest } = await list({ ...q, page: 1, rowsPerPage: DOWNLOAD_PAGE });
  const encoder = new TextEncoder();
  const fields = JSON.stringify(rest);
  const head = fields === "{}" ? "{" : fields.slice(0, -1) + ",";
  let results: unknown[] | undefined = first;
  let last: unknown = first[first.length - 1];
  let page = 1;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(head + `${JSON.stringify(key)}:[`));
    },
    async pull(controller) {
      if (!results) {
        await yieldToEventLoop();
        results = (await list({ ...q, page: ++page, rowsPerPage: DOWNLOAD_PAGE }, last))[key];
      }
      last = results[results.length - 1];
      const rows = results.map((r) => JSON.stringify(r)).join(",");
      controller.enqueue(encoder.encode((page > 1 && rows ? "," : "") + rows));
      if (results.length < DOWNLOAD_PAGE) {
        controller.enqueue(encoder.encode("]}"));
        controller.close();
      }
      results = undefined;
    },
  });
  return new Response(body, { headers: { "Content-Type": "application/json" } });
}

/** A count query as drizzle builds it: its SQL is the cache key, awaiting it runs it. */
interface CountQuery extends PromiseLike<{ total: number }[]> {
  toSQL(): { sql: string; params: unknown[] };
}

/** A list's total through the tenant's count cache (see TenantDb.cachedTotal). */
export function listTotal(ctx: Ctx, query: CountQuery): Promise<number> {
  const { sql, params } = query.toSQL();
  return ctx.tdb.cachedTotal(`${sql}\u0000${JSON.stringify(params)}`, async () => (await query)[0].total);
}
