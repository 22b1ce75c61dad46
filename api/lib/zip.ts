import { inflateRawSync } from "node:zlib";

/**
 * A zip reader for untrusted uploads (xlsx). The central directory only says where the entries are: the
 * sizes it declares are not believed. Every entry is inflated with what is left of one byte budget as
 * its output limit, so a bomb (or a directory understating sizes) stops at the budget, not at the
 * machine's memory. Synchronous on purpose: callers run it inside a worker, off the request thread.
 */

export interface ZipLimits {
  /** The most entries a zip may hold. */
  maxEntries: number;
  /** The most bytes all entries may inflate to, added up. */
  maxInflated: number;
}

export interface ZipEntry {
  name: string;
  data: Uint8Array;
}

/** `unreadable`: not a zip, truncated, encrypted or an unknown method; `too_large`: over a limit. */
export class ZipError extends Error {
  constructor(readonly kind: "unreadable" | "too_large", message: string) {
    super(message);
  }
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const ZIP64_LOCATOR = 0x07064b50;
const MAX_COMMENT = 0xffff;

const unreadable = (why: string) => new ZipError("unreadable", why);
const tooLarge = (why: string) => new ZipError("too_large", why);

interface CentralEntry {
  name: string;
  flags: number;
  method: number;
  compressed: number;
  declared: number;
  localOffset: number;
}

/** The end-of-central-directory record's offset, searched backwards over the longest possible comment. */
function findEnd(view: DataView): number {
  for (let i = view.byteLength - 22; i >= Math.max(0, view.byteLength - 22 - MAX_COMMENT); i--) {
    if (view.getUint32(i, true) === EOCD) return i;
  }
  throw unreadable("no end of central directory");
}

/** The central directory's entries; zip64 (sizes or counts past 32/16 bits) is far beyond any upload. */
function centralEntries(d: Uint8Array, view: DataView, limits: ZipLimits): CentralEntry[] {
  const end = findEnd(view);
  if (end >= 20 && view.getUint32(end - 20, true) === ZIP64_LOCATOR) throw tooLarge("zip64");
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  if (count === 0xffff || at === 0xffffffff) throw tooLarge("zip64");
  if (count > limits.maxEntries) throw tooLarge(`more than ${limits.maxEntries} entries`);
  const names = new TextDecoder();
  const entries: CentralEntry[] = [];
  for (let n = 0; n < count; n++) {
    if (at + 46 > d.length || view.getUint32(at, true) !== CENTRAL) throw unreadable("bad central directory");
    const nameEnd = at + 46 + view.getUint16(at + 28, true);
    if (nameEnd > d.length) throw unreadable("bad central directory");
    const entry = {
      name: names.decode(d.subarray(at + 46, nameEnd)),
      flags: view.getUint16(at + 8, true),
      method: view.getUint16(at + 10, true),
      compressed: view.getUint32(at + 20, true),
      declared: view.getUint32(at + 24, true),
      localOffset: view.getUint32(at + 42, true),
    };
    if ([entry.compressed, entry.declared, entry.localOffset].includes(0xffffffff)) throw tooLarge("zip64");
    entries.push(entry);
    at = nameEnd + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  return entries;
}

/** The entry's compressed bytes: after its local header, as long as the central directory says. */
function compressedData(d: Uint8Array, view: DataView, e: CentralEntry): Uint8Array {
  const at = e.localOffset;
  if (at + 30 > d.length || view.getUint32(at, true) !== LOCAL) throw unreadable("bad local header");
  const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  if (start + e.compressed > d.length) throw unreadable("truncated");
  return d.subarray(start, start + e.compressed);
}

/** Inflates at most `budget` bytes (Node's zlib stops with ERR_BUFFER_TOO_LARGE right past the limit). */
function inflate(raw: Uint8Array, budget: number): Uint8Array {
  try {
    return new Uint8Array(inflateRawSync(raw, { maxOutputLength: Math.max(1, budget) }));
  } catch (e) {
    if ((e as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") throw tooLarge("inflates past the limit");
    throw unreadable("bad deflate data");
  }
}

/**
 * The entries of a zip, inflated. `keep` chooses whose bytes are answered (the others are still
 * inflated, to count them, then dropped). Throws ZipError.
 */
export function readZip(
  d: Uint8Array,
  limits: ZipLimits,
  keep: (name: string) => boolean = () => true,
): ZipEntry[] {
  const view = new DataView(d.buffer, d.byteOffset, d.byteLength);
  const entries = centralEntries(d, view, limits);
  // Cheap first: a directory that admits to too much is refused before any inflating.
  if (entries.reduce((n, e) => n + e.declared, 0) > limits.maxInflated) throw tooLarge("declared too large");
  const out: ZipEntry[] = [];
  let total = 0;
  let honest = true;
  for (const e of entries) {
    if (e.flags & 1) throw unreadable("encrypted");
    if (e.method !== 0 && e.method !== 8) throw unreadable(`compression method ${e.method}`);
    const raw = compressedData(d, view, e);
    const data = e.method === 0 ? raw : inflate(raw, limits.maxInflated - total);
    total += data.length;
    if (total > limits.maxInflated) throw tooLarge("inflates past the limit");
    honest &&= data.length === e.declared;
    if (keep(e.name)) out.push({ name: e.name, data });
  }
  // An honest writer states the real sizes; a mismatch within the budget is a damaged or crafted file.
  if (!honest) throw unreadable("sizes differ from the directory");
  return out;
}
