import { Hono } from "hono";
import { withEtag } from "../../lib/preconditions.ts";
import { type AppEnv, ctxOf } from "../../lib/context.ts";
import { listResponse } from "../../lib/list_query.ts";
import { IdParam, JsonObject } from "../../lib/validate.ts";
import { valid } from "../../lib/validator.ts";
import { deleteSubCategory, listSubCategories, saveSubCategory, SubCategoryListQuery } from "./service.ts";

import { downloadSubCategories } from "./download.ts";

// Bodies are parsed in the service, after the permission check (a reader gets 403, not 422).
export const subCategoriesRoutes = new Hono<AppEnv>()
  .get("/sales/sub_categories", valid("query", SubCategoryListQuery), (c) => {
    return listResponse(c.req.valid("query"), (q) => listSubCategories(ctxOf(c), q));
  })
  .get("/sales/sub_categories/download", valid("query", SubCategoryListQuery), (c) => {
    return downloadSubCategories(ctxOf(c), c.req.valid("query"));
  })
  .post("/sales/sub_categories", valid("json", JsonObject), async (c) => {
    return c.json(await saveSubCategory(ctxOf(c), c.req.valid("json")));
  })
  .put("/sales/sub_categories", valid("json", JsonObject), async (c) => {
    return withEtag(c, await saveSubCategory(ctxOf(c), c.req.valid("json"), { update: true }));
  })
  .delete("/sales/sub_categories/:id", valid("param", IdParam), async (c) => {
    return c.json(await deleteSubCategory(ctxOf(c), c.req.valid("param").id));
  });
