import { eq, sql } from "drizzle-orm";
import { companies, users } from "../../db/schema/mod.ts";
import type { TenantDatabase } from "../../db/client.ts";
import type { TenantDb } from "../../db/tenants.ts";
import { AppError } from "../lib/errors.ts";
import { hashPassword, verifyPassword } from "../lib/password.ts";
import type { CurrentUser, Services } from "../lib/context.ts";
import { presentUser } from "../admin/users/present.ts";

export interface SessionUser {
  user: CurrentUser;
  sessionVersion: number;
}

export async function loadSessionUser(db: TenantDatabase, id: number): Promise<SessionUser | undefined> {
  const [row] = await db.select().from(users).innerJoin(companies, eq(companies.id, users.company_id))
    .where(eq(users.id, id));
  if (!row || !row.users.active) return undefined;
  return { user: presentUser(row.users, row.companies), sessionVersion: row.users.session_version };
}

// A hash of a random password: checking an unknown email costs as much as a known one.
let decoy: Promise<string> | undefined;

/** Checks the credentials and answers a signed session token; throttles repeated failures. */
export async function login(
  s: Services,
  tdb: TenantDb,
  input: { email: string; password: string; address: string },
): Promise<{ token: string; user: CurrentUser }> {
  const email = input.email.trim();
  s.throttle.check(tdb.tenant.id, email, input.address);
  const [row] = await tdb.db.select().from(users).where(sql`${users.email} = ${email} collate nocase`);
  decoy ??= hashPassword(crypto.randomUUID(), s.config.SCRYPT_N);
  const ok = await verifyPassword(input.password, row?.password_hash ?? await decoy);
  if (!row || !ok || !row.active) {
    s.throttle.fail(tdb.tenant.id, email, input.address);
    throw new AppError("unauthorized", "Incorrect email or password");
  }
  s.throttle.succeed(tdb.tenant.id, email);
  const loaded = await loadSessionUser(tdb.db, row.id);
  if (!loaded) throw new AppError("unauthorized", "Incorrect email or password");
  const token = await s.signer.sign({ sub: row.id, tid: tdb.tenant.id, ver: row.session_version });
  return { token, user: loaded.user };
}
