import { Hono } from "hono";
import { type AppEnv, ctxOf } from "../lib/context.ts";
import { lookUpScan } from "./service.ts";

export const scanRoutes = new Hono<AppEnv>()
  .get("/scan", async (c) => {
    return c.json(await lookUpScan(ctxOf(c), c.req.query()));
  });
