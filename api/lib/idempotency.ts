import { and, eq, gte, sql } from "drizzle-orm";
import { z } from "zod";
import { idempotency_keys } from "../../db/schema/mod.ts";
import type { Tx } from "../../db/client.ts";
import { AppError } from "../../lib/errors.ts";

/** How long a key is remembered: far longer than a phone stays out of signal. */
export const IDEMPOTENCY_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** Expired rows deleted by one keyed write: enough to keep up, too few to hold the write queue. */
const EXPIRE_PER_WRITE = 20;

export const IDEMPOTENCY_KEY_MESSAGE = "Idempotency-Key must be 1 to 100 printable characters";
export const IDEMPOTENCY_REUSED =
  "This Idempotency-Key was already used for a different request: send the new request with a new key.";

/** The optional `Idempotency-Key` header of the create routes (visible ASCII, no spaces). */
export const IdempotencyHeader = z.object({
  "idempotency-key": z.string().regex(/^[\x21-\x7E]{1,100}$/, IDEMPOTENCY_KEY_MESSAGE).optional(),
});

export interface Idempotency {
  key: string;
  /** sha-256 of the route and the parsed request */
  hash: string;
}

/** The request's key and a hash of what it asks, or undefined when it sent no key. */
export async function idempotencyOf(
  key: string | undefined,
  route: string,
  request: unknown,
): Promise<Idempotency | undefined> {
  if (key === undefined) return undefined;
  const text = new TextEncoder().encode(route + "\n" + JSON.stringify(request));
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", text));
  return { key, hash: Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("") };
}

/**
 * Runs a create inside its write transaction once per (user, key): a retry with the same request
 * answers the stored answer and creates nothing; the same key with another request is refused (409).
 * The key is written in the same transaction as the record, so an acknowledged write always has its
 * key and a write that failed left none (its retry runs again). Without a key, `fn` just runs.
 */
export async function once<T>(
  tx: Tx,
  userId: number,
  idem: Idempotency | undefined,
  fn: () => Promise<T>,
): Promise<T> {
  if (!idem) return await fn();
  const now = Date.now();
  const oldest = now - IDEMPOTENCY_TTL_MS;
  // A few expired rows per keyed write, oldest first through the index: the table stays about a week deep.
  await tx.run(sql`delete from ${idempotency_keys} where rowid in (
    select rowid from ${idempotency_keys} where ${idempotency_keys.created_at} < ${oldest}
    order by ${idempotency_keys.created_at} limit ${EXPIRE_PER_WRITE})`);
  const seen = await tx.select().from(idempotency_keys).where(and(
    eq(idempotency_keys.user_id, userId),
    eq(idempotency_keys.key, idem.key),
    gte(idempotency_keys.created_at, oldest),
  )).get();
  if (seen) {
    if (seen.request_hash !== idem.hash) throw new AppError("conflict", IDEMPOTENCY_REUSED);
    return JSON.parse(seen.body) as T;
  }
  const out = await fn();
  const row = { request_hash: idem.hash, body: JSON.stringify(out), created_at: now };
  await tx.insert(idempotency_keys).values({ user_id: userId, key: idem.key, ...row })
    .onConflictDoUpdate({ target: [idempotency_keys.user_id, idempotency_keys.key], set: row });
  return out;
}
