import { EncryptJWT, jwtDecrypt, jwtVerify, SignJWT } from "jose";

export interface SessionClaims {
  /** user id */
  sub: number;
  /** tenant id in the catalog */
  tid: number;
  /** the user's session_version when the session began */
  ver: number;
  /** this sign-in's id: kept when the cookie is renewed, revoked by logging out */
  sid: string;
}

export interface DeviceClaims {
  tid: number;
  /** the account this browser signed in to, lower case */
  email: string;
  /** this browser's id */
  did: string;
}

const DEVICE_DAYS = 180;
/**
 * Session tokens already verified, kept until they expire: the HMAC check runs once per token, not per
 * request. Bounded twice: 10,000 tokens, and 8 MiB of token text (counted at 2 bytes a character); a token
 * longer than 2,048 characters is checked every time, never kept. Ours are about 230 characters (4.6 MB at
 * 10,000), so the count binds first; with each entry's claims (about 200 bytes) the memory stays under about
 * 7 MB, and under 10 MiB whatever the tokens.
 */
const VERIFIED_MAX = 10_000;
const VERIFIED_BYTES = 8 << 20;
const VERIFIED_TOKEN_CHARS = 2048;

type Verified = SessionClaims & { iat: number; exp: number };

/** A key derived from the session secret for one purpose, so no two purposes share key bytes. */
async function derivedKey(secret: string, purpose: string, algorithm: AesKeyGenParams, usages: KeyUsage[]) {
  const base = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), "HKDF", false, [
    "deriveKey",
  ]);
  return await crypto.subtle.deriveKey(
    { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(), info: new TextEncoder().encode(purpose) },
    base,
    algorithm,
    false,
    usages,
  );
}

export class SessionSigner {
  /** imported once: jose would import raw key bytes again on every sign and verify */
  private key: Promise<CryptoKey>;
  /** AES-256-GCM for device cookies, derived from the secret */
  private deviceKey: Promise<CryptoKey>;
  private verified = new Map<string, Verified>();
  private verifiedBytes = 0;
  constructor(secret: string, readonly hours: number) {
    this.key = crypto.subtle.importKey(
      "raw",
      new TextEncoder().encode(secret),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign", "verify"],
    );
    this.deviceKey = derivedKey(secret, "device cookie v2", { name: "AES-GCM", length: 256 }, [
      "encrypt",
      "decrypt",
    ]);
  }

  async sign(c: SessionClaims): Promise<string> {
    return await new SignJWT({ tid: c.tid, ver: c.ver, sid: c.sid })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(String(c.sub))
      .setIssuedAt()
      .setExpirationTime(`${this.hours}h`)
      .sign(await this.key);
  }

  /**
   * The token's claims when its signature and expiry hold. A token verified before is answered from memory
   * until it expires (revocation is checked apart, with the session user, on every request).
   */
  async verify(token: string): Promise<Verified | undefined> {
    const known = this.verified.get(token);
    if (known) {
      if (known.exp * 1000 > Date.now()) return known;
      this.forget(token);
    }
    const claims = await this.check(token);
    if (claims && token.length <= VERIFIED_TOKEN_CHARS) {
      while (
        this.verified.size && (this.verified.size >= VERIFIED_MAX ||
          this.verifiedBytes + 2 * token.length > VERIFIED_BYTES)
      ) {
        this.forget(this.verified.keys().next().value!);
      }
      this.verified.set(token, claims);
      this.verifiedBytes += 2 * token.length;
    }
    return claims;
  }

  /** What the memory of verified tokens holds (tests, and whoever watches the process). */
  get verifiedLoad() {
    return { tokens: this.verified.size, bytes: this.verifiedBytes };
  }

  private forget(token: string) {
    if (this.verified.delete(token)) this.verifiedBytes -= 2 * token.length;
  }

  private async check(token: string): Promise<Verified | undefined> {
    try {
      // A token must say when it expires: jose checks `exp` only when it is there.
      const { payload } = await jwtVerify(token, await this.key, {
        algorithms: ["HS256"],
        requiredClaims: ["exp", "iat", "sub"],
      });
      if (payload.typ !== undefined) return undefined; // a device cookie is not a session
      const sub = Number(payload.sub), tid = Number(payload.tid), ver = Number(payload.ver);
      const sid = payload.sid;
      if (!Number.isInteger(sub) || !Number.isInteger(tid) || !Number.isInteger(ver)) return undefined;
      if (typeof sid !== "string" || !sid) return undefined;
      return { sub, tid, ver, sid, iat: payload.iat!, exp: payload.exp! };
    } catch {
      return undefined;
    }
  }

  /**
   * A device cookie: proof that this browser signed in to this account before (login throttling). It is
   * encrypted (JWE, `dir` with A256GCM under a key derived from the session secret), so nothing in it, the
   * email least of all, can be read from the cookie; it expires after 180 days.
   */
  async signDevice(c: DeviceClaims): Promise<string> {
    return await new EncryptJWT({ typ: "device", tid: c.tid, email: c.email, did: c.did })
      .setProtectedHeader({ alg: "dir", enc: "A256GCM" })
      .setIssuedAt()
      .setExpirationTime(`${DEVICE_DAYS}d`)
      .encrypt(await this.deviceKey);
  }

  /** The claims of a device cookie this server made and that has not expired; anything else is unknown. */
  async verifyDevice(token: string): Promise<DeviceClaims | undefined> {
    try {
      const { payload: p } = await jwtDecrypt(token, await this.deviceKey, {
        keyManagementAlgorithms: ["dir"],
        contentEncryptionAlgorithms: ["A256GCM"],
        requiredClaims: ["exp"],
      });
      if (p.typ !== "device" || typeof p.email !== "string" || typeof p.did !== "string") return undefined;
      if (!Number.isInteger(p.tid)) return undefined;
      return { tid: Number(p.tid), email: p.email, did: p.did };
    } catch {
      return undefined;
    }
  }

  static readonly deviceDays = DEVICE_DAYS;
}
