import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import { AppError } from "./errors.ts";
import { Semaphore } from "./semaphore.ts";

/**
 * scrypt at N=2^17 holds 128 MB for a few hundred milliseconds: a handful at once, process-wide, keeps
 * a flood of sign-ins from taking the server's memory and every tenant's latency with it.
 */
const hashing = new Semaphore(4, 16);
const busy = () =>
  new AppError("throttled", "The server is busy checking passwords. Try again in a moment.", undefined, {
    "Retry-After": "1",
  });

function derive(password: string, salt: Buffer, N: number, r: number, p: number): Promise<Buffer> {
  return hashing.run(
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
  );
}

/** scrypt with OWASP's parameters (N=2^17, r=8, p=1); the parameters travel inside the hash. */
export async function hashPassword(password: string, N = 131072): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, N, 8, 1);
  return `scrypt$${N}$8$1$${salt.toString("base64")}$${key.toString("base64")}`;
}

/** Parameters a stored hash may carry: anything else is not ours (and would cost unbounded memory). */
const sane = (N: number, r: number, p: number) =>
  Number.isInteger(Math.log2(N)) && N >= 1024 && N <= 2 ** 20 && r === 8 && p === 1;

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [kind, n, r, p, salt, hash] = stored.split("$");
  if (kind !== "scrypt" || !hash || !sane(Number(n), Number(r), Number(p))) return false;
  const expected = Buffer.from(hash, "base64");
  const key = await derive(password, Buffer.from(salt, "base64"), Number(n), Number(r), Number(p));
  return key.length === expected.length && timingSafeEqual(key, expected);
}
