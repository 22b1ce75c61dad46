/**
 * Tenants as namespaces on a libSQL server (sqld 0.24, decision 020). sqld picks a namespace by the first
 * label of the request's host name (`<namespace>.<base host>`), so a tenant's URL is the base URL with its
 * namespace in front. Namespaces are made and removed through sqld's admin API; each gets its own Ed25519
 * key (the namespace config's `jwt_key`), and its one token, scoped to it, is signed with that key and kept
 * in the catalog; the private key is thrown away.
 */
import { Buffer } from "node:buffer";
import http from "node:http";

export interface SqldConfig {
  /** sqld's admin API, e.g. `http://127.0.0.1:9090` (`--admin-listen-addr`) */
  adminUrl: string;
  /** `--admin-auth-key`, when sqld was started with one */
  adminToken?: string;
  /** where namespaces are reached: `http://db.example:8080` serves `acme` at `http://acme.db.example:8080` */
  baseUrl: string;
}

export class SqldError extends Error {}

/** Namespace names sqld accepts that are also one host-name label. */
const NAMESPACE_RE = /^[a-z0-9][a-z0-9-]{0,62}$/;

export function namespaceUrl(baseUrl: string, namespace: string): string {
  if (!NAMESPACE_RE.test(namespace)) throw new SqldError(`"${namespace}" is not a valid namespace name`);
  const u = new URL(baseUrl);
  u.hostname = `${namespace}.${u.hostname}`;
  return u.origin;
}

/** The namespace a tenant's URL names on this sqld, or undefined when the URL is elsewhere. */
export function namespaceOf(baseUrl: string, dbUrl: string): string | undefined {
  let base: URL, url: URL;
  try {
    base = new URL(baseUrl);
    url = new URL(dbUrl);
  } catch {
    return undefined;
  }
  if (url.port !== base.port || url.protocol !== base.protocol) return undefined;
  const suffix = `.${base.hostname}`;
  if (!url.hostname.endsWith(suffix)) return undefined;
  const ns = url.hostname.slice(0, -suffix.length);
  return NAMESPACE_RE.test(ns) ? ns : undefined;
}

