import { Hono } from "hono";
import { withEtag } from "../../lib/preconditions.ts";
import { type AppEnv, ctxOf } from "../../lib/context.ts";
import { listResponse } from "../../lib/list_query.ts";
import { AppError } from "../../../lib/errors.ts";
import { IdParam, JsonObject } from "../../lib/validate.ts";
import { valid } from "../../lib/validator.ts";
import { uploadLimit } from "../../files/routes.ts";
import {
  deleteItem,
  downloadItems,
  ItemListQuery,
  listItems,
  previewItemBatch,
  saveItem,
  saveItemBatch,
} from "./service.ts";

const jsonBody = (req: { json(): Promise<unknown> }) =>
  req.json().catch(() => {
    throw new AppError("bad_request", "Malformed request body.");
  });

// Save bodies are parsed by the service after its permission check (403 before 422).
export const itemsRoutes = new Hono<AppEnv>()
  .get("/sales/items", valid("query", ItemListQuery), (c) => {
    return listResponse(c.req.valid("query"), (q) => listItems(ctxOf(c), q));
  })
  .get("/sales/items/download", valid("query", ItemListQuery), (c) => {
    return downloadItems(ctxOf(c), c.req.valid("query"));
  })
  .post("/sales/items/batch", uploadLimit, async (c) => {
    return c.json(await saveItemBatch(ctxOf(c), await jsonBody(c.req)));
  })
  .post("/sales/items/batch/preview", uploadLimit, async (c) => {
    return c.json(await previewItemBatch(ctxOf(c), await jsonBody(c.req)));
  })
  .post("/sales/items", valid("json", JsonObject), async (c) => {
    return c.json(await saveItem(ctxOf(c), c.req.valid("json")));
  })
  .put("/sales/items", valid("json", JsonObject), async (c) => {
    return withEtag(c, await saveItem(ctxOf(c), c.req.valid("json"), { update: true }));
  })
  .delete("/sales/items/:id", valid("param", IdParam), async (c) => {
    return c.json(await deleteItem(ctxOf(c), c.req.valid("param").id));
  });
