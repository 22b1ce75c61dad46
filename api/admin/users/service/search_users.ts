import { and, asc, count, desc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { users } from "../../../../db/schema/mod.ts";
import type { Ctx } from "../../../lib/context.ts";
import {
  ListQuery,
  type ListResult,
  listTotal,
  optionalText,
  pageWindow,
  queryBool,
} from "../../../lib/list_query.ts";
import { queryEnum } from "../../../lib/list_query.ts";
import { userScope, userSearch } from "./scope.ts";

/** The sales-rep look-up of the ticket form: small pages, name or email. */
export const UserSearchQuery = ListQuery.extend({
  rowsPerPage: ListQuery.shape.rowsPerPage.unwrap().default(20),
  search_name: optionalText,
  q: optionalText,
  isSalesRep: queryBool.optional(),
  sortBy: queryEnum(["name"]),
});
export type UserSearchQuery = z.infer<typeof UserSearchQuery>;

export interface UserHit {
  id: number;
  name: string;
  email: string;
}

/** GET /api/users: active users within the caller's scope (as the users list), by name or email. */
export async function searchUsers(ctx: Ctx, q: UserSearchQuery): Promise<ListResult<UserHit>> {
  const where = and(
    userScope(ctx.user),
    eq(users.active, true),
    q.isSalesRep === undefined ? undefined : eq(users.isSalesRep, q.isSalesRep),
    userSearch(q.search_name ?? q.q, [users.name, users.email]),
  );
  const { limit, offset } = pageWindow(q);
  const [results, total] = await Promise.all([
    ctx.db.select({ id: users.id, name: users.name, email: users.email }).from(users).where(where)
      .orderBy((q.descending ? desc : asc)(sql`${users.name} collate nocase`), users.id)
      .limit(limit).offset(offset),
    listTotal(ctx, ctx.db.select({ total: count() }).from(users).where(where)),
  ]);
  return { results, total };
}
