import { Hono } from "hono";
import { withEtag } from "../../lib/preconditions.ts";
import { type AppEnv, ctxOf } from "../../lib/context.ts";
import { listResponse } from "../../lib/list_query.ts";
import { IdParam } from "../../lib/validate.ts";
import { valid } from "../../lib/validator.ts";
import { CompanyInput, CompanyUpdateInput } from "./schemas.ts";
import {
  CompanyListQuery,
  CompanySearchQuery,
  deleteCompany,
  downloadCompanies,
  listCompanies,
  saveCompany,
  searchCompanies,
} from "./service.ts";

export const companiesRoutes = new Hono<AppEnv>()
  .get("/admin/companies", valid("query", CompanyListQuery), (c) => {
    return listResponse(c.req.valid("query"), (q) => listCompanies(ctxOf(c), q));
  })
  .get("/admin/companies/download", valid("query", CompanyListQuery), (c) => {
    return downloadCompanies(ctxOf(c), c.req.valid("query"));
  })
  .get("/companies", valid("query", CompanySearchQuery), async (c) => {
    return c.json(await searchCompanies(ctxOf(c), c.req.valid("query")));
  })
  .post("/companies", valid("json", CompanyInput), async (c) => {
    return c.json(await saveCompany(ctxOf(c), c.req.valid("json")));
  })
  .patch("/companies", valid("json", CompanyUpdateInput), async (c) => {
    return withEtag(c, await saveCompany(ctxOf(c), c.req.valid("json")));
  })
  .delete("/companies/:id", valid("param", IdParam), async (c) => {
    return c.json(await deleteCompany(ctxOf(c), c.req.valid("param").id));
  });
