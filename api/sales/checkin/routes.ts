import { Hono } from "hono";
import { type AppEnv, ctxOf } from "../../lib/context.ts";
import { IdParam, JsonObject, valid } from "../../lib/validate.ts";
import { checkIn, lineInventoryLog } from "./service.ts";

export const checkinRoutes = new Hono<AppEnv>()
  .post("/sales/inventory/check-in", valid("json", JsonObject), async (c) => {
    return c.json(await checkIn(ctxOf(c), c.req.valid("json")));
  })
  .get("/sales/sales/:id/inventory-log", valid("param", IdParam), async (c) => {
    return c.json(await lineInventoryLog(ctxOf(c), c.req.valid("param").id));
  });
