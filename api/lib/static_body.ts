import type { Context } from "hono";

/**
 * What a Response was made with, when that was a string or bytes, read without turning it into a stream.
 *
 * A Response's `body` getter makes a ReadableStream of a string or byte body, and Hono's `c.header` after the
 * handler wraps the answer in a new Response over that stream. Deno serves a stream through its stream machinery
 * (promises, a reader, a pump), whose objects outlive a request: each young-generation collection copied and
 * promoted about 1 MB of them, 2-7 ms a pause where a plain answer's collections take 0.1 ms (measured with
 * `--trace-gc-nvp` on a bare Hono handler: 0 KB promoted; with `c.header` after `next()`: 913 KB; with the body
 * read as a stream: 1,194 KB). Those pauses were the lists' p95 (issue 10; the figures: decision 034).
 *
 * Deno keeps a Response's body in its inner response (`InnerBody.streamOrStatic` of ext/fetch): the string or
 * bytes it was made with until something asks for `body`, a stream from then on. When the runtime has no such
 * field, or the body is a stream or was read, this answers undefined and callers take the stream path, as
 * before: slower, never wrong. A test holds the runtime to it (static_body_test.ts).
 */
const INNER = Object.getOwnPropertySymbols(new Response("")).find((s) => s.description === "response");

interface InnerBody {
  streamOrStatic?: ReadableStream | { body?: unknown; consumed?: boolean };
}

export function staticBody(res: Response): string | Uint8Array | undefined {
  if (!INNER || res.bodyUsed) return undefined;
  const inner = (res as unknown as Record<symbol, { body?: InnerBody | null } | undefined>)[INNER];
  const held = inner?.body?.streamOrStatic;
  if (!held || held instanceof ReadableStream || held.consumed) return undefined;
  return typeof held.body === "string" || held.body instanceof Uint8Array ? held.body : undefined;
}

/**
 * A header set on the answer after the handler ran, in place. Hono's `c.header` would wrap the answer in a new
 * Response over its body as a stream (see above). A Response whose headers cannot change (a redirect's) is left
 * to Hono.
 */
export function setAnswerHeader(c: Context, name: string, value: string): void {
  try {
    c.res.headers.set(name, value);
  } catch {
    c.header(name, value);
  }
}
