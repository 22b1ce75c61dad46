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

export class SessionSigner {
  private key: Uint8Array;
  constructor(secret: string, readonly hours: number) {
    this.key = new TextEncoder().encode(secret);
  }

  sign(c: SessionClaims): Promise<string> {
    return new SignJWT({ tid: c.tid, ver: c.ver, sid: c.sid })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(String(c.sub))
      .setIssuedAt()
      .setExpirationTime(`${this.hours}h`)
      .sign(this.key);
  }

  async verify(token: string): Promise<(SessionClaims & { iat: number; exp: number }) | undefined> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ["HS256"] });
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
  signDevice(c: DeviceClaims): Promise<string> {
    return new SignJWT({ typ: "device", tid: c.tid, email: c.email, did: c.did })
      .setProtectedHeader({ alg: "HS256" })
      .setIssuedAt()
      .setExpirationTime(`${DEVICE_DAYS}d`)
      .sign(this.key);
  }

  async verifyDevice(token: string): Promise<DeviceClaims | undefined> {
    try {
      const { payload: p } = await jwtVerify(token, this.key, { algorithms: ["HS256"] });
      if (p.typ !== "device" || typeof p.email !== "string" || typeof p.did !== "string") return undefined;
      return { tid: Number(p.tid), email: p.email, did: p.did };
    } catch {
      return undefined;
    }
  }

  static readonly deviceDays = DEVICE_DAYS;
}
