import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { parseAccept } from "hono/utils/accept";
import { COMPRESSIBLE_CONTENT_TYPE_REGEX } from "hono/utils/compress";
import { deflateSync, gzipSync } from "node:zlib";
import { setAnswerHeader, staticBody } from "../lib/static_body.ts";

/** A JSON answer up to this size is compressed in one call; a longer one (a streamed list) as a stream. */
export const WHOLE_LIMIT = 64 * 1024;
/** Smaller answers go out as they are: compressing would save a few bytes and cost a call. */
const THRESHOLD = 1024;

const noTransform = /(?:^|,)\s*no-transform\s*(?:,|$)/i;
const varyAcceptEncoding = /(?:^|,)\s*accept-encoding\s*(?:,|$)/i;

type Encoding = "gzip" | "deflate";

/** gzip, else deflate, by the client's Accept-Encoding and its q-values (as hono/compress chooses). */
export function selectEncoding(header: string | undefined): Encoding | undefined {
  if (!header) return undefined;
  const accepts = parseAccept(header);
  const wildcard = accepts.find((a) => a.type === "*")?.q;
  let best: { encoding: Encoding; q: number } | undefined;
  for (const encoding of ["gzip", "deflate"] as const) {
    const weight = accepts.find((a) => a.type.toLowerCase() === encoding)?.q ?? wildcard ?? 0;
    if (weight === 1) return encoding;
    if (weight > 0 && (!best || weight > best.q)) best = { encoding, q: weight };
  }
  return best?.encoding;
}

/**
 * Response compression, as hono/compress does it (same content types, Vary, no-transform, weak ETags), with
 * one difference measured on the lists (issue 10): a JSON answer that ends within 64 KB, every page of every
 * list, is compressed in one synchronous zlib call (0.09 ms for a 9 KB page) instead of through a
 * CompressionStream and the stream machinery around it (0.17 ms, and about a tenth of the thread at 800
 * requests/s: decision 032). Anything else, and a JSON answer that runs longer (a streamed download,
 * `page=-1`), is compressed as a stream: the bytes read before it turned out long are sent first, so memory
 * stays bounded and the answer still streams. HTML is never read ahead: the pages stream their shell first. A
 * body made of a string or bytes (every JSON page) is read as it is: turning it into a stream cost each
 * young-generation collection 2-7 ms (static_body.ts, decision 034).
 */
export const compressMiddleware = createMiddleware(async (c, next) => {
  await next();
  const res = c.res;
  const type = res.headers.get("content-type");
  // A string or byte body is read as it is, never through `res.body` (a stream: see static_body.ts).
  const whole = staticBody(res);
  if (
    (whole === undefined && !res.body) || res.status === 206 || c.req.method === "HEAD" ||
    res.headers.has("content-encoding") || res.headers.has("transfer-encoding") || !type ||
    !COMPRESSIBLE_CONTENT_TYPE_REGEX.test(type) || noTransform.test(res.headers.get("cache-control") ?? "")
  ) return;
  const length = res.headers.get("content-length");
  if (length && Number(length) < THRESHOLD) return;
  const vary = res.headers.get("vary");
  if (vary !== "*" && !(vary && varyAcceptEncoding.test(vary))) {
    setAnswerHeader(c, "vary", vary ? `${vary}, Accept-Encoding` : "Accept-Encoding");
  }
  const encoding = selectEncoding(c.req.header("accept-encoding"));
  if (!encoding) return;
  const headers = new Headers(c.res.headers);
  headers.delete("content-length");
  const etag = headers.get("etag");
  if (etag && !etag.startsWith("W/")) headers.set("etag", `W/${etag}`);
  const init = { status: res.status, statusText: res.statusText, headers };

  if (whole !== undefined && type.startsWith("application/json")) {
    const bytes = typeof whole === "string" ? encoder.encode(whole) : whole;
    if (bytes.byteLength < THRESHOLD) return;
    if (bytes.byteLength <= WHOLE_LIMIT) {
      headers.set("content-encoding", encoding);
      replace(c, new Response(encoding === "gzip" ? gzipSync(bytes) : deflateSync(bytes), init));
      return;
    }
  }
  let body: ReadableStream<Uint8Array<ArrayBuffer>> = c.res.body!;
  if (whole === undefined && type.startsWith("application/json")) {
    const reader = body.getReader();
    const chunks: Uint8Array<ArrayBuffer>[] = [];
    let size = 0;
    let done = false;
    while (size <= WHOLE_LIMIT) {
      const r = await reader.read();
      if (r.done) {
        done = true;
        break;
      }
      chunks.push(r.value);
      size += r.value.byteLength;
    }
    if (done) {
      const bytes = chunks.length === 1 ? chunks[0] : concat(chunks, size);
      if (size < THRESHOLD) {
        replace(
          c,
          new Response(bytes, { status: res.status, statusText: res.statusText, headers: c.res.headers }),
        );
        return;
      }
      headers.set("content-encoding", encoding);
      replace(c, new Response(encoding === "gzip" ? gzipSync(bytes) : deflateSync(bytes), init));
      return;
    }
    // Longer than the limit: what was read goes first, then the rest as it comes.
    body = new ReadableStream<Uint8Array<ArrayBuffer>>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(chunk);
        chunks.length = 0;
      },
      async pull(controller) {
        const r = await reader.read();
        if (r.done) controller.close();
        else controller.enqueue(r.value);
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    }, { highWaterMark: 0 });
  }
  headers.set("content-encoding", encoding);
  replace(c, new Response(body.pipeThrough(new CompressionStream(encoding)), init));
});

const encoder = new TextEncoder();

/**
 * Puts `res` in place of the answer as it is. Hono's setter would copy it into yet another Response over
 * its body as a stream (a byte body would then go out chunked, through the stream machinery again) and set
 * the old answer's headers on it (its Content-Length and strong ETag among them); `res` has those already.
 */
function replace(c: Context, res: Response) {
  c.res = undefined;
  c.res = res;
}

function concat(chunks: Uint8Array<ArrayBuffer>[], size: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}
