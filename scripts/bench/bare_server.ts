/**
 * The floor of the fixed-cost measure: a bare Hono handler served by Deno.serve, in its own process as
 * the real server is, so both pay the same HTTP stack and differ only by what the app adds.
 */
import { Hono } from "hono";

const app = new Hono();
app.get("/x", (c) => c.json({ ok: true }));
app.get("/healthz", (c) => c.json({ ok: true }));
Deno.serve({ port: Number(Deno.env.get("PORT")), hostname: "127.0.0.1", onListen: () => {} }, app.fetch);
