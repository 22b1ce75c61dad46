import assert from "node:assert/strict";
import { Hono } from "hono";
import { setAnswerHeader, staticBody } from "./static_body.ts";

Deno.test("staticBody: a string or byte body is read as it is, before and after its headers are read", async () => {
  const json = Response.json({ a: 1 });
  assert.equal(staticBody(json), '{"a":1}');
  const withHeaders = new Response("abc", {
    status: 201,
    headers: new Headers({ "content-type": "application/json" }),
  });
  withHeaders.headers.get("content-type");
  assert.equal(staticBody(withHeaders), "abc");
  const bytes = new Uint8Array([1, 2, 3]);
  assert.deepEqual(staticBody(new Response(bytes)), bytes);
  // The body is still there to be sent: reading it this way consumed nothing.
  assert.equal(await withHeaders.text(), "abc");
});

Deno.test("staticBody: a stream, a body turned into a stream, a read body or none answers undefined", async () => {
  assert.equal(staticBody(new Response(new ReadableStream())), undefined);
  const asked = new Response("abc");
  asked.body;
  assert.equal(staticBody(asked), undefined);
  const read = new Response("abc");
  await read.text();
  assert.equal(staticBody(read), undefined);
  assert.equal(staticBody(new Response(null)), undefined);
});

Deno.test("setAnswerHeader: sets the header on the answer itself, which keeps its body as it was made", async () => {
  const app = new Hono();
  app.use(async (c, next) => {
    await next();
    setAnswerHeader(c, "x-request-id", "r1");
    if (c.req.path === "/x") assert.equal(staticBody(c.res), '{"ok":true}');
  });
  app.get("/x", (c) => c.json({ ok: true }));
  app.get("/moved", () => Response.redirect("http://localhost/x", 302));
  const res = await app.request("/x");
  assert.equal(res.headers.get("x-request-id"), "r1");
  assert.deepEqual(await res.json(), { ok: true });
  // A redirect's headers cannot change: Hono's own way sets it.
  const moved = await app.request("/moved");
  assert.equal(moved.status, 302);
  assert.equal(moved.headers.get("x-request-id"), "r1");
});
