import { and, eq, sql } from "drizzle-orm";
import { companies, jobs, type User, users } from "../../../../db/schema/mod.ts";
import type { Tx } from "../../../../db/client.ts";
import type { Ctx } from "../../../lib/context.ts";
import { AppError, invalid } from "../../../../lib/errors.ts";
import { hashPassword } from "../../../../lib/password.ts";
import { can, isSuperuser, requireAbility } from "../../../../lib/policy.ts";
import { parse } from "../../../lib/validate.ts";
import { nowStamp } from "../../../lib/db_helpers.ts";
import { presentUserRecord, type UserRecord } from "../present.ts";
import { requireMatch } from "../../../lib/preconditions.ts";
import { PASSWORD_MESSAGE, SelfUpdateInput, UserInput } from "../schemas.ts";
import { inScope } from "./scope.ts";
import { inJson } from "../../../../db/in_json.ts";

export interface SavedUser {
  /** The answer: the saved user as `presentUser` shapes it, and the snackbar message. */
  user: UserRecord & { message: string };
  /**
   * Set when callers changed their own password: the session version their sessions must now carry
   * (the route signs a fresh session with it so the caller stays signed in).
   */
  sessionVersion?: number;
}

/**
 * POST /api/admin/users. Without an id creates, with one updates (user-admin). Users saving themselves
 * without user-admin, or with the forced password reset's short form (no account_type), may change
 * only their name, phone and password, which clears passwordReset.
 */
export function saveUser(ctx: Ctx, body: unknown): Promise<SavedUser> {
  const raw = (body && typeof body === "object" ? body : {}) as Record<string, unknown>;
  // Only a number or numeric text can name the caller; Number() of an arbitrary object can throw.
  const self = (typeof raw.id === "number" || typeof raw.id === "string") && Number(raw.id) === ctx.user.id;
  if (self && (!can(ctx.user, "users.edit") || !("account_type" in raw))) {
    return updateSelf(ctx, parse(SelfUpdateInput, raw));
  }
  requireAbility(ctx.user, "users.edit");
  const input = parse(UserInput, raw);
  return input.id === undefined ? createUser(ctx, input) : updateUser(ctx, input, input.id);
}

async function updateSelf(ctx: Ctx, input: SelfUpdateInput): Promise<SavedUser> {
  const password_hash = await hashPassword(input.password, ctx.config.SCRYPT_N, ctx.tdb.tenant.id);
  return await ctx.tdb.write(async (tx) => {
    const current = await tx.select().from(users).where(eq(users.id, ctx.user.id)).get();
    if (!current) throw new AppError("not_found", "User not found.");
    await requireMatch(
      ctx,
      current.version,
      async () => presentUserRecord(current, await companyOf(tx, current.company_id)),
    );
    const row = await updated(tx, current.id, {
      ...(input.name !== undefined ? { name: input.name } : {}),
      phone: input.phone,
      password_hash,
      passwordReset: false,
      session_version: current.session_version + 1,
      updated_at: nowStamp(),
    });
    return {
      user: { ...presentUserRecord(row, await companyOf(tx, row.company_id)), message: "User updated" },
      sessionVersion: row.session_version,
    };
  });
}

/** The rules every admin save checks before touching the database. */
function checkCaller(ctx: Ctx, input: UserInput, before: User | undefined) {
  const caller = ctx.user;
  if (!can(caller, "users.allCompanies") && input.company_id !== caller.company_id) {
    throw new AppError("forbidden", "You can only manage users of your own company.");
  }
  if (before && isSuperuser(before)) {
    requireAbility(caller, "users.superuser", "Only a superuser can edit a superuser's account.");
  }
  if (isSuperuser(input) !== (!!before && isSuperuser(before))) {
    requireAbility(caller, "users.superuser", "Only a superuser can grant or remove the superuser role.");
  }
  if (input.passwordReset && !before?.passwordReset && !can(caller, "users.forceReset")) {
    throw new AppError("forbidden", "You do not have permission to force a password reset.");
  }
}

