import { AppError } from "../lib/errors.ts";

const WINDOW_MS = 15 * 60 * 1000;
const MAX_PER_ACCOUNT = 5;
const MAX_PER_ADDRESS = 20;

/** Failed sign-ins counted per tenant+email and per tenant+address, in memory, over 15 minutes. */
export class LoginThrottle {
  private failures = new Map<string, { count: number; since: number }>();

  constructor(private now: () => number = Date.now) {}

  private keys(tenantId: number, email: string, address: string) {
    return [[`a:${tenantId}:${email.toLowerCase()}`, MAX_PER_ACCOUNT], [
      `i:${tenantId}:${address}`,
      MAX_PER_ADDRESS,
    ]] as const;
  }

  check(tenantId: number, email: string, address: string) {
    for (const [key, max] of this.keys(tenantId, email, address)) {
      const f = this.failures.get(key);
      if (!f) continue;
      const left = f.since + WINDOW_MS - this.now();
      if (left <= 0) this.failures.delete(key);
      else if (f.count >= max) {
        throw new AppError("throttled", "Too many failed sign-in attempts. Try again later.", undefined, {
          "Retry-After": String(Math.ceil(left / 1000)),
        });
      }
    }
  }

  fail(tenantId: number, email: string, address: string) {
    if (this.failures.size > 100_000) this.failures.clear();
    for (const [key] of this.keys(tenantId, email, address)) {
      const f = this.failures.get(key);
      if (f && f.since + WINDOW_MS > this.now()) f.count++;
      else this.failures.set(key, { count: 1, since: this.now() });
    }
  }

  succeed(tenantId: number, email: string) {
    this.failures.delete(`a:${tenantId}:${email.toLowerCase()}`);
  }
}
