import { Hono } from "hono";
import { type AppEnv, ctxOf } from "../../lib/context.ts";
import { listResponse } from "../../lib/list_query.ts";
import { IdParam, JsonObject } from "../../lib/validate.ts";
import { valid } from "../../lib/validator.ts";
import { AppError } from "../../../lib/errors.ts";
import { withEtag } from "../../lib/preconditions.ts";
import { uploadLimit } from "../../files/routes.ts";
import { requireAbility } from "../../../lib/policy.ts";
import { ATTACHMENT_FIELD, attachToLine, detachFromLine } from "./attachment.ts";
import { checkIn, lineInventoryLog } from "./checkin.ts";
import { reclass } from "./reclass.ts";
import { transferLines } from "./transfer.ts";
import { billBack } from "./bill_back.ts";
import {
  deleteLine,
  downloadSales,
  lineById,
  listSales,
  reorderLines,
  salesInOrder,
  SalesListQuery,
  saveLine,
  ticketLinesResponse,
} from "./service.ts";

/** Every ticket-line call (decision 014: the spec's `sales` wire paths, the `lines` feature name). */
export const linesRoutes = new Hono<AppEnv>()
  .get("/sales/sales", valid("query", SalesListQuery), (c) => {
    const q = c.req.valid("query");
    // Every row (`page=-1`): the download's read, in any order (after the last row, or the ids walked once).
    return listResponse(q, (q) => listSales(ctxOf(c), q), "results", {
      rows: () => salesInOrder(ctxOf(c), q, (r) => r),
    });
  })
  .get("/sales/sales/download", valid("query", SalesListQuery), (c) => {
    return downloadSales(ctxOf(c), c.req.valid("query"));
  })
  .get("/sales/sales/ticket", async (c) => {
    return await ticketLinesResponse(ctxOf(c), c.req.query());
  })
  .post("/sales/sales/reorder", valid("json", JsonObject), async (c) => {
    return c.json(await reorderLines(ctxOf(c), c.req.valid("json")));
  })
  .post("/sales/sales", valid("json", JsonObject), async (c) => {
    return withEtag(c, await saveLine(ctxOf(c), c.req.valid("json")));
  })
  .put("/sales/sales", valid("json", JsonObject), async (c) => {
    return withEtag(c, await saveLine(ctxOf(c), c.req.valid("json"), { update: true }));
  })
  // A line's PDF: multipart with a `file` part (only the owner company's staff get the body read).
  .post("/sales/sales/:id/attachment", uploadLimit, valid("param", IdParam), async (c) => {
    const ctx = ctxOf(c);
    requireAbility(ctx.user, "sales.read");
    const form = await c.req.parseBody().catch((e) => {
      throw e instanceof AppError ? e : new AppError("bad_request", "Malformed request body.");
    });
    return c.json(await attachToLine(ctx, c.req.valid("param").id, form[ATTACHMENT_FIELD]));
  })
  .delete("/sales/sales/:id/attachment", valid("param", IdParam), async (c) => {
    return c.json(await detachFromLine(ctxOf(c), c.req.valid("param").id));
  })
  .delete("/sales/sales/:id", valid("param", IdParam), async (c) => {
    return c.json(await deleteLine(ctxOf(c), c.req.valid("param").id));
  })
  .get("/sales/sales/:id", valid("param", IdParam), async (c) => {
    return withEtag(c, await lineById(ctxOf(c), c.req.valid("param").id));
  })
  .get("/sales/sales/:id/inventory-log", valid("param", IdParam), async (c) => {
    return c.json(await lineInventoryLog(ctxOf(c), c.req.valid("param").id));
  })
  .post("/sales/sales/reclass", valid("json", JsonObject), async (c) => {
    return c.json(await reclass(ctxOf(c), c.req.valid("json")));
  })
  .post("/sales/inventory/check-in", valid("json", JsonObject), async (c) => {
    return c.json(await checkIn(ctxOf(c), c.req.valid("json")));
  })
  .post("/sales/tickets/transfer", valid("json", JsonObject), async (c) => {
    return c.json(await transferLines(ctxOf(c), c.req.valid("json")));
  })
  .post("/sales/tickets/bill-back", valid("json", JsonObject), async (c) => {
    return c.json(await billBack(ctxOf(c), c.req.valid("json")));
  });
