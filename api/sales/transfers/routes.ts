import { Hono } from "hono";
import { type AppEnv, ctxOf } from "../../lib/context.ts";
import { JsonObject, valid } from "../../lib/validate.ts";
import { billBack, transferLines } from "./service.ts";

export const transfersRoutes = new Hono<AppEnv>()
  .post("/sales/tickets/transfer", valid("json", JsonObject), async (c) => {
    return c.json(await transferLines(ctxOf(c), c.req.valid("json")));
  })
  .post("/sales/tickets/bill-back", valid("json", JsonObject), async (c) => {
    return c.json(await billBack(ctxOf(c), c.req.valid("json")));
  });
