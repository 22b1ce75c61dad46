import { type AnyColumn, eq, or, type SQL, sql } from "drizzle-orm";
import { companies, users } from "../../../../db/schema/mod.ts";
import type { CurrentUser } from "../../../lib/context.ts";
import { AppError } from "../../../lib/errors.ts";
import { can } from "../../../lib/permissions.ts";
import { likeContains } from "../../../lib/list_query.ts";

/** A user-admin of the owner company manages the whole tenant; anyone else only their own company. */
export function seesAllUsers(user: CurrentUser): boolean {
  return user.company.isOwner && can(user, "users.edit");
}

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

/** Holding the superuser role is the superuser's business alone: granting, removing, touching. */
export function requireSuperuserFor(caller: CurrentUser, message: string): void {
  if (!caller.permissions.includes("superuser")) throw new AppError("forbidden", message);
}

export const SUPERUSER = "superuser";
