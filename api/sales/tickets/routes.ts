import { Hono } from "hono";
import { type AppEnv, ctxOf } from "../../lib/context.ts";
import { listResponse } from "../../lib/list_query.ts";
import { IdParam, JsonObject } from "../../lib/validate.ts";
import { valid } from "../../lib/validator.ts";
import { withEtag } from "../../lib/preconditions.ts";
import { TicketListQuery } from "./schemas.ts";
import {
  createTicket,
  deleteTicket,
  downloadTickets,
  everyTicket,
  getTicket,
  listTickets,
  updateTicket,
} from "./service.ts";

// Save bodies are parsed by the service after its permission check (403 before 422).
export const ticketsRoutes = new Hono<AppEnv>()
  .get("/sales/tickets", valid("query", TicketListQuery), (c) => {
    const q = c.req.valid("query");
    return listResponse(q, (q) => listTickets(ctxOf(c), q), "results", {
      rows: () => everyTicket(ctxOf(c), q),
    });
  })
  .get("/sales/tickets/download", valid("query", TicketListQuery), (c) => {
    return downloadTickets(ctxOf(c), c.req.valid("query"));
  })
  .get("/sales/tickets/:id", valid("param", IdParam), async (c) => {
    return withEtag(c, await getTicket(ctxOf(c), c.req.valid("param").id));
  })
  .post("/sales/tickets", valid("json", JsonObject), async (c) => {
    return c.json(await createTicket(ctxOf(c), c.req.valid("json")));
  })
  .put("/sales/tickets", valid("json", JsonObject), async (c) => {
    return withEtag(c, await updateTicket(ctxOf(c), c.req.valid("json")));
  })
  .delete("/sales/tickets/:id", valid("param", IdParam), async (c) => {
    return c.json(await deleteTicket(ctxOf(c), c.req.valid("param").id));
  });
