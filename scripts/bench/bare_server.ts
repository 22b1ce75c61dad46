/**
 * The floors over HTTP: a bare Hono app served by Deno.serve, in its own process as the real server is, so
 * both pay the same HTTP stack and differ only by what the app adds.
 * - `GET /x`: a handler that does nothing (the fixed-cost measure's floor).
 * - `POST /floor` with `{ file, stmts }` registers a list call's statements, captured from the list's own
 *   service as the lists' floor is; `GET /floor/{key}` then runs them straight on the tenant file (opened
 *   as the server opens it) and answers their rows as JSON: the lists' floor with an HTTP round trip in it.
 */
import { Hono } from "hono";
import type { Client, InStatement } from "@libsql/client";
import { openClient } from "../../db/client.ts";

const files = new Map<string, Client>();
const registered: { client: Client; stmts: InStatement[] }[] = [];

const app = new Hono();
app.get("/x", (c) => c.json({ ok: true }));
app.get("/healthz", (c) => c.json({ ok: true }));
app.post("/floor", async (c) => {
  const { file, stmts } = await c.req.json<{ file: string; stmts: InStatement[] }>();
  let client = files.get(file);
  if (!client) files.set(file, client = await openClient("file:" + file));
  registered.push({ client, stmts });
  return c.json({ key: registered.length - 1 });
});
app.get("/floor/:key", async (c) => {
  const r = registered[Number(c.req.param("key"))];
  if (!r) return c.json({ error: "no such key" }, 404);
  const results = [];
  for (const s of r.stmts) results.push((await r.client.execute(s)).rows);
  return c.json(results);
});
Deno.serve({ port: Number(Deno.env.get("PORT")), hostname: "127.0.0.1", onListen: () => {} }, app.fetch);
