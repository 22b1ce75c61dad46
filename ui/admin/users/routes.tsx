import { Hono } from "hono";
import type { AppEnv } from "../../../api/lib/context.ts";
import { can } from "../../../lib/policy.ts";
import { listUsers, UserListQuery } from "../../../api/admin/users/service.ts";
import { USER_PAGE_SIZES } from "./types.ts";
import { listPage } from "../../lib/list_page.tsx";
import { UsersPage } from "./UsersPage.tsx";
import { toUserRow } from "./types.ts";

/** GET /admin/accounts: open to every signed-in user (the spec's role check blocks no one). */
export const usersPages = new Hono<AppEnv>()
  .get(
    "/admin/accounts",
    listPage({
      title: "Users",
      schema: UserListQuery,
      sizes: USER_PAGE_SIZES,
      size: USER_PAGE_SIZES[0],
      sort: { by: "name", descending: false },
      filters: ["search_name"],
      render: async ({ user, ctx, q, table }) => {
        const { results, total } = await listUsers(ctx, { ...q, ...table });
        return (
          <UsersPage
            name={user.name}
            data={{ results: results.map(toUserRow), total }}
            query={table}
            can={{
              edit: can(user, "users.edit"),
              delete: can(user, "users.delete"),
              forceReset: can(user, "users.forceReset"),
              superuser: can(user, "users.superuser"),
            }}
          />
        );
      },
    }),
  );
