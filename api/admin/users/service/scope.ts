import { type AnyColumn, eq, or, type SQL, sql } from "drizzle-orm";
import { companies, users } from "../../../../db/schema/mod.ts";
import type { CurrentUser } from "../../../lib/context.ts";
import { can } from "../../../../lib/policy.ts";
import { likeContains } from "../../../lib/list_query.ts";

/** A user-admin of the owner company manages the whole tenant; anyone else only their own company. */
const seesAllUsers = (user: CurrentUser) => can(user, "users.allCompanies");

/** The users a caller may see or manage; undefined = every user of the tenant. */
export function userScope(user: CurrentUser): SQL | undefined {
  return seesAllUsers(user) ? undefined : eq(users.company_id, user.company_id);
}

export function inScope(user: CurrentUser, target: { company_id: number }): boolean {
  return seesAllUsers(user) || target.company_id === user.company_id;
}

/**
 * search_name: one of the columns (by default name, email, phone or company name; the query must join
 * companies) contains the text, case-insensitively, wildcards taken literally.
 */
export function userSearch(
  text: string | undefined,
  columns: AnyColumn[] = [users.name, users.email, users.phone, companies.name],
): SQL | undefined {
  if (!text) return undefined;
  const like = likeContains(text);
  return or(...columns.map((col) => sql`${col} like ${like} escape '\\'`));
}