/** A Data-Entry user's jobs must be real jobs of their own (inspection) company. */
async function checkJobs(tx: Tx, input: UserInput) {
  if (input.jobs.length === 0) return;
  const found = await tx.select({ id: jobs.id }).from(jobs)
    .where(and(inJson(jobs.id, input.jobs), eq(jobs.inspection_company_id, input.company_id)));
  if (found.length !== new Set(input.jobs).size) throw invalid("jobs", "Unknown job");
}

/**
 * Updates the user and reads the row again: RETURNING would not see the version the table's trigger bumps
 * after the statement (decision 038).
 */
async function updated(tx: Tx, id: number, values: Partial<typeof users.$inferInsert>): Promise<User> {
  await tx.update(users).set(values).where(eq(users.id, id));
  return (await tx.select().from(users).where(eq(users.id, id)).get())!;
}

async function companyOf(tx: Tx, id: number) {
  const company = await tx.select().from(companies).where(eq(companies.id, id)).get();
  if (!company) throw invalid("company_id", "Company is required");
  return company;
}

function fields(input: UserInput) {
  return {
    name: input.name,
    phone: input.phone,
    account_type: input.account_type,
    company_id: input.company_id,
    permissions: [...new Set(input.permissions)],
    categories: input.categories,
    categories_bu: input.categories_bu,
    jobs: [...new Set(input.jobs)],
    active: input.active,
    isSalesRep: input.isSalesRep,
    passwordReset: input.passwordReset,
  };
}

async function createUser(ctx: Ctx, input: UserInput): Promise<SavedUser> {
  if (!input.password) throw invalid("password", PASSWORD_MESSAGE);
  checkCaller(ctx, input, undefined);
  const password_hash = await hashPassword(input.password, ctx.config.SCRYPT_N, ctx.tdb.tenant.id);
  return await ctx.tdb.write(async (tx) => {
    const company = await companyOf(tx, input.company_id);
    await checkJobs(tx, input);
    const taken = await tx.select({ id: users.id }).from(users)
      .where(sql`${users.email} = ${input.email} collate nocase`).get();
    if (taken) throw new AppError("conflict", "A user with this email already exists.");
    const [row] = await tx.insert(users).values({ ...fields(input), email: input.email, password_hash })
      .returning();
    return { user: { ...presentUserRecord(row, company), message: "User created" } };
  });
}

async function updateUser(ctx: Ctx, input: UserInput, id: number): Promise<SavedUser> {
  // Hashing is slow: done before the write queue is held.
  const password_hash = input.password
    ? await hashPassword(input.password, ctx.config.SCRYPT_N, ctx.tdb.tenant.id)
    : undefined;
  return await ctx.tdb.write(async (tx) => {
    const before = await tx.select().from(users).where(eq(users.id, id)).get();
    if (!before || !inScope(ctx.user, before)) throw new AppError("not_found", "User not found.");
    await requireMatch(
      ctx,
      before.version,
      async () => presentUserRecord(before, await companyOf(tx, before.company_id)),
    );
    if (before.email.toLowerCase() !== input.email.toLowerCase()) {
      throw invalid("email", "Email cannot be changed");
    }
    checkCaller(ctx, input, before);
    const self = before.id === ctx.user.id;
    if (self && !input.active) throw new AppError("conflict", "You cannot deactivate your own account.");
    const company = await companyOf(tx, input.company_id);
    await checkJobs(tx, input);
    const endSessions = password_hash !== undefined || (before.active && !input.active);
    const row = await updated(tx, id, {
      ...fields(input),
      ...(password_hash ? { password_hash } : {}),
      session_version: before.session_version + (endSessions ? 1 : 0),
      updated_at: nowStamp(),
    });
    return {
      user: { ...presentUserRecord(row, company), message: "User updated" },
      ...(self && password_hash ? { sessionVersion: row.session_version } : {}),
    };
  });
}
