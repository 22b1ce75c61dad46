import { timeZoneOf } from "../../../../lib/format.ts";
import { and, asc, count, desc, eq, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { companies, users } from "../../../../db/schema/mod.ts";
import type { Ctx } from "../../../lib/context.ts";
import {
  everyRow,
  ListQuery,
  type ListResult,
  listTotal,
  optionalText,
  pageWindow,
} from "../../../lib/list_query.ts";
import { xlsxResponse } from "../../../lib/xlsx.ts";
import { queryEnum } from "../../../lib/list_query.ts";
import { presentUserRecord, type UserRecord } from "../present.ts";
import { userScope, userSearch } from "./scope.ts";

export const UserListQuery = ListQuery.extend({
  search_name: optionalText,
  company_id: z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number().int().positive().optional()),
  sortBy: queryEnum(["name", "email", "phone", "company", "account_type"]),
});
export type UserListQuery = z.infer<typeof UserListQuery>;

const SORT = {
  name: sql`${users.name} collate nocase`,
  email: sql`${users.email} collate nocase`,
  phone: users.phone,
  company: sql`${companies.name} collate nocase`,
  account_type: users.account_type,
};

/** One page of users (with their companies) within `scope`, filtered and sorted as the list asks. */
export async function queryUsers(
  ctx: Ctx,
  scope: SQL | undefined,
  q: UserListQuery,
): Promise<ListResult<UserRecord>> {
  const where = and(
    scope,
    q.company_id ? eq(users.company_id, q.company_id) : undefined,
    userSearch(q.search_name),
  );
  const dir = q.descending ? desc : asc;
  const { limit, offset } = pageWindow(q);
  const [rows, total] = await Promise.all([
    ctx.db.select().from(users).innerJoin(companies, eq(companies.id, users.company_id)).where(where)
      .orderBy(dir(SORT[q.sortBy ?? "name"]), dir(users.id)).limit(limit).offset(offset),
    listTotal(
      ctx,
      ctx.db.select({ total: count() }).from(users).innerJoin(companies, eq(companies.id, users.company_id))
        .where(where),
    ),
  ]);
  return { results: rows.map((r) => presentUserRecord(r.users, r.companies)), total };
}

/**
 * GET /api/admin/users. The spec's role check on the users page "does not block anyone": a caller
 * without user-admin rights of the owner company simply sees only their own company's users.
 */
export function listUsers(ctx: Ctx, q: UserListQuery): Promise<ListResult<UserRecord>> {
  return queryUsers(ctx, userScope(ctx.user), q);
}

export const USER_COLUMNS = [
  { header: "Name", key: "name", width: 28 },
  { header: "Email", key: "email", width: 32 },
  { header: "Phone", key: "phone", width: 16 },
  { header: "Company", key: "company", width: 28 },
  { header: "Account Type", key: "account_type", width: 16 },
  { header: "Active", key: "active", width: 8 },
  { header: "Roles", key: "roles", width: 40 },
];

/** GET /api/admin/users/download: the list's filters, every row, as Users-YYYY-MM-DD.xlsx. */
export async function downloadUsers(ctx: Ctx, q: UserListQuery, today = new Date()): Promise<Response> {
  return xlsxResponse(
    "Users",
    USER_COLUMNS,
    await everyRow((page, rowsPerPage) => listUsers(ctx, { ...q, page, rowsPerPage }), (u) => ({
      name: u.name,
      email: u.email,
      phone: u.phone,
      company: u.company.name,
      account_type: u.account_type,
      active: u.active ? "Yes" : "No",
      roles: u.roles.join(", "),
    })),
    today,
    { timeZone: timeZoneOf(ctx.user.company.settings) },
  );
}

/** GET /api/companyusers: the caller's own company's users, whoever the caller is. */
export function listCompanyUsers(ctx: Ctx, q: UserListQuery): Promise<ListResult<UserRecord>> {
  return queryUsers(ctx, eq(users.company_id, ctx.user.company_id), { ...q, company_id: undefined });
}
