import { Hono } from "hono";
import { withEtag } from "../../lib/preconditions.ts";
import { type AppEnv, ctxOf } from "../../lib/context.ts";
import { listResponse } from "../../lib/list_query.ts";
import { IdParam, JsonObject } from "../../lib/validate.ts";
import { valid } from "../../lib/validator.ts";
import { CategoryListQuery, deleteCategory, listCategories, saveCategory } from "./service.ts";

import { downloadCategories } from "./download.ts";

// Bodies are parsed in the service, after the permission check (a reader gets 403, not 422).
export const categoriesRoutes = new Hono<AppEnv>()
  .get("/sales/categories", valid("query", CategoryListQuery), (c) => {
    return listResponse(c.req.valid("query"), (q) => listCategories(ctxOf(c), q));
  })
  .get("/sales/categories/download", valid("query", CategoryListQuery), (c) => {
    return downloadCategories(ctxOf(c), c.req.valid("query"));
  })
  .post("/sales/categories", valid("json", JsonObject), async (c) => {
    return c.json(await saveCategory(ctxOf(c), c.req.valid("json")));
  })
  .put("/sales/categories", valid("json", JsonObject), async (c) => {
    return withEtag(c, await saveCategory(ctxOf(c), c.req.valid("json"), { update: true }));
  })
  .delete("/sales/categories/:id", valid("param", IdParam), async (c) => {
    return c.json(await deleteCategory(ctxOf(c), c.req.valid("param").id));
  });
