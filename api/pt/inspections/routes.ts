import { type Context, Hono } from "hono";
import { type AppEnv, ctxOf } from "../../lib/context.ts";
import { requestOrigin } from "../../lib/public_origin.ts";
import { listResponse } from "../../lib/list_query.ts";
import { AppError } from "../../../lib/errors.ts";
import { IdParam, JsonObject } from "../../lib/validate.ts";
import { valid } from "../../lib/validator.ts";
import { uploadLimit } from "../../files/routes.ts";
import { IdempotencyHeader } from "../../lib/idempotency.ts";
import { withEtag } from "../../lib/preconditions.ts";
import {
  deleteInspection,
  downloadInspections,
  everyInspection,
  InspectionListQuery,
  inspectionReport,
  jobLabels,
  listInspections,
  saveBatch,
  saveInspection,
} from "./service.ts";

/**
 * The batch arrives as the spec's JSON (the PDF a data URL) or as multipart form data with the same
 * field names and a `pressure_test` file part; both become the same object for saveBatch.
 */
async function batchBody(c: Context<AppEnv>): Promise<unknown> {
  const type = c.req.header("content-type") ?? "";
  try {
    if (!type.toLowerCase().startsWith("multipart/form-data")) return await c.req.json();
    const form = await c.req.parseBody({ all: true });
    const one = (k: string) => (Array.isArray(form[k]) ? form[k][0] : form[k]);
    return {
      job_id: one("job_id"),
      date: one("date"),
      batch: one("batch"),
      part_id: one("part_id"),
      serial_numbers: form["serial_numbers"] ?? form["serial_numbers[]"],
      imageFiles: { pressure_test: one("pressure_test") ?? one("imageFiles.pressure_test") },
    };
  } catch {
    throw new AppError("bad_request", "Malformed request body.");
  }
}

export const inspectionsRoutes = new Hono<AppEnv>()
  .get("/pt/inspections", valid("query", InspectionListQuery), (c) => {
    const q = c.req.valid("query");
    return listResponse(q, (q) => listInspections(ctxOf(c), q), "results", {
      rows: () => everyInspection(ctxOf(c), q, (r) => r),
    });
  })
  .get("/pt/inspections/download", valid("query", InspectionListQuery), (c) => {
    return downloadInspections(ctxOf(c), c.req.valid("query"));
  })
  .get("/pt/inspections/labels", (c) => {
    return jobLabels(ctxOf(c), c.req.query(), requestOrigin(c));
  })
  .get("/pt/inspections/:id/report", valid("param", IdParam), (c) => {
    return inspectionReport(ctxOf(c), c.req.valid("param").id);
  })
  .post("/pt/inspections/batch", uploadLimit, valid("header", IdempotencyHeader), async (c) => {
    const idempotencyKey = c.req.valid("header")["idempotency-key"];
    return c.json(await saveBatch(ctxOf(c), await batchBody(c), { idempotencyKey }));
  })
  .post("/pt/inspections", valid("header", IdempotencyHeader), valid("json", JsonObject), async (c) => {
    const idempotencyKey = c.req.valid("header")["idempotency-key"];
    return withEtag(c, await saveInspection(ctxOf(c), c.req.valid("json"), { idempotencyKey }));
  })
  .patch("/pt/inspections", valid("json", JsonObject), async (c) => {
    return withEtag(c, await saveInspection(ctxOf(c), c.req.valid("json"), { update: true }));
  })
  .delete("/pt/inspections/:id", valid("param", IdParam), async (c) => {
    return c.json(await deleteInspection(ctxOf(c), c.req.valid("param").id));
  });
