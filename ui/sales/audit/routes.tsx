import { Hono } from "hono";
import type { AppEnv } from "../../../api/lib/context.ts";
import { AuditListQuery } from "../../../api/sales/audit/schemas.ts";
import { AUDIT_PAGE_SIZES } from "./types.ts";
import { listInventoryAudit } from "../../../api/sales/audit/service.ts";
import { listPage } from "../../lib/list_page.tsx";
import { dayOf, timeZoneOf } from "../../../lib/format.ts";
import { AuditPage } from "./AuditPage.tsx";
import { AUDIT_FILTERS } from "./types.ts";

/**
 * GET /sales/inventory-audit: the owner company's staff (anyone else back to "/"). The filters come
 * from the URL, so a link such as `?serial_number=PV2-1001` opens the log of that serial number.
 */
export const auditPages = new Hono<AppEnv>()
  .get(
    "/sales/inventory-audit",
    listPage({
      title: "Inventory Audit",
      schema: AuditListQuery,
      sizes: AUDIT_PAGE_SIZES,
      // The API's own default page size.
      size: AuditListQuery.parse({}).rowsPerPage,
      sort: { by: "action_time", descending: true },
      filters: AUDIT_FILTERS,
      render: async ({ ctx, q, table }) => {
        // Newest first by default; any other column starts ascending.
        const query = { ...table, descending: q.descending ?? table.sortBy === "action_time" };
        // A date given as an instant shows as its day on the company's clock (the day it filters on).
        const timeZone = timeZoneOf(ctx.user.company.settings);
        for (const k of AUDIT_FILTERS) {
          if (k.startsWith("start_date") && query[k]) query[k] = dayOf(query[k], timeZone);
        }
        const data = await listInventoryAudit(ctx, { ...q, ...query, inventory_id: undefined });
        return <AuditPage data={data} query={query} />;
      },
    }),
  );
