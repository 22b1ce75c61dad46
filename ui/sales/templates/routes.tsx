import { Hono } from "hono";
import type { AppEnv } from "../../../api/lib/context.ts";
import { can } from "../../../lib/policy.ts";
import { TemplateListQuery } from "../../../api/sales/templates/schemas.ts";
import { TEMPLATE_PAGE_SIZES } from "./types.ts";
import { findBusinessUnit, listTemplates } from "../../../api/sales/templates/service.ts";
import { listPage } from "../../lib/list_page.tsx";
import { TemplatesPage } from "./TemplatesPage.tsx";

/**
 * GET /sales/templates: sales-admin of the owner company only; anyone else goes to "/" (the spec
 * sends them to /signin, which sends a signed-in user on to "/" anyway).
 */
export const templatesPages = new Hono<AppEnv>()
  .get(
    "/sales/templates",
    listPage({
      title: "Templates",
      schema: TemplateListQuery,
      sizes: TEMPLATE_PAGE_SIZES,
      size: 20,
      sort: { by: "name", descending: false },
      render: async ({ user, ctx, q, table }) => {
        // The name search applies within a business unit the user may see, and only then.
        const unit = q.search_business_unit
          ? (await findBusinessUnit(ctx.db, user, q.search_business_unit)) ?? null
          : null;
        const query = {
          ...table,
          ...(unit ? { search_business_unit: unit.id } : {}),
          ...(unit && q.search_name ? { search_name: q.search_name } : {}),
        };
        const data = await listTemplates(ctx, { ...q, ...query });
        return (
          <TemplatesPage data={data} query={query} unit={unit} can={{ edit: can(user, "sales.admin") }} />
        );
      },
    }),
  );
