import type { Ctx } from "./context.ts";
import { timeSlices, yieldToEventLoop } from "../../lib/event_loop.ts";

export * from "./list_schema.ts";

/**
 * Rows a read after the last row may take: 100 * 2^k, so that the rows read so far are always a whole number
 * of the next read's pages.
 */
const READ_ROWS = [100, 200, 400, 800] as const;
/**
 * What a read after the last row should take: a read is one synchronous turn that every other request, of any
 * tenant, waits behind. Reads of 1,000 rows took 6.7 ms of inspections where the audit log's took 0.6 ms, so
 * the size follows each list's own pace.
 */
const READ_MS = 2;
/**
 * Rows a read by OFFSET takes. Its time is mostly the rows it skips, more the deeper it reads (300 ms a read at
 * the end of Sales Data by customer), so smaller reads only make more of them: paced like the others, that
 * download took 154 s instead of 28 (decision 012a).
 */
const OFFSET_ROWS = 1000;

/**
 * The page number and size of a download's next read. `afterLast`: the list reads after the last row (its
 * `rowsAfter`), so each read is sized by the last one's pace (ms a row) to take about READ_MS, to the largest of
 * READ_ROWS that keeps the rows read so far a whole number of pages. Otherwise every read is OFFSET_ROWS.
 */
export class DownloadReads {
  private read = 0;
  size: number;

  constructor(private readonly afterLast: boolean) {
    this.size = afterLast ? READ_ROWS[0] : OFFSET_ROWS;
  }

  get page(): number {
    return this.read / this.size + 1;
  }

  /** After a read of `rows` (the size asked: a shorter one was the last) that took `ms`. */
  next(rows: number, ms: number) {
    this.read += rows;
    if (!this.afterLast) return;
    const fits = ms > 0 ? (READ_MS * rows) / ms : Infinity;
    this.size = READ_ROWS.findLast((n) => n <= fits && this.read % n === 0) ?? READ_ROWS[0];
  }
}

/**
 * Every row of a list, read a page at a time as the consumer asks for the next one (a streamed
 * download): memory holds one page, and each read is short, so other requests interleave. The first
 * page is read before this resolves, so a bad filter or a record out of scope is refused (404, 422)
 * before the download starts, not halfway through it.
 *
 * `list` gets the page number and, from the second page on, the last row read: a list that can start
 * its read after that row (`rowsAfter` in db_helpers.ts, in its order) reads from there and ignores the page
 * (and says so: `afterLast`); one that cannot (a sort on a column that may be null) reads the page by its
 * OFFSET. An OFFSET walks every row it skips, so its reads grow with the position: 12 ms a read at row 450,000
 * of the audit log, where the same read after the last row takes 0.6 ms, and each read is one turn of the
 * event loop.
 */
export async function everyRow<T, U = T>(
  list: (page: number, rowsPerPage: number, last?: NoInfer<T>) => Promise<{ results: T[] }>,
  map: (row: T) => U = (row) => row as unknown as U,
  /** the list reads after `last` (for this query): reads are then sized by their pace (`DownloadReads`) */
  afterLast = false,
): Promise<AsyncIterable<U>> {
  const reads = new DownloadReads(afterLast);
  const timed = async (last?: T) => {
    const started = performance.now();
    const { results } = await list(reads.page, reads.size, last);
    return { results, ms: performance.now() - started };
  };
  const first = await timed();
  return (async function* () {
    let read = first;
    // Other requests run between pages, and within one every few ms (a row's consumers run in its turn).
    const slices = timeSlices();
    for (;;) {
      const { results, ms } = read;
      const size = reads.size;
      reads.next(results.length, ms);
      for (const row of results) {
        yield map(row);
        if (slices.due()) await yieldToEventLoop();
      }
      if (results.length < size) return;
      // A read after the last row (about READ_MS) runs in the slice when it has time left: a timer turn per
      // read idled the thread about 2 ms each (decision 012a). A read by OFFSET may be long: it starts a turn
      // of its own.
      if (!afterLast || slices.due()) await yieldToEventLoop();
      read = await timed(results[results.length - 1]);
    }
  })();
}

/**
 * A list's JSON answer. Every row (`rowsPerPage=-1` or `page=-1`, as the API allows) is streamed: the rows come
 * from `opts.rows` (the list's own read of every row, as its download reads them) or else from `everyRow` over
 * the list's pages, and are written out about 64 KB at a time as the reader asks, so a list of 100,000 rows
 * neither holds the thread for seconds nor builds its whole JSON in memory. The answer is the same object as
 * a single read's: the first read's other fields (`total`, totals) and every row in `results` (or the list's
 * own `key`, as a serial's `events`), in the list's order.
 */
export async function listResponse<
  Q extends { page: number; rowsPerPage: number },
  K extends string = "results",
