import { Hono } from "hono";
import type { AppEnv } from "../../../api/lib/context.ts";
import { can } from "../../../lib/policy.ts";
import { listParts, PartListQuery } from "../../../api/pt/parts/service.ts";
import { PART_PAGE_SIZES } from "./types.ts";
import { listPage } from "../../lib/list_page.tsx";
import { PartsPage } from "./PartsPage.tsx";

/** GET /pt/parts: the inspection company's staff; anyone else goes back to the welcome page. */
export const partsPages = new Hono<AppEnv>()
  .get(
    "/pt/parts",
    listPage({
      title: "Parts",
      schema: PartListQuery,
      sizes: PART_PAGE_SIZES,
      size: 10,
      sort: { by: "name", descending: false },
      filters: ["search_name"],
      render: async ({ user, ctx, q, table }) => (
        <PartsPage
          data={await listParts(ctx, { ...q, ...table })}
          query={table}
          can={{ edit: can(user, "parts.edit") }}
        />
      ),
    }),
  );
