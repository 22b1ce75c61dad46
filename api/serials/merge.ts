import { yieldToEventLoop } from "../../lib/event_loop.ts";

/** Where a source's newest-first read resumes: after this row (its time, then its id). */
export interface Cursor {
  at: string;
  id: number;
}

/** A row of a timeline source: when it happened (an ISO instant) and its id in its source. */
export interface Timed {
  at: string;
  id: number;
}

/**
 * One source of a timeline: up to `limit` of its rows newest first (time, then id, descending), those
 * after `after` when given. Each is one indexed read with a LIMIT, never the whole history.
 */
export type Source<T extends Timed> = (after: Cursor | undefined, limit: number) => Promise<T[]>;

const instant = (at: string) => {
  const t = Date.parse(at);
  return Number.isNaN(t) ? 0 : t;
};

/**
 * The rows of several newest-first sources as one newest-first sequence (a k-way merge; rows of the same
 * instant come in the order of the sources, each source's in its own order): each source is
 * read `chunk` rows at a time, only when its buffered rows run out, so memory holds at most `chunk` rows
 * per source and a reader that stops early (a page) reads no further. A turn of the event loop is given
 * between refills after the first, as a long download reads on.
 */
export async function* mergeNewestFirst<T extends Timed>(
  sources: Source<T>[],
  chunk: number,
): AsyncGenerator<T> {
  const buffers: T[][] = await Promise.all(sources.map((read) => read(undefined, chunk)));
  const done = buffers.map((b) => b.length < chunk);
  const lastOf: (Cursor | undefined)[] = sources.map(() => undefined);
  for (;;) {
    for (const [i, buffer] of buffers.entries()) {
      if (buffer.length || done[i]) continue;
      await yieldToEventLoop();
      buffers[i] = await sources[i](lastOf[i], chunk);
      done[i] = buffers[i].length < chunk;
    }
    let pick = -1;
    for (const [i, buffer] of buffers.entries()) {
      if (buffer.length && (pick === -1 || instant(buffer[0].at) > instant(buffers[pick][0].at))) pick = i;
    }
    if (pick === -1) return;
    const row = buffers[pick].shift()!;
    lastOf[pick] = { at: row.at, id: row.id };
    yield row;
  }
}
