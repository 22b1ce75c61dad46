import { Hono } from "hono";
import { type AppEnv, ctxOf } from "../../lib/context.ts";
import { valid } from "../../lib/validator.ts";
import { InventoryRowsQuery } from "./schemas.ts";
import { listInventoryRows } from "./service.ts";

export const inventoryRowsRoutes = new Hono<AppEnv>()
  .get("/sales/inventory-rows", valid("query", InventoryRowsQuery), async (c) => {
    return c.json(await listInventoryRows(ctxOf(c), c.req.valid("query")));
  });
