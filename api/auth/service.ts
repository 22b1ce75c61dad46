import { eq, lt, sql } from "drizzle-orm";
import { companies, revoked_sessions, users } from "../../db/schema/mod.ts";
import type { TenantDatabase } from "../../db/client.ts";
import type { TenantDb } from "../../db/tenants.ts";
import { AppError } from "../../lib/errors.ts";
import { hashPassword, verifyPassword } from "../../lib/password.ts";
import type { CurrentUser, Services } from "../lib/context.ts";
import { presentUser } from "../admin/users/present.ts";

export interface SessionUser {
  user: CurrentUser;
  sessionVersion: number;
}

const prepareSessionQuery = (db: TenantDatabase) =>
  db.select({
    users,
    companies,
    revoked: sql<number>`exists(select 1 from ${revoked_sessions} where ${revoked_sessions.sid} = ${
      sql.placeholder("sid")
    })`,
  }).from(users).innerJoin(companies, eq(companies.id, users.company_id))
    .where(eq(users.id, sql.placeholder("id"))).prepare();

// It runs on every signed-in request: built once per database, not per call (a third of the cost).
const sessionQueries = new WeakMap<TenantDatabase, ReturnType<typeof prepareSessionQuery>>();

/** The user a session names, unless that session was ended (logged out) or the user is inactive. */
export async function loadSessionUser(
  db: TenantDatabase,
  id: number,
  sid = "",
): Promise<SessionUser | undefined> {
  let query = sessionQueries.get(db);
  if (!query) sessionQueries.set(db, query = prepareSessionQuery(db));
  const [row] = await query.all({ id, sid });
  if (!row || !row.users.active || row.revoked) return undefined;
  return { user: presentUser(row.users, row.companies), sessionVersion: row.users.session_version };
}

// A hash of a random password: checking an unknown email costs as much as a known one.
let decoy: Promise<string> | undefined;

export interface LoginInput {
  email: string;
  password: string;
  address: string;
  /** the browser's device cookie, if any */
  device?: string;
}

/**
 * Checks the credentials and answers a signed session token (and a device cookie for this browser).
 * The attempt is counted before the password is hashed, so parallel guesses meet the limit too.
 */
export async function login(
  s: Services,
  tdb: TenantDb,
  input: LoginInput,
): Promise<{ token: string; device: string; user: CurrentUser }> {
  const email = input.email.trim();
  const known = input.device ? await s.signer.verifyDevice(input.device) : undefined;
  const trusted = known && known.tid === tdb.tenant.id && known.email === email.toLowerCase();
  const ticket = await s.throttle.begin(tdb, {
    email,
    address: input.address,
    device: trusted ? known.did : undefined,
  });
  let row;
  try {
    [row] = await tdb.db.select().from(users).where(sql`${users.email} = ${email} collate nocase`);
    decoy ??= hashPassword(crypto.randomUUID(), s.config.SCRYPT_N);
    const ok = await verifyPassword(input.password, row?.password_hash ?? await decoy);
    if (!row || !ok || !row.active) {
      await ticket.fail();
      throw new AppError("unauthorized", "Incorrect email or password");
    }
    await ticket.succeed();
  } finally {
    await ticket.release();
  }
  const loaded = await loadSessionUser(tdb.db, row.id);
  if (!loaded) throw new AppError("unauthorized", "Incorrect email or password");
  const token = await s.signer.sign({
    sub: row.id,
    tid: tdb.tenant.id,
    ver: row.session_version,
    sid: crypto.randomUUID(),
  });
  const device = await s.signer.signDevice({
    tid: tdb.tenant.id,
    email: email.toLowerCase(),
    did: trusted ? known.did : crypto.randomUUID(),
  });
  return { token, device, user: loaded.user };
}

/** Ends one session on every instance: its token is refused from now until it would have expired. */
export async function revokeSession(s: Services, tdb: TenantDb, token: string | undefined) {
  const claims = token ? await s.signer.verify(token) : undefined;
  if (!claims || claims.tid !== tdb.tenant.id) return;
  const now = Math.floor(Date.now() / 1000);
  await tdb.write(async (tx) => {
    await tx.delete(revoked_sessions).where(lt(revoked_sessions.expires_at, now));
    await tx.insert(revoked_sessions).values({ sid: claims.sid, expires_at: claims.exp })
      .onConflictDoNothing();
  }, { keepsTotals: true });
}
