import { Hono } from "hono";
import { type AppEnv, ctxOf } from "../../../api/lib/context.ts";
import { AUDIT_PAGE_SIZES, AuditListQuery } from "../../../api/sales/audit/schemas.ts";
import { listInventoryAudit } from "../../../api/sales/audit/service.ts";
import { renderShellPage } from "../../render.tsx";
import { lenientQuery } from "../../components/list_query.ts";
import { dayOf, timeZoneOf } from "../../../lib/format.ts";
import { AuditPage } from "./AuditPage.tsx";
import { AUDIT_FILTERS, type AuditQuery } from "./types.ts";

/** The API's own default page size. */
const DEFAULT_SIZE = AuditListQuery.parse({}).rowsPerPage;

/**
 * GET /sales/inventory-audit: the owner company's staff (anyone else back to "/"). The filters come
 * from the URL, so a link such as `?serial_number=PV2-1001` opens the log of that serial number.
 */
export const auditPages = new Hono<AppEnv>()
  .get("/sales/inventory-audit", async (c) => {
    const params = new URL(c.req.url).searchParams;
    const q = lenientQuery(AuditListQuery, params);
    const sizes: readonly number[] = AUDIT_PAGE_SIZES;
    const query: AuditQuery = {
      page: q.page,
      rowsPerPage: sizes.includes(Number(params.get("rowsPerPage"))) ? q.rowsPerPage : DEFAULT_SIZE,
      sortBy: q.sortBy ?? "action_time",
      descending: q.descending ?? (q.sortBy === undefined || q.sortBy === "action_time"),
    };
    // A date given as an instant shows as its day on the company's clock (the day it filters on).
    const timeZone = timeZoneOf(ctxOf(c).user.company.settings);
    for (const k of AUDIT_FILTERS) {
      if (q[k]) {
        query[k] = k.startsWith("start_date") ? dayOf(q[k], timeZone) : q[k];
      }
    }
    const data = await listInventoryAudit(
      ctxOf(c),
      { ...q, ...query, inventory_id: undefined } as AuditListQuery,
    );
    return renderShellPage(c, "Inventory Audit", <AuditPage data={data} query={query} />);
  });
