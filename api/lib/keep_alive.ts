import { isTrusted, type TrustedProxies } from "./client_address.ts";

/**
 * A bound on the HTTP connections the server keeps open between requests (decision 060). `Deno.serve` keeps
 * every HTTP/1.1 connection a client leaves open for as long as the client keeps it (Deno 2.9 has no
 * keep-alive timeout), and each costs the process about 20-30 KB (measured: 1,000 idle connections to a bare
 * `Deno.serve` +24 MB RSS; to this server about 20 MB of C heap in use and 25-30 MB of RSS). 1,000 tenants
 * each signed in to once by one client left 1,000 such connections open until the client's pool dropped them,
 * 90 s or more later: the 1,000-tenant figures of decision 043 moved by ~30 MB with when that happened.
 *
 * A connection is known by its peer's address and port and the request's Host (a client on this machine
 * reaches every loopback address from 127.0.0.1, so two open connections to two tenants' addresses may share
 * a port). Those seen in the last `windowMs` are counted, the most recently used last; while `max` of them
 * are counted, a request on another connection is answered with `Connection: close`, so that connection is
 * closed once its answer is sent (the client opens another for its next request, and is counted then if
 * there is room). A connection counted is forgotten after `windowMs` without requests: the count cannot see
 * a client close its end, so it assumes so after that long (clients drop idle connections after 60-300 s);
 * a client that keeps them longer can hold `max` more for every `windowMs` its requests go on. The
 * connections of a trusted proxy (`TRUST_PROXY`, decision 054) are not counted: they are the proxy's pool,
 * bounded by the proxy, and carry many tenants' hosts. A peer without a port (a Unix socket) is not counted.
 */

export interface KeepAliveLimits {
  /** connections kept open between requests, at most */
  max: number;
  /** a counted connection without requests for this long is forgotten (ms) */
  windowMs: number;
}

/** 128 connections at about 20-30 KB: 3-4 MB. */
export const KEEP_ALIVE_LIMITS: KeepAliveLimits = { max: 128, windowMs: 120_000 };

type Peer = { hostname?: string; port?: number } | undefined;

export class KeepAliveBound {
  /** connection -> when its last request came (performance.now()), least recently used first */
  private seen = new Map<string, number>();
  /** requests answered with `Connection: close` (tests, and whoever watches the process) */
  closed = 0;

  constructor(
    private limits: KeepAliveLimits = KEEP_ALIVE_LIMITS,
    private now = () => performance.now(),
    private proxies?: TrustedProxies,
  ) {}

  /**
   * Whether the connection of a request from `peer` (for `host`, its Host header) may stay open after its
   * answer (and counts it if so).
   */
  keep(peer: Peer, host = ""): boolean {
    if (!peer?.hostname || !peer.port) return true;
    if (this.proxies?.networks.length && isTrusted(this.proxies, peer.hostname)) return true;
    const key = `${peer.hostname}:${peer.port} ${host}`;
    const now = this.now();
    if (this.seen.delete(key)) {
      this.seen.set(key, now);
      return true;
    }
    for (const [k, at] of this.seen) {
      if (now - at < this.limits.windowMs) break;
      this.seen.delete(k);
    }
    if (this.seen.size >= this.limits.max) {
      this.closed++;
      return false;
    }
    this.seen.set(key, now);
    return true;
  }

  /** Connections counted as open. */
  get size(): number {
    return this.seen.size;
  }

  /**
   * A `Deno.serve` handler around `handler`: its answer, with `Connection: close` when the request's connection
   * is not to be kept.
   */
  wrap<I extends { remoteAddr: unknown }>(
    handler: (req: Request, info: I) => Response | Promise<Response>,
  ): (req: Request, info: I) => Promise<Response> {
    return async (req, info) => {
      const keep = this.keep(info.remoteAddr as Peer, req.headers.get("host") ?? "");
      const res = await handler(req, info);
      return keep ? res : closing(res);
    };
  }
}

/** The answer with `Connection: close` (a copy when its headers cannot be changed). */
function closing(res: Response): Response {
  if (res.status === 101) return res; // an upgraded connection (a web socket) is not a kept-alive one
  try {
    res.headers.set("connection", "close");
    return res;
  } catch {
    const copy = new Response(res.body, res);
    copy.headers.set("connection", "close");
    return copy;
  }
}