async function admin(cfg: SqldConfig, method: string, path: string, body?: unknown): Promise<Response> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (cfg.adminToken) headers.authorization = `basic ${cfg.adminToken}`;
  try {
    return await fetch(new URL(path, cfg.adminUrl), {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
  } catch (e) {
    throw new SqldError(
      `the libSQL server's admin API at ${cfg.adminUrl} does not answer (${(e as Error).message})`,
    );
  }
}

async function failure(res: Response, what: string): Promise<SqldError> {
  const text = await res.text();
  let detail = text;
  try {
    detail = JSON.parse(text).error ?? text;
  } catch { /* not JSON */ }
  if (res.status === 401) detail = "the admin API refused SQLD_ADMIN_TOKEN";
  return new SqldError(`${what}: ${detail || `HTTP ${res.status}`}`);
}

const b64url = (bytes: ArrayBuffer | Uint8Array) => Buffer.from(bytes as Uint8Array).toString("base64url");

/** A fresh key pair: the public half for the namespace, and one token for it signed with the private half. */
async function namespaceKey(namespace: string): Promise<{ jwtKey: string; token: string }> {
  const pair = await crypto.subtle.generateKey({ name: "Ed25519" }, false, [
    "sign",
    "verify",
  ]) as CryptoKeyPair;
  const jwtKey = b64url(await crypto.subtle.exportKey("raw", pair.publicKey));
  const json = (v: unknown) => b64url(new TextEncoder().encode(JSON.stringify(v)));
  // `p`: read and write on this namespace only; no `exp`: it lives as long as the namespace's key.
  const signing = `${json({ alg: "EdDSA", typ: "JWT" })}.${json({ p: { rw: { ns: [namespace] } } })}`;
  const signature = await crypto.subtle.sign("Ed25519", pair.privateKey, new TextEncoder().encode(signing));
  return { jwtKey, token: `${signing}.${b64url(signature)}` };
}

/** Creates an empty namespace that only its own token opens. A taken name is refused. */
export async function createNamespace(
  cfg: SqldConfig,
  namespace: string,
): Promise<{ url: string; token: string }> {
  const url = namespaceUrl(cfg.baseUrl, namespace);
  const { jwtKey, token } = await namespaceKey(namespace);
  // "strong" is SQLite's synchronous=FULL, as file tenants have: a 200 means on disk. sqld's default,
  // "relaxed" (NORMAL), can lose the last commits to a power cut.
  const res = await admin(cfg, "POST", `/v1/namespaces/${namespace}/create`, {
    jwt_key: jwtKey,
    durability_mode: "strong",
  });
  if (!res.ok) throw await failure(res, `could not create namespace "${namespace}"`);
  await res.body?.cancel();
  return { url, token };
}

export async function deleteNamespace(cfg: SqldConfig, namespace: string): Promise<void> {
  const res = await admin(cfg, "DELETE", `/v1/namespaces/${namespace}`);
  if (!res.ok) throw await failure(res, `could not delete namespace "${namespace}"`);
  await res.body?.cancel();
}

/**
 * `fetch` that connects to one address (`host:port`) whatever the URL's host, and sends the URL's host name in
 * the Host header (which the runtime's `fetch` would not send), so sqld still finds the namespace in it.
 * Connections are kept between requests by node:http's global agent, which in Deno 2 is a keep-alive agent
 * (`keepAlive: true`, lifo, an idle socket closed after 5 s; sqld's HTTP server closes none while idle):
 * 100 requests one after another to sqld went on one TCP connection (decision 062; the test counts them).
 */
export function addressFetch(address: { host: string; port?: number }) {
  return async (input: Request | string | URL, init?: RequestInit): Promise<Response> => {
    const req = new Request(input, init);
    const url = new URL(req.url);
    const body = req.body ? new Uint8Array(await req.arrayBuffer()) : undefined;
    const headers: Record<string, string> = Object.fromEntries(req.headers);
    headers.host = url.host;
    if (body) headers["content-length"] = String(body.length);
    return await new Promise<Response>((resolve, reject) => {
      const r = http.request({
        host: address.host,
        port: address.port ?? (url.port || 80),
        path: url.pathname + url.search,
        method: req.method,
        headers,
        signal: req.signal,
      }, (res) => {
        // Once the body is cancelled, the response's later events are ignored: a cancelled stream's
        // controller throws on `close`/`enqueue`, and that throw, in an event handler, was uncaught.
        let done = false;
        const stream = new ReadableStream<Uint8Array>({
          start(ctl) {
            res.on("data", (chunk: Uint8Array) => {
              if (!done) ctl.enqueue(new Uint8Array(chunk));
            });
            res.on("end", () => {
              if (!done) ctl.close();
              done = true;
            });
            res.on("error", (e) => {
              if (!done) ctl.error(e);
              done = true;
            });
          },
          cancel() {
            if (done) return;
            done = true;
            // A body not read to its end: the connection is closed rather than given back to the agent with
            // unread bytes on it. One read to its end is already back in the agent's pool.
            if (!res.complete) res.destroy();
          },
        });
        const h = new Headers();
        for (const [k, v] of Object.entries(res.headers)) {
          if (v !== undefined) h.set(k, Array.isArray(v) ? v.join(", ") : v);
        }
        const status = res.statusCode ?? 500;
        resolve(new Response(status === 204 || status === 304 ? null : stream, { status, headers: h }));
      });
      r.on("error", reject);
      r.end(body);
    });
  };
}

/**
 * `fetch` for URLs on `*.localhost`, which RFC 6761 reserves for loopback and browsers resolve so, but
 * this system's resolver does not: the request goes to 127.0.0.1 on the URL's port. Dev and test setups.
 */
export const loopbackFetch = addressFetch({ host: "127.0.0.1" });

/**
 * Where a network without wildcard DNS reaches sqld (`SQLD_ADDRESS`, e.g. `sqld:8080` in docker compose):
 * URLs whose host is SQLD_URL's host or a name under it (`acme.db.internal`) are sent to that address.
 */
export interface SqldRoute {
  /** SQLD_URL's host name: namespaces are `<namespace>.<name>` */
  name: string;
  host: string;
  port: number;
}

export function sqldRoute(baseUrl: string, address: string): SqldRoute {
  const i = address.lastIndexOf(":");
  return { name: new URL(baseUrl).hostname, host: address.slice(0, i), port: Number(address.slice(i + 1)) };
}

/** The fetch a libSQL client of `url` needs: to loopback, to the routed address, or the runtime's own. */
export function fetchFor(url: string, route?: SqldRoute) {
  if (isLoopbackName(url)) return loopbackFetch;
  if (!route || !/^https?:/.test(url)) return undefined;
  const host = new URL(url).hostname;
  return host === route.name || host.endsWith("." + route.name) ? addressFetch(route) : undefined;
}

export function isLoopbackName(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === "http:" && u.hostname.endsWith(".localhost");
  } catch {
    return false;
  }
}
