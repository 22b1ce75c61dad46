/**
 * The JavaScript a page makes the browser load, measured the bench's one way: the page's module scripts
 * and islands, then every static import of those files followed through dist/, each file gzip-compressed
 * on its own (level 6), and as the server sends it to a browser that takes brotli (the build's `.br` file,
 * quality 11). Dynamic imports (`import()`, dialogs loaded on demand) are not counted: they load when the
 * user opens one, not with the page (`onDemand` counts what one of them adds).
 *
 * `deno run -A scripts/bench/page_js.ts` lists every page; `--files` adds each page's files, and the
 * dialogs of the field pages (decision 050) with what they add when first opened.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { ROOT } from "../testing/server_process.ts";

export const DIST = join(ROOT, "dist");

export interface ManifestEntry {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}

export function readManifest(dist = DIST): Record<string, ManifestEntry> {
  return JSON.parse(readFileSync(join(dist, ".vite/manifest.json"), "utf8"));
}

/** Static imports of a built module (`import x from "./a.js"`, `import "./a.js"`, `export ... from`). */
export function staticImports(file: string, dist = DIST): string[] {
  const code = readFileSync(join(dist, file), "utf8");
  const out = new Set<string>();
  for (
    const m of code.matchAll(/(?:^|[;\s}])(?:import|export)\s*(?:[\w*{}\s,$]+from\s*)?["']([^"']+\.js)["']/g)
  ) {
    out.add(join(file, "..", m[1]).replace(/^\/+/, ""));
  }
  return [...out];
}

export interface PageJs {
  /** every file loaded at start, relative to dist/ */
  files: string[];
  gzipBytes: number;
  rawBytes: number;
  /** as sent to a browser that takes brotli: each file's `.br` from the build (its gzip where it has none) */
  brotliBytes: number;
}

/** One built file's sizes: raw, gzip (level 6) and as the server sends it with brotli. */
export function fileSizes(f: string, dist = DIST): { raw: number; gzip: number; brotli: number } {
  const b = readFileSync(join(dist, f));
  const gzip = gzipSync(b).byteLength;
  const br = join(dist, f + ".br");
  return { raw: b.byteLength, gzip, brotli: existsSync(br) ? readFileSync(br).byteLength : gzip };
}

/** The files `starts` (paths relative to dist/) load at start, and their gzip and raw sizes. */
export function jsOf(starts: string[], dist = DIST): PageJs {
  const seen = new Set<string>();
  const walk = (f: string) => {
    if (seen.has(f)) return;
    seen.add(f);
    for (const i of staticImports(f, dist)) walk(i);
  };
  for (const f of starts) walk(f);
  const files = [...seen];
  let gzipBytes = 0;
  let rawBytes = 0;
  let brotliBytes = 0;
  for (const f of files) {
    const s = fileSizes(f, dist);
    rawBytes += s.raw;
    gzipBytes += s.gzip;
    brotliBytes += s.brotli;
  }
  return { files, gzipBytes, rawBytes, brotliBytes };
}

/**
 * What opening a dialog loaded on demand (`src`, a module the page imports with `import()`) adds to what
 * the page already loaded (`loaded`: files relative to dist/): its chunk and every static import of it the
 * page does not have yet.
 */
export function onDemand(src: string, loaded: Iterable<string>, dist = DIST): PageJs {
  const entry = readManifest(dist)[src];
  if (!entry) throw new Error(`${src} is not in the manifest: is it still imported on demand?`);
  const have = new Set(loaded);
  const files = jsOf([entry.file], dist).files.filter((f) => !have.has(f));
  const sizes = files.map((f) => fileSizes(f, dist));
  const sum = (k: "raw" | "gzip" | "brotli") => sizes.reduce((a, s) => a + s[k], 0);
  return { files, rawBytes: sum("raw"), gzipBytes: sum("gzip"), brotliBytes: sum("brotli") };
}

/** The shell's islands on every signed-in page (ui/shell/Layout.tsx; PasswordReset only while a reset is due). */
export const SHELL_ISLANDS = [
  "ui/shell/islands/DrawerToggle.tsx",
  "ui/shell/islands/Snackbar.tsx",
  "ui/shell/islands/LoadingDialog.tsx",
  "ui/shell/islands/ScanOpen.tsx",
];

/**
 * Each page island's page as the server sends it, without a server: the client loader, the shell's
 * islands and the page's own island (one island per page, decision 018).
 */
export function pagesFromManifest(dist = DIST): { island: string; js: PageJs }[] {
  const manifest = readManifest(dist);
  return Object.values(manifest)
    .filter((e) => e.isEntry && /\/islands\//.test(e.src ?? "") && !e.src!.startsWith("ui/shell/"))
    .map((e) => ({ island: e.src!, js: pageJs(e.src!, dist) }))
    .sort((a, b) => b.js.gzipBytes - a.js.gzipBytes);
}

/** One page island's first load: the client, the shell's islands, the island, and their static imports. */
export function pageJs(island: string, dist = DIST): PageJs {
  const manifest = readManifest(dist);
  const file = (src: string) => manifest[src].file;
  return jsOf([file("ui/client.ts"), ...SHELL_ISLANDS.map(file), file(island)], dist);
}

/**
 * The field pages (issue 32) and the dialogs a field user opens first on them, loaded on demand: the
 * inspection forms and the batch scan on a job's inspections, the check-in scan on a ticket.
 */
export const FIELD_DIALOGS: Record<string, string[]> = {
  "ui/pt/jobs/islands/JobsTable.tsx": [],
  "ui/pt/inspections/islands/InspectionsTable.tsx": [
    "ui/pt/inspections/InspectionForm.tsx",
    "ui/pt/inspections/BatchForm.tsx",
    "ui/scan/ScanDialog.tsx",
  ],
  "ui/sales/tickets/detail/islands/TicketDetail.tsx": ["ui/scan/ScanDialog.tsx"],
};

/** At 400 kbit/s (the slow link of issue 32), the seconds `bytes` take on the wire alone. */
export const secondsAt400k = (bytes: number) => bytes / 50_000;

if (import.meta.main) {
  const kb = (b: number) => (b / 1024).toFixed(1) + " KB";
  const manifest = readManifest();
  const srcOf = new Map(Object.entries(manifest).map(([k, e]) => [e.file, e.src ?? k]));
  const detail = Deno.args.includes("--files");
  const line = (name: string, js: PageJs, pad = 52) =>
    `${name.padEnd(pad)} ${kb(js.gzipBytes).padStart(9)} gzip ${kb(js.brotliBytes).padStart(9)} br in ${
      String(js.files.length).padStart(2)
    } files (${kb(js.rawBytes)} raw, ${secondsAt400k(js.brotliBytes).toFixed(2)} s at 400 kbit/s)`;
  for (const { island, js } of pagesFromManifest()) {
    console.log(line(island, js));
    if (!detail || !(island in FIELD_DIALOGS)) continue;
    for (const f of js.files) {
      const s = fileSizes(f);
      console.log(
        `    ${f.padEnd(44)} ${kb(s.gzip).padStart(9)} gzip ${kb(s.brotli).padStart(9)} br  ${srcOf.get(f)}`,
      );
    }
    for (const d of FIELD_DIALOGS[island]) {
      console.log("  + " + line(`opening ${d}`, onDemand(d, js.files), 48));
    }
  }
}
