import { Hono } from "hono";
import { type AppEnv, ctxOf } from "../../lib/context.ts";
import { listResponse } from "../../lib/list_query.ts";
import { valid } from "../../lib/validator.ts";
import { AuditListQuery } from "./schemas.ts";
import { downloadInventoryAudit, everyAuditRow, listInventoryAudit } from "./service.ts";

export const auditRoutes = new Hono<AppEnv>()
  .get("/sales/audit/inventory-rows", valid("query", AuditListQuery), (c) => {
    const q = c.req.valid("query");
    return listResponse(q, (q) => listInventoryAudit(ctxOf(c), q), "results", {
      rows: () => everyAuditRow(ctxOf(c), q, (r) => r),
    });
  })
  .get("/sales/audit/inventory-rows/download", valid("query", AuditListQuery), (c) => {
    return downloadInventoryAudit(ctxOf(c), c.req.valid("query"));
  });
