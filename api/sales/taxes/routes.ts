import { Hono } from "hono";
import { withEtag } from "../../lib/preconditions.ts";
import { type AppEnv, ctxOf } from "../../lib/context.ts";
import { listResponse } from "../../lib/list_query.ts";
import { IdParam, JsonObject } from "../../lib/validate.ts";
import { valid } from "../../lib/validator.ts";
import { deleteTax, listTaxes, saveTax, TaxListQuery } from "./service.ts";

import { downloadTaxes } from "./download.ts";

// Bodies are parsed in the service, after the permission check (a reader gets 403, not 422).
export const taxesRoutes = new Hono<AppEnv>()
  .get("/sales/taxes", valid("query", TaxListQuery), (c) => {
    return listResponse(c.req.valid("query"), (q) => listTaxes(ctxOf(c), q));
  })
  .get("/sales/taxes/download", valid("query", TaxListQuery), (c) => {
    return downloadTaxes(ctxOf(c), c.req.valid("query"));
  })
  .post("/sales/taxes", valid("json", JsonObject), async (c) => {
    return c.json(await saveTax(ctxOf(c), c.req.valid("json")));
  })
  .put("/sales/taxes", valid("json", JsonObject), async (c) => {
    return withEtag(c, await saveTax(ctxOf(c), c.req.valid("json"), { update: true }));
  })
  .delete("/sales/taxes/:id", valid("param", IdParam), async (c) => {
    return c.json(await deleteTax(ctxOf(c), c.req.valid("param").id));
  });
