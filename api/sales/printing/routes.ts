import { Hono } from "hono";
import { type AppEnv, ctxOf } from "../../lib/context.ts";
import { valid } from "../../lib/validator.ts";
import { ticketPdf, TicketPdfQuery } from "./service.ts";

export const printingRoutes = new Hono<AppEnv>()
  .get("/sales/ticketpdf", valid("query", TicketPdfQuery), async (c) => {
    return await ticketPdf(ctxOf(c), c.req.valid("query"));
  });
