/**
 * The address a request came from, for the sign-in throttle (decision 041): the socket's peer, or, when that
 * peer is one of the proxies `TRUST_PROXY` names, the client its `X-Forwarded-For` names (decision 054).
 *
 * `X-Forwarded-For` is a list each proxy appends its own peer to, so only its right end can be believed: the
 * list is read from the right, every address a trusted proxy wrote is passed over, and the first one that is
 * not a trusted proxy is the client. Anything a client wrote further left is ignored (a client cannot choose
 * its address by sending the header), and a malformed entry ends the walk at the last address believed.
 */

/** An IPv4 or IPv6 network: its first address and prefix length, as 128-bit numbers (IPv4 mapped). */
interface Network {
  base: bigint;
  bits: number;
}

/** Trusted proxies, parsed from `TRUST_PROXY`. */
export interface TrustedProxies {
  /** the setting as given, for messages */
  text: string;
  networks: Network[];
}

const V4_MAPPED = 0xffffn << 32n;

/** An address as a 128-bit number (an IPv4 address as its IPv4-mapped IPv6 form), or undefined if malformed. */
export function addressNumber(text: string): bigint | undefined {
  let s = text.trim();
  if (s.startsWith("[") && s.endsWith("]")) s = s.slice(1, -1);
  const zone = s.indexOf("%");
  if (zone >= 0) s = s.slice(0, zone);
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(s)) return v4(s);
  if (!/^[0-9a-f:.]+$/i.test(s) || !s.includes(":")) return undefined;
  // A trailing dotted IPv4 part (::ffff:192.0.2.1) counts as two groups.
  let tail: bigint | undefined;
  const lastColon = s.lastIndexOf(":");
  if (s.slice(lastColon + 1).includes(".")) {
    tail = v4(s.slice(lastColon + 1));
    if (tail === undefined) return undefined;
    s = s.slice(0, lastColon + 1) + "0:0";
  }
  const halves = s.split("::");
  if (halves.length > 2) return undefined;
  const groups = (h: string) => (h === "" ? [] : h.split(":"));
  const head = groups(halves[0]);
  const rest = halves.length === 2 ? groups(halves[1]) : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const all = [...head, ...Array(halves.length === 2 ? missing : 0).fill("0"), ...rest];
  let n = 0n;
  for (const g of all) {
    if (!/^[0-9a-f]{1,4}$/i.test(g)) return undefined;
    n = (n << 16n) | BigInt(parseInt(g, 16));
  }
  if (tail !== undefined) n = (n & ~0xffffffffn) | (tail & 0xffffffffn);
  return n;
}

function v4(s: string): bigint | undefined {
  const parts = s.split(".").map(Number);
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p > 255)) return undefined;
  return V4_MAPPED | BigInt(((parts[0] << 24) >>> 0) + (parts[1] << 16) + (parts[2] << 8) + parts[3]);
}

/**
 * `TRUST_PROXY`: addresses or networks (CIDR), separated by commas or spaces; empty: no proxy is trusted.
 * Throws with a sentence naming the entry that is not one.
 */
export function parseTrustedProxies(text: string | undefined): TrustedProxies {
  const networks: Network[] = [];
  for (const entry of (text ?? "").split(/[\s,]+/).filter(Boolean)) {
    const [addr, prefix, extra] = entry.split("/");
    const n = addressNumber(addr);
    const isV4 = /^\d/.test(addr) && !addr.includes(":");
    const max = isV4 ? 32 : 128;
    const length = prefix === undefined ? max : /^\d{1,3}$/.test(prefix) ? Number(prefix) : NaN;
    if (n === undefined || extra !== undefined || !(length >= 0 && length <= max)) {
      throw new Error(
        `TRUST_PROXY: "${entry}" is not an address or network (e.g. 10.0.0.5, 172.16.0.0/12, fd00::/8)`,
      );
    }
    const bits = isV4 ? 96 + length : length;
    networks.push({ base: n & mask(bits), bits });
  }
  return { text: text ?? "", networks };
}

const mask = (bits: number) => bits === 0 ? 0n : ((1n << 128n) - 1n) ^ ((1n << BigInt(128 - bits)) - 1n);

/** Whether the address is one of the trusted proxies. */
export function isTrusted(trusted: TrustedProxies, address: string): boolean {
  const n = addressNumber(address);
  return n !== undefined && trusted.networks.some((w) => (n & mask(w.bits)) === w.base);
}

/**
 * The client's address: `peer` (the socket's), or when `peer` is a trusted proxy, the right-most address of
 * `forwardedFor` that is not one (each trusted hop passed over). Without a peer (a request made in the
 * process, as tests do), the first address of `forwardedFor`.
 */
export function clientAddressOf(
  trusted: TrustedProxies,
  peer: string | undefined,
  forwardedFor: string | undefined,
): string {
  const hops = (forwardedFor ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  if (peer === undefined) return hops[0] ?? "unknown";
  let client = peer;
  while (isTrusted(trusted, client) && hops.length) {
    const next = hops.pop()!;
    if (addressNumber(next) === undefined) break;
    client = next;
  }
  return client;
}
