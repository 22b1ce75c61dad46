import { eq } from "drizzle-orm";
import { companies, users } from "../../../../db/schema/mod.ts";
import type { Ctx } from "../../../lib/context.ts";
import { AppError } from "../../../../lib/errors.ts";
import { isSuperuser, requireAbility } from "../../../../lib/policy.ts";
import { isForeignKeyError } from "../../../lib/db_helpers.ts";
import { inScope } from "./scope.ts";
import { requireMatch } from "../../../lib/preconditions.ts";
import { presentUserRecord } from "../present.ts";

/** DELETE /api/admin/users with `{id}`: user-admin; never oneself; only users within the caller's scope. */
export async function deleteUser(ctx: Ctx, id: number): Promise<{ message: string }> {
  requireAbility(ctx.user, "users.delete");
  if (id === ctx.user.id) throw new AppError("conflict", "You cannot delete your own account.");
  await ctx.tdb.write(async (tx) => {
    const target = await tx.select().from(users).where(eq(users.id, id)).get();
    if (!target || !inScope(ctx.user, target)) throw new AppError("not_found", "User not found.");
    await requireMatch(ctx, target.version, async () => {
      const company = await tx.select().from(companies).where(eq(companies.id, target.company_id)).get();
      return presentUserRecord(target, company!);
    });
    if (isSuperuser(target)) {
      requireAbility(ctx.user, "users.superuser", "Only a superuser can delete a superuser's account.");
    }
    try {
      await tx.delete(users).where(eq(users.id, id));
    } catch (e) {
      if (isForeignKeyError(e)) throw new AppError("conflict", "This user is still named on other records.");
      throw e;
    }
  });
  return { message: "User deleted" };
}
