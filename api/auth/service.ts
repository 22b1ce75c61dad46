import { eq, lt, sql } from "drizzle-orm";
import { companies, revoked_sessions, users } from "../../db/schema/mod.ts";
import type { TenantDatabase } from "../../db/client.ts";
import type { TenantDb } from "../../db/tenants.ts";
import { AppError } from "../../lib/errors.ts";
import { hashPassword, requireHashingRoom, verifyPassword } from "../../lib/password.ts";
import type { CurrentUser, Services } from "../lib/context.ts";
import { presentUser } from "../admin/users/present.ts";
import { MAX_EMAIL, WAITING_PER_TENANT } from "./throttle.ts";

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

/**
 * A hash of a random password per cost: checking an unknown email costs as much as a known one. One made
 * while the hashing queue was full is made again next time.
 */
const decoys = new Map<number, Promise<string>>();
function decoy(N: number, tenant: number): Promise<string> {
  let d = decoys.get(N);
  if (!d) {
    decoys.set(N, d = hashPassword(crypto.randomUUID(), N, tenant));
    d.catch(() => decoys.delete(N));
  }
  return d;
}

export interface LoginInput {
  email: string;
  password: string;
  address: string;
  /** the browser's device cookie, if any */
  device?: string;
}

/**
 * Checks the credentials and answers a signed session token (and a device cookie for this browser).
 * The attempt is counted before the password is hashed, so parallel guesses meet the limit too, and a
 * browser the account does not know waits out the delay others' failures set (decision 041).
 */
export async function login(
  s: Services,
  tdb: TenantDb,
  input: LoginInput,
): Promise<{ token: string; device: string; user: CurrentUser }> {
  const email = input.email.trim();
  // No account has a longer one (user saves refuse it): nothing to count or check.
  if (email.length > MAX_EMAIL) throw new AppError("unauthorized", "Incorrect email or password");
  requireHashingRoom(tdb.tenant.id);
  const known = input.device ? await s.signer.verifyDevice(input.device) : undefined;
  const trusted = known && known.tid === tdb.tenant.id && known.email === email.toLowerCase();
  // Waiting attempts hold a turn of the tenant's (api/middleware/tenant_gate.ts): at most half of them.
  const waiting = Math.max(1, Math.min(WAITING_PER_TENANT, Math.floor(s.config.TENANT_CONCURRENCY / 2)));
  const ticket = await s.throttle.begin(tdb, {
    email,
    address: input.address,
    device: trusted ? known.did : undefined,
  }, waiting);
  let row;
  try {
    [row] = await tdb.db.select().from(users).where(sql`${users.email} = ${email} collate nocase`);
    const tenant = tdb.tenant.id;
    const stored = row?.password_hash ?? await decoy(s.config.SCRYPT_N, tenant);
    const ok = await verifyPassword(input.password, stored, tenant);
    if (!row || !ok || !row.active) {
      await ticket.fail(!!row);
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
