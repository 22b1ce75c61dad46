import { Hono } from "hono";
import { type AppEnv, ctxOf } from "../../lib/context.ts";
import { JsonObject, valid } from "../../lib/validate.ts";
import { reclass } from "./service.ts";

export const reclassRoutes = new Hono<AppEnv>()
  .post("/sales/sales/reclass", valid("json", JsonObject), async (c) => {
    return c.json(await reclass(ctxOf(c), c.req.valid("json")));
  });
