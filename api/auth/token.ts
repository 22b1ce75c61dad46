import { jwtVerify, SignJWT } from "jose";

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
/** Session tokens already verified, kept until they expire: the HMAC check runs once per token, not per request. */
const VERIFIED_MAX = 10_000;

type Verified = SessionClaims & { iat: number; exp: number };

export class SessionSigner {
  /** imported once: jose would import raw key bytes again on every sign and verify */
  private key: Promise<CryptoKey>;
  private verified = new Map<string, Verified>();
  constructor(secret: string, readonly hours: number) {
    this.key = crypto.subtle.importKey(
      "raw",
      new TextEncoder().encode(secret),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign", "verify"],
    );
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
      this.verified.delete(token);
    }
    const claims = await this.check(token);
    if (claims) {
      if (this.verified.size >= VERIFIED_MAX) this.verified.delete(this.verified.keys().next().value!);
      this.verified.set(token, claims);
    }
    return claims;
  }

  private async check(token: string): Promise<Verified | undefined> {
    try {
      const { payload } = await jwtVerify(token, await this.key, { algorithms: ["HS256"] });
      if (payload.typ !== undefined) return undefined; // a device cookie is not a session
      const sub = Number(payload.sub), tid = Number(payload.tid), ver = Number(payload.ver);
      const sid = payload.sid;
      if (!Number.isInteger(sub) || !Number.isInteger(tid) || !Number.isInteger(ver)) return undefined;
      if (typeof sid !== "string" || !sid) return undefined;
      return { sub, tid, ver, sid, iat: payload.iat ?? 0, exp: payload.exp ?? 0 };
    } catch {
      return undefined;
    }
  }

  /** A device cookie: proof that this browser signed in to this account before (login throttling). */
  async signDevice(c: DeviceClaims): Promise<string> {
    return await new SignJWT({ typ: "device", tid: c.tid, email: c.email, did: c.did })
      .setProtectedHeader({ alg: "HS256" })
      .setIssuedAt()
      .setExpirationTime(`${DEVICE_DAYS}d`)
      .sign(await this.key);
  }

  async verifyDevice(token: string): Promise<DeviceClaims | undefined> {
    try {
      const { payload: p } = await jwtVerify(token, await this.key, { algorithms: ["HS256"] });
      if (p.typ !== "device" || typeof p.email !== "string" || typeof p.did !== "string") return undefined;
      return { tid: Number(p.tid), email: p.email, did: p.did };
    } catch {
      return undefined;
    }
  }

  static readonly deviceDays = DEVICE_DAYS;
}
