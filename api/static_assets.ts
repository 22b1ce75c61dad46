/**
 * The built browser assets (`/assets/*`): hashed file names, so cached for a year and never revalidated.
 *
 * The build writes each script and stylesheet also brotli-compressed (`.br`, quality 11) and gzipped (`.gz`,
 * level 9) (vite.config.ts). The smallest one the browser accepts is sent as it is: brotli is 13% smaller
 * than gzip on a page's scripts (90 KB against 103 KB for Sales Data), which on the slow link of issue 10
 * (400 kbit/s) is a quarter of a second of a cold load, and nothing is compressed per request (measured in
 * commit c095df5; the pages' bytes today: decision 050).
 *
 * Files are read once and kept (the whole build is about 2 MB with its compressed copies; a bound keeps a
 * stray build from holding more). Only names of the build's own shape are looked up, never a path.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Context } from "hono";

const TYPES: Record<string, string> = {
  js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  svg: "image/svg+xml",
  png: "image/png",
  woff2: "font/woff2",
  wasm: "application/wasm",
  json: "application/json; charset=utf-8",
};

/** The encodings written by the build, best first, with their files' suffixes. */
const ENCODINGS = [["br", ".br"], ["gzip", ".gz"]] as const;

/** A kept file: its bytes, or null for one the build does not have. */
type Kept = Uint8Array | null;

const KEEP_BYTES = 32 * 1024 * 1024;

export class StaticAssets {
  private kept = new Map<string, Kept>();
  private keptBytes = 0;

  constructor(private readonly dir: string) {}

  private async file(name: string): Promise<Kept> {
    const cached = this.kept.get(name);
    if (cached !== undefined) return cached;
    let bytes: Kept;
    try {
      bytes = new Uint8Array(await readFile(join(this.dir, name)));
    } catch {
      bytes = null;
    }
    const size = bytes?.byteLength ?? 0;
    if (this.keptBytes + size <= KEEP_BYTES && this.kept.size < 10_000) {
      this.kept.set(name, bytes);
      this.keptBytes += size;
    }
    return bytes;
  }

  /** The response for /assets/<name>, or null when there is no such asset. */
  async respond(c: Context, name: string): Promise<Response | null> {
    // The build's names: letters, digits, `_`, `-`, dots; no directories.
    if (!/^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/.test(name) || name.includes("..")) return null;
    const ext = name.slice(name.lastIndexOf(".") + 1);
    const type = TYPES[ext];
    if (!type) return null;
    const plain = await this.file(name);
    if (!plain) return null;
    const accepted = acceptedEncodings(c.req.header("accept-encoding"));
    let body = plain;
    let encoding: string | undefined;
    for (const [enc, suffix] of ENCODINGS) {
      if (!accepted.has(enc)) continue;
      const packed = await this.file(name + suffix);
      if (packed) {
        body = packed;
        encoding = enc;
        break;
      }
    }
    const headers: Record<string, string> = {
      "Content-Type": type,
      "Cache-Control": "public, max-age=31536000, immutable",
      "Vary": "Accept-Encoding",
      "Content-Length": String(body.byteLength),
    };
    if (encoding) headers["Content-Encoding"] = encoding;
    return new Response(c.req.method === "HEAD" ? null : body as Uint8Array<ArrayBuffer>, { headers });
  }
}

/** The encodings an Accept-Encoding header allows (q > 0). */
export function acceptedEncodings(header: string | undefined): Set<string> {
  const out = new Set<string>();
  for (const part of (header ?? "").split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    if (q && !(Number(q.slice(2)) > 0)) continue;
    out.add(name);
  }
  return out;
}
