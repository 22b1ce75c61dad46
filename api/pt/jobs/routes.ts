import { Hono } from "hono";
import { withEtag } from "../../lib/preconditions.ts";
import { type AppEnv, ctxOf } from "../../lib/context.ts";
import { listResponse } from "../../lib/list_query.ts";
import { IdParam, JsonObject } from "../../lib/validate.ts";
import { valid } from "../../lib/validator.ts";
import { JobListQuery } from "./schemas.ts";
import { deleteJob, downloadJobs, everyJob, getJob, jobReport, listJobs, saveJob } from "./service.ts";

export const jobsRoutes = new Hono<AppEnv>()
  .get("/pt/jobs", valid("query", JobListQuery), (c) => {
    const q = c.req.valid("query");
    return listResponse(q, (q) => listJobs(ctxOf(c), q), "results", {
      rows: () => everyJob(ctxOf(c), q, (r) => r),
    });
  })
  .get("/pt/jobs/download", valid("query", JobListQuery), (c) => {
    return downloadJobs(ctxOf(c), c.req.valid("query"));
  })
  .get("/pt/jobs/:id/report", valid("param", IdParam), (c) => {
    return jobReport(ctxOf(c), c.req.valid("param").id);
  })
  .get("/pt/jobs/:id", valid("param", IdParam), async (c) => {
    return withEtag(c, await getJob(ctxOf(c), c.req.valid("param").id));
  })
  .post("/pt/jobs", valid("json", JsonObject), async (c) => {
    return c.json(await saveJob(ctxOf(c), c.req.valid("json")));
  })
  .patch("/pt/jobs", valid("json", JsonObject), async (c) => {
    return withEtag(c, await saveJob(ctxOf(c), c.req.valid("json"), { update: true }));
  })
  .delete("/pt/jobs/:id", valid("param", IdParam), async (c) => {
    return c.json(await deleteJob(ctxOf(c), c.req.valid("param").id));
  });
