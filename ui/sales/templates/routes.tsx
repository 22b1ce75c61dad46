import { Hono } from "hono";
import { type AppEnv, ctxOf } from "../../../api/lib/context.ts";
import { can } from "../../../lib/policy.ts";
import { TEMPLATE_PAGE_SIZES, TemplateListQuery } from "../../../api/sales/templates/schemas.ts";
import { findBusinessUnit, listTemplates } from "../../../api/sales/templates/service.ts";
import { renderShellPage } from "../../render.tsx";
import { lenientQuery } from "../../components/list_query.ts";
import { TemplatesPage } from "./TemplatesPage.tsx";
import type { TemplatesQuery } from "./types.ts";

const DEFAULT_SIZE = 20;

/**
 * GET /sales/templates: sales-admin of the owner company only; anyone else goes to "/" (the spec
 * sends them to /signin, which sends a signed-in user on to "/" anyway).
 */
export const templatesPages = new Hono<AppEnv>()
  .get("/sales/templates", async (c) => {
    const user = c.get("user")!;
    const ctx = ctxOf(c);
    const params = new URL(c.req.url).searchParams;
    const q = lenientQuery(TemplateListQuery, params);
    const unit = q.search_business_unit
      ? (await findBusinessUnit(ctx.db, user, q.search_business_unit)) ?? null
      : null;
    const sizes: readonly number[] = TEMPLATE_PAGE_SIZES;
    const query: TemplatesQuery = {
      page: q.page,
      rowsPerPage: sizes.includes(Number(params.get("rowsPerPage"))) ? q.rowsPerPage : DEFAULT_SIZE,
      sortBy: q.sortBy ?? "name",
      descending: q.descending ?? false,
      ...(unit ? { search_business_unit: unit.id } : {}),
      ...(unit && q.search_name ? { search_name: q.search_name } : {}),
    };
    const data = await listTemplates(ctx, { ...q, ...query } as TemplateListQuery);
    return renderShellPage(
      c,
      "Templates",
      <TemplatesPage data={data} query={query} unit={unit} can={{ edit: can(user, "sales.admin") }} />,
    );
  });