>(
  q: Q,
  /** `last`: from the second page on, the last row read (as `everyRow` gives it) */
  list: (q: Q, last?: any) => Promise<Record<NoInfer<K>, unknown[]>>,
  key: K = "results" as K,
  opts: {
    /** as `everyRow`'s */
    afterLast?: boolean;
    /** every row in the list's order, read before it resolves (a bad filter is refused with its status) */
    rows?: () => Promise<AsyncIterable<unknown>>;
  } = {},
): Promise<Response> {
  if (q.page !== -1 && q.rowsPerPage !== -1) return Response.json(await list(q));
  // Read before the answer starts: a bad filter or a record out of scope is refused with its status. With
  // the list's own rows, one row is read for the other fields.
  let fields: object | undefined;
  const page = async (page: number, rowsPerPage: number, last?: unknown) => {
    const { [key]: results, ...rest } = await list({ ...q, page, rowsPerPage }, last);
    fields ??= rest;
    return { results };
  };
  // A turn for other requests after each read: a server's first read of every row ran its sign-in, both
  // reads and its first rows in one turn of 26-41 ms, its code cold (decision 012b).
  let rows: AsyncIterable<unknown>;
  if (opts.rows) {
    await page(1, 1);
    await yieldToEventLoop();
    rows = await opts.rows();
  } else rows = await everyRow(page, undefined, opts.afterLast);
  await yieldToEventLoop();
  const head = JSON.stringify(fields);
  return jsonRowsResponse(`${head === "{}" ? "{" : head.slice(0, -1) + ","}${JSON.stringify(key)}:[`, rows);
}

/** The streamed JSON of rows after `head` and then `]}`, about 64 KB a chunk, as the reader asks for them. */
function jsonRowsResponse(head: string, rows: AsyncIterable<unknown>): Response {
  const encoder = new TextEncoder();
  const it = rows[Symbol.asyncIterator]();
  let more = false;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(head));
    },
    async pull(controller) {
      let text = "";
      while (text.length < 64 * 1024) {
        const { value, done } = await it.next();
        if (done) {
          controller.enqueue(encoder.encode(text + "]}"));
          controller.close();
          return;
        }
        text += (more ? "," : "") + JSON.stringify(value);
        more = true;
      }
      controller.enqueue(encoder.encode(text));
    },
    async cancel() {
      await it.return?.();
    },
  });
  return new Response(body, { headers: { "Content-Type": "application/json" } });
}

/**
 * How long a long read's turn runs before other requests get one (ms): shorter than a download's 5 ms, since
 * every request in progress resumes in the same batch of timer turns, before the runtime reads new requests;
 * eight at 5 ms each held `/healthz` 40 ms and more on a quiet machine (issue 30, decision 043a).
 */
export const READ_SLICE_MS = 2;

/**
 * For a long read in a request (a long ticket's lines or figures): answers a turn to await once `ms` of its
 * work have passed since it last resumed, else undefined. The wait for the turn is not counted: `timeSlices`
 * starts its count when the turn is asked for, so with a 2 ms slice and a timer turn of about 2 ms every check
 * after the first yielded (2,357 turns for one ticket of 4,000 lines, 5 s where its work took 0.3 s).
 */
export function readTurns(ms = READ_SLICE_MS): () => Promise<void> | undefined {
  let since = performance.now();
  const resumed = () => {
    since = performance.now();
  };
  return () => performance.now() - since < ms ? undefined : yieldToEventLoop().then(resumed);
}

/**
 * The JSON of rows after `head` and then `tail()`, made in full before it resolves, by the turns `rows` sets
 * (`timeSlices`), and answered as a stream of its 64 KB pieces (each compressed in a turn of its own). For an
 * answer that must be made while the request holds its turn of the gate (api/middleware/tenant_gate.ts): a
 * stream made as it is read runs after the request has given its turn back, so any number of them ran at once
 * and each got a small share of the thread (a ticket's 4,000 lines took 23 s under issue 30's load, where the
 * gate lets a tenant's few requests take the thread in turn). It holds the answer's bytes until sent.
 */
export async function jsonRowsMade(
  head: string,
  rows: AsyncIterable<unknown>,
  tail: () => string = () => "]}",
): Promise<Response> {
  const encoder = new TextEncoder();
  const pieces: Uint8Array[] = [];
  let text = head;
  let more = false;
  for await (const row of rows) {
    text += (more ? "," : "") + JSON.stringify(row);
    more = true;
    if (text.length >= 64 * 1024) {
      pieces.push(encoder.encode(text));
      text = "";
    }
  }
  pieces.push(encoder.encode(text + tail()));
  let next = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (next < pieces.length) {
        controller.enqueue(pieces[next]);
        pieces[next++] = EMPTY;
      }
      if (next === pieces.length) controller.close();
    },
  }, { highWaterMark: 0 });
  return new Response(body, { headers: { "Content-Type": "application/json" } });
}

const EMPTY = new Uint8Array(0);

/** A count query as drizzle builds it: its SQL is the cache key, awaiting it runs it. */
interface CountQuery extends PromiseLike<{ total: number }[]> {
  toSQL(): { sql: string; params: unknown[] };
}

/** A list's total through the tenant's count cache (see TenantDb.cachedTotal). */
export function listTotal(ctx: Ctx, query: CountQuery): Promise<number> {
  const { sql, params } = query.toSQL();
  return ctx.tdb.cachedTotal(`${sql}\u0000${JSON.stringify(params)}`, async () => (await query)[0].total);
}
