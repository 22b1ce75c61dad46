import { Hono } from "hono";
import { type AppEnv, ctxOf } from "../lib/context.ts";
import { listResponse } from "../lib/list_query.ts";
import { valid } from "../lib/validator.ts";
import { SerialParam, SerialQuery } from "./schemas.ts";
import { downloadSerialHistory, serialHistory } from "./service.ts";

export const serialsRoutes = new Hono<AppEnv>()
  .get("/serials/:serial", valid("param", SerialParam), valid("query", SerialQuery), (c) => {
    const { serial } = c.req.valid("param");
    return listResponse(c.req.valid("query"), (q) => serialHistory(ctxOf(c), serial, q), "events");
  })
  // Called as the other downloads are (page -1); the file holds the whole timeline whatever the page.
  .get("/serials/:serial/download", valid("param", SerialParam), valid("query", SerialQuery), (c) => {
    return downloadSerialHistory(ctxOf(c), c.req.valid("param").serial);
  });
