import { jwtVerify, SignJWT } from "jose";

export interface SessionClaims {
  /** user id */
  sub: number;
  /** tenant id in the catalog */
  tid: number;
  /** the user's session_version when the session began */
  ver: number;
}

export class SessionSigner {
  private key: Uint8Array;
  constructor(secret: string, readonly hours: number) {
    this.key = new TextEncoder().encode(secret);
  }

  sign(c: SessionClaims): Promise<string> {
    return new SignJWT({ tid: c.tid, ver: c.ver })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(String(c.sub))
      .setIssuedAt()
      .setExpirationTime(`${this.hours}h`)
      .sign(this.key);
  }

  async verify(token: string): Promise<(SessionClaims & { iat: number }) | undefined> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ["HS256"] });
      const sub = Number(payload.sub), tid = Number(payload.tid), ver = Number(payload.ver);
      if (!Number.isInteger(sub) || !Number.isInteger(tid) || !Number.isInteger(ver)) return undefined;
      return { sub, tid, ver, iat: payload.iat ?? 0 };
    } catch {
      return undefined;
    }
  }
}
