import assert from "node:assert/strict";
import { gunzipSync, inflateSync } from "node:zlib";
import { Hono } from "hono";
import { compressMiddleware, selectEncoding, WHOLE_LIMIT } from "./compress.ts";

const rows = (n: number) => ({ results: Array.from({ length: n }, (_, i) => ({ id: i, name: `Row ${i}` })) });

function app() {
  const a = new Hono();
  a.use(compressMiddleware);
  a.get("/json/:n", (c) => c.json(rows(Number(c.req.param("n")))));
  a.get("/etag", (c) => {
    c.header("etag", '"abc"');
    return c.json(rows(200));
  });
  a.get("/no-transform", (c) => {
    c.header("cache-control", "no-transform");
    return c.json(rows(200));
  });
  // A streamed JSON answer longer than the whole-answer limit, in many chunks (as a `page=-1` list).
  a.get("/stream", () => {
    let i = 0;
    const enc = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (i === 0) controller.enqueue(enc.encode('{"results":['));
        if (i >= 5000) {
          controller.enqueue(enc.encode("]}"));
          controller.close();
          return;
        }
        controller.enqueue(enc.encode(`${i ? "," : ""}{"id":${i},"name":"Row ${i}"}`));
        i++;
      },
    });
    return new Response(body, { headers: { "content-type": "application/json" } });
  });
  a.get(
    "/html",
    () => new Response("<!doctype html><p>" + "x".repeat(5000), { headers: { "content-type": "text/html" } }),
  );
  a.get("/png", () => new Response(new Uint8Array(5000), { headers: { "content-type": "image/png" } }));
  return a;
}

const get = (path: string, encoding: string | null = "gzip, deflate, br") =>
  app().request(path, { headers: encoding === null ? {} : { "accept-encoding": encoding } });

Deno.test("compress - a JSON page is gzipped whole, the same bytes once decoded, Vary set", async () => {
  const res = await get("/json/300");
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("content-encoding"), "gzip");
  assert.equal(res.headers.get("vary"), "Accept-Encoding");
  assert.equal(res.headers.get("content-length"), null);
  const bytes = new Uint8Array(await res.arrayBuffer());
  assert.deepEqual(JSON.parse(gunzipSync(bytes).toString()), rows(300));
  assert.ok(bytes.length < JSON.stringify(rows(300)).length / 3);
});

Deno.test("compress - deflate when only deflate is accepted; nothing when nothing is, or gzip has q=0", async () => {
  const deflated = await get("/json/300", "deflate");
  assert.equal(deflated.headers.get("content-encoding"), "deflate");
  assert.deepEqual(
    JSON.parse(inflateSync(new Uint8Array(await deflated.arrayBuffer())).toString()),
    rows(300),
  );
  for (const header of [null, "identity", "gzip;q=0, deflate;q=0", "br"]) {
    const res = await get("/json/300", header);
    assert.equal(res.headers.get("content-encoding"), null, String(header));
    assert.deepEqual(await res.json(), rows(300));
  }
  assert.equal(selectEncoding("deflate;q=0.9, gzip;q=0.5"), "deflate");
  assert.equal(selectEncoding("*"), "gzip");
  assert.equal(selectEncoding("gzip;q=0, *;q=0.3"), "deflate");
});

Deno.test("compress - a small answer goes out as it is; other types by their rules", async () => {
  const small = await get("/json/2");
  assert.equal(small.headers.get("content-encoding"), null);
  assert.deepEqual(await small.json(), rows(2));
  const png = await get("/png");
  assert.equal(png.headers.get("content-encoding"), null);
  assert.equal((await png.arrayBuffer()).byteLength, 5000);
  const kept = await get("/no-transform");
  assert.equal(kept.headers.get("content-encoding"), null);
  const etag = await get("/etag");
  assert.equal(etag.headers.get("etag"), 'W/"abc"');
  const html = await get("/html");
  assert.equal(html.headers.get("content-encoding"), "gzip");
  assert.match(
    gunzipSync(new Uint8Array(await html.arrayBuffer())).toString(),
    /^<!doctype html><p>x{5000}$/,
  );
});

Deno.test("compress - a JSON answer longer than the limit streams: every byte, in order, before it ends", async () => {
  const res = await get("/stream");
  assert.equal(res.headers.get("content-encoding"), "gzip");
  // The first compressed bytes arrive while the source is still producing (the answer is not held whole).
  const reader = res.body!.getReader();
  const parts: Uint8Array[] = [];
  for (;;) {
    const r = await reader.read();
    if (r.done) break;
    parts.push(r.value);
  }
  assert.ok(parts.length > 1, "streamed in several chunks");
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  const text = gunzipSync(all).toString();
  assert.ok(text.length > WHOLE_LIMIT);
  const body = JSON.parse(text);
  assert.equal(body.results.length, 5000);
  assert.deepEqual(body.results[4999], { id: 4999, name: "Row 4999" });
});
