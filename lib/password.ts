import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import { AppError } from "./errors.ts";
import { FairQueue } from "./semaphore.ts";

const CORES = Math.max(1, navigator.hardwareConcurrency || 1);

/**
 * scrypt at N=2^17 holds 128 MB for a few hundred milliseconds and keeps one core busy. Process-wide, at
 * most one runs per core, and no more than 4 (half a gigabyte). Each tenant has its own line, served in
 * rotation; a tenant runs at most all but one of them and queues only a few more, so another tenant's check
 * starts at once (or, with one core, after at most one check), and a tenant's flood of sign-ins is answered
 * 429 at once instead of taking every tenant's latency with it (decision 041).
 */
export const HASHING = (() => {
  const running = Math.min(CORES, 4);
  const perTenant = Math.max(1, running - 1);
  return { running, perTenant, waitingPerTenant: 2 * perTenant + 2 };
})();
const hashing = new FairQueue(HASHING.running, HASHING.perTenant, HASHING.waitingPerTenant);
const busy = () =>
  new AppError("throttled", "The server is busy checking passwords. Try again in a moment.", undefined, {
    "Retry-After": "1",
  });

/**
 * Refuses (429) at once when the lane's queue is full: a flood is answered before it costs anything more
 * (a sign-in's throttle writes). The queue may still be full by the time the check is queued; that one is
 * refused then.
 */
export function requireHashingRoom(lane: HashLane) {
  if (hashing.full(lane)) throw busy();
}

/** Password checks running and queued right now (tests, and whoever watches the process). */
export const hashingLoad = () => hashing.load;

/**
 * The line hashing is queued in: a tenant's id for its sign-ins and user saves; one shared line for
 * work outside any request (creating a tenant, the CLI, test factories), which may queue deeper.
 */
export type HashLane = string | number;
const NO_TENANT: HashLane = "-";
const NO_TENANT_WAITING = 1024;

function derive(
  password: string,
  salt: Buffer,
  N: number,
  r: number,
  p: number,
  lane: HashLane,
): Promise<Buffer> {
  return hashing.run(
    lane,
    () =>
      new Promise((resolve, reject) =>
        scrypt(
          password.normalize("NFKC"),
          salt,
          32,
          { N, r, p, maxmem: 256 * N * r + 1024 * 1024 },
          (err, key) => err ? reject(err) : resolve(key),
        )
      ),
    busy,
    lane === NO_TENANT ? NO_TENANT_WAITING : undefined,
  );
}

/** scrypt with OWASP's parameters (N=2^17, r=8, p=1); the parameters travel inside the hash. */
export async function hashPassword(
  password: string,
  N = 131072,
  lane: HashLane = NO_TENANT,
): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, N, 8, 1, lane);
  return `scrypt$${N}$8$1$${salt.toString("base64")}$${key.toString("base64")}`;
}

/** Parameters a stored hash may carry: anything else is not ours (and would cost unbounded memory). */
const sane = (N: number, r: number, p: number) =>
  Number.isInteger(Math.log2(N)) && N >= 1024 && N <= 2 ** 20 && r === 8 && p === 1;

export async function verifyPassword(
  password: string,
  stored: string,
  lane: HashLane = NO_TENANT,
): Promise<boolean> {
  const [kind, n, r, p, salt, hash] = stored.split("$");
  if (kind !== "scrypt" || !hash || !sane(Number(n), Number(r), Number(p))) return false;
  const expected = Buffer.from(hash, "base64");
  const key = await derive(password, Buffer.from(salt, "base64"), Number(n), Number(r), Number(p), lane);
  return key.length === expected.length && timingSafeEqual(key, expected);
}
