import { Hono } from "hono";
import { type AppEnv, ctxOf } from "../../lib/context.ts";
import { IdParam, JsonObject, valid } from "../../lib/validate.ts";
import {
  AvailabilityError,
  deleteLine,
  downloadSales,
  listSales,
  reorderLines,
  SalesListQuery,
  saveLine,
  ticketLines,
} from "./service.ts";

type Json = { json: (body: unknown, status: 409) => Response };

/** The availability refusal answers 409 with the five figures beside the detail. */
async function orRefusal(c: Json, run: () => Promise<unknown>): Promise<Response | unknown> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof AvailabilityError) {
      return c.json({ detail: e.message, errors: e.errors, figures: e.figures }, 409);
    }
    throw e;
  }
}

export const salesRoutes = new Hono<AppEnv>()
  .get("/sales/sales", valid("query", SalesListQuery), async (c) => {
    return c.json(await listSales(ctxOf(c), c.req.valid("query")));
  })
  .get("/sales/sales/download", valid("query", SalesListQuery), (c) => {
    return downloadSales(ctxOf(c), c.req.valid("query"));
  })
  .get("/sales/sales/ticket", async (c) => {
    return c.json(await ticketLines(ctxOf(c), c.req.query()));
  })
  .post("/sales/sales/reorder", valid("json", JsonObject), async (c) => {
    return c.json(await reorderLines(ctxOf(c), c.req.valid("json")));
  })
  .post("/sales/sales", valid("json", JsonObject), async (c) => {
    const out = await orRefusal(c, () => saveLine(ctxOf(c), c.req.valid("json")));
    return out instanceof Response ? out : c.json(out);
  })
  .put("/sales/sales", valid("json", JsonObject), async (c) => {
    const out = await orRefusal(c, () => saveLine(ctxOf(c), c.req.valid("json"), { update: true }));
    return out instanceof Response ? out : c.json(out);
  })
  .delete("/sales/sales/:id", valid("param", IdParam), async (c) => {
    return c.json(await deleteLine(ctxOf(c), c.req.valid("param").id));
  });
