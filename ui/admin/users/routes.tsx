import { Hono } from "hono";
import { type AppEnv, ctxOf } from "../../../api/lib/context.ts";
import { can } from "../../../lib/policy.ts";
import { listUsers, UserListQuery } from "../../../api/admin/users/service.ts";
import { USER_PAGE_SIZES } from "../../../api/admin/users/schemas.ts";
import { renderShellPage } from "../../render.tsx";
import { lenientQuery } from "../../components/list_query.ts";
import { UsersPage } from "./UsersPage.tsx";
import { toUserRow, type UsersQuery } from "./types.ts";

/** GET /admin/accounts: open to every signed-in user (the spec's role check blocks no one). */
export const usersPages = new Hono<AppEnv>()
  .get("/admin/accounts", async (c) => {
    const user = c.get("user")!;
    const params = new URL(c.req.url).searchParams;
    const q = lenientQuery(UserListQuery, params);
    const sizes: readonly number[] = USER_PAGE_SIZES;
    const query: UsersQuery = {
      page: q.page,
      rowsPerPage: sizes.includes(q.rowsPerPage) ? q.rowsPerPage : USER_PAGE_SIZES[0],
      sortBy: q.sortBy ?? "name",
      descending: q.descending ?? false,
      ...(q.search_name ? { search_name: q.search_name } : {}),
    };
    const { results, total } = await listUsers(ctxOf(c), { ...q, ...query } as UserListQuery);
    return renderShellPage(
      c,
      "Users",
      <UsersPage
        name={user.name}
        data={{ results: results.map(toUserRow), total }}
        query={query}
        can={{
          edit: can(user, "users.edit"),
          delete: can(user, "users.delete"),
          forceReset: can(user, "users.forceReset"),
          superuser: can(user, "users.superuser"),
        }}
      />,
    );
  });
