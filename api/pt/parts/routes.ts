import { Hono } from "hono";
import { type AppEnv, ctxOf } from "../../lib/context.ts";
import { listResponse } from "../../lib/list_query.ts";
import { IdParam } from "../../lib/validate.ts";
import { valid } from "../../lib/validator.ts";
import { withEtag } from "../../lib/preconditions.ts";
import { PartInput, PartUpdateInput } from "./schemas.ts";
import {
  deletePart,
  downloadParts,
  listParts,
  PartListQuery,
  PartSearchQuery,
  savePart,
  searchParts,
} from "./service.ts";

export const partsRoutes = new Hono<AppEnv>()
  .get("/pt/parts", valid("query", PartListQuery), (c) => {
    return listResponse(c.req.valid("query"), (q) => listParts(ctxOf(c), q));
  })
  .get("/pt/parts/download", valid("query", PartListQuery), (c) => {
    return downloadParts(ctxOf(c), c.req.valid("query"));
  })
  .post("/pt/parts", valid("json", PartInput), async (c) => {
    return withEtag(c, await savePart(ctxOf(c), c.req.valid("json")));
  })
  .patch("/pt/parts", valid("json", PartUpdateInput), async (c) => {
    return withEtag(c, await savePart(ctxOf(c), c.req.valid("json")));
  })
  .delete("/pt/parts/:id", valid("param", IdParam), async (c) => {
    return c.json(await deletePart(ctxOf(c), c.req.valid("param").id));
  })
  .get("/parts", valid("query", PartSearchQuery), async (c) => {
    return c.json(await searchParts(ctxOf(c), c.req.valid("query")));
  });
