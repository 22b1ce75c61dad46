import { Hono } from "hono";
import { type AppEnv, ctxOf } from "../../lib/context.ts";
import { valid } from "../../lib/validator.ts";
import { AvailabilityQuery } from "./schemas.ts";
import { rentalAvailability } from "./service.ts";

export const availabilityRoutes = new Hono<AppEnv>()
  .get("/sales/availability", valid("query", AvailabilityQuery), async (c) => {
    return c.json(await rentalAvailability(ctxOf(c), c.req.valid("query")));
  });
