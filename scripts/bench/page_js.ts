/**
 * The JavaScript a page makes the browser load, measured the bench's one way: the page's module scripts
 * and islands, then every static import of those files followed through dist/, each file gzip-compressed
 * on its own (level 6). Dynamic imports (`import()`, dialogs loaded on demand) are not counted: they load
 * when the user opens one, not with the page.
 */
import { readFileSync } from "node:fs";
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
  for (const f of files) {
    const b = readFileSync(join(dist, f));
    rawBytes += b.byteLength;
    gzipBytes += gzipSync(b).byteLength;
  }
  return { files, gzipBytes, rawBytes };
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
  const file = (src: string) => manifest[src].file;
  const shell = SHELL_ISLANDS.map(file);
  return Object.values(manifest)
    .filter((e) => e.isEntry && /\/islands\//.test(e.src ?? "") && !e.src!.startsWith("ui/shell/"))
    .map((e) => ({ island: e.src!, js: jsOf([file("ui/client.ts"), ...shell, e.file], dist) }))
    .sort((a, b) => b.js.gzipBytes - a.js.gzipBytes);
}

if (import.meta.main) {
  const kb = (b: number) => (b / 1024).toFixed(1) + " KB";
  for (const { island, js } of pagesFromManifest()) {
    console.log(
      `${island.padEnd(52)} ${kb(js.gzipBytes).padStart(9)} gzip in ${
        String(js.files.length).padStart(2)
      } files (${kb(js.rawBytes)} raw)`,
    );
  }
}
