import { Hono } from "hono";
import { type AppEnv, ctxOf } from "../../lib/context.ts";
import { JsonObject } from "../../lib/validate.ts";
import { valid } from "../../lib/validator.ts";
import { listRejections, RejectionListQuery, saveRejection } from "./service.ts";

export const rejectionsRoutes = new Hono<AppEnv>()
  .get("/sales/rejections", valid("query", RejectionListQuery), async (c) => {
    return c.json(await listRejections(ctxOf(c), c.req.valid("query")));
  })
  .post("/sales/rejections", valid("json", JsonObject), async (c) => {
    return c.json(await saveRejection(ctxOf(c), c.req.valid("json")));
  });
