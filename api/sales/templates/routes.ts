import { Hono } from "hono";
import { withEtag } from "../../lib/preconditions.ts";
import { type AppEnv, ctxOf } from "../../lib/context.ts";
import { listResponse } from "../../lib/list_query.ts";
import { IdParam, JsonObject } from "../../lib/validate.ts";
import { valid } from "../../lib/validator.ts";
import { TemplateListQuery } from "./schemas.ts";
import { downloadTemplates } from "./download.ts";
import { deleteTemplate, listTemplates, listUnitTemplates, saveTemplate } from "./service.ts";

// Bodies are parsed in the service, after the permission check (a reader gets 403, not 422).
export const templatesRoutes = new Hono<AppEnv>()
  .get("/sales/templates", valid("query", TemplateListQuery), (c) => {
    return listResponse(c.req.valid("query"), (q) => listTemplates(ctxOf(c), q));
  })
  .get("/sales/templates/download", valid("query", TemplateListQuery), (c) => {
    return downloadTemplates(ctxOf(c), c.req.valid("query"));
  })
  .get("/sales/templates/business-unit/:id", valid("param", IdParam), async (c) => {
    return c.json(await listUnitTemplates(ctxOf(c), c.req.valid("param").id));
  })
  .post("/sales/templates", valid("json", JsonObject), async (c) => {
    return c.json(await saveTemplate(ctxOf(c), c.req.valid("json")));
  })
  .put("/sales/templates", valid("json", JsonObject), async (c) => {
    return withEtag(c, await saveTemplate(ctxOf(c), c.req.valid("json"), { update: true }));
  })
  .delete("/sales/templates/:id", valid("param", IdParam), async (c) => {
    return c.json(await deleteTemplate(ctxOf(c), c.req.valid("param").id));
  });
