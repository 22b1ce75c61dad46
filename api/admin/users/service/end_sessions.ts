import { eq, sql } from "drizzle-orm";
import { users } from "../../../../db/schema/mod.ts";
import type { Ctx } from "../../../lib/context.ts";
import { AppError } from "../../../../lib/errors.ts";
import { isSuperuser, requireAbility } from "../../../../lib/policy.ts";
import { nowStamp } from "../../../lib/db_helpers.ts";
import { inScope } from "./scope.ts";

/**
 * POST /api/admin/users/logout-everywhere with `{id}`: every session of that user ends, on every
 * device (a lost phone, a shared laptop). Anyone for themselves; a user-admin for users in their
 * scope; a superuser's sessions only by a superuser, like every other change to their account.
 */
export async function endAllSessions(ctx: Ctx, id: number): Promise<{ message: string }> {
  if (id !== ctx.user.id) requireAbility(ctx.user, "users.edit");
  await ctx.tdb.write(async (tx) => {
    const target = await tx.select().from(users).where(eq(users.id, id)).get();
    if (!target || !inScope(ctx.user, target)) throw new AppError("not_found", "User not found.");
    if (id !== ctx.user.id && isSuperuser(target)) {
      requireAbility(ctx.user, "users.superuser", "Only a superuser can end a superuser's sessions.");
    }
    await tx.update(users).set({ session_version: sql`${users.session_version} + 1`, updated_at: nowStamp() })
      .where(eq(users.id, id));
  });
  return { message: id === ctx.user.id ? "Signed out everywhere" : "User signed out everywhere" };
}
