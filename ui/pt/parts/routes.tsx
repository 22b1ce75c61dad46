import { Hono } from "hono";
import { type AppEnv, ctxOf } from "../../../api/lib/context.ts";
import { can } from "../../../lib/policy.ts";
import { listParts, PartListQuery } from "../../../api/pt/parts/service.ts";
import { PART_PAGE_SIZES } from "../../../api/pt/parts/schemas.ts";
import { renderShellPage } from "../../render.tsx";
import { lenientQuery } from "../../components/list_query.ts";
import { PartsPage } from "./PartsPage.tsx";
import type { PartsQuery } from "./types.ts";

const DEFAULT_SIZE = 10;

/** GET /pt/parts: the inspection company's staff; anyone else goes back to the welcome page. */
export const partsPages = new Hono<AppEnv>()
  .get("/pt/parts", async (c) => {
    const user = c.get("user")!;
    const params = new URL(c.req.url).searchParams;
    const q = lenientQuery(PartListQuery, params);
    const sizes: readonly number[] = PART_PAGE_SIZES;
    const query: PartsQuery = {
      page: q.page,
      rowsPerPage: sizes.includes(Number(params.get("rowsPerPage"))) ? q.rowsPerPage : DEFAULT_SIZE,
      sortBy: q.sortBy ?? "name",
      descending: q.descending ?? false,
      ...(q.search_name ? { search_name: q.search_name } : {}),
    };
    const data = await listParts(ctxOf(c), { ...q, ...query } as PartListQuery);
    return renderShellPage(
      c,
      "Parts",
      <PartsPage data={data} query={query} can={{ edit: can(user, "parts.edit") }} />,
    );
  });
