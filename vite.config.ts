import { defineConfig, type Plugin } from "vite";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

/** Every island file (ui/<area>/<feature>/islands/X.tsx) is its own entry: a page loads only its islands. */
function islandEntries(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) islandEntries(p, out);
    else if (/\/islands\/[^/]+\.tsx$/.test(p) && !p.endsWith("_test.tsx")) out.push(p);
  }
  return out;
}

/**
 * Each script and stylesheet also written brotli-compressed (`.br`, quality 11) and gzipped (`.gz`, level 9):
 * the server sends the smallest one the browser accepts as it is (api/static_assets.ts).
 */
function precompressed(): Plugin {
  return {
    name: "precompressed",
    apply: "build",
    writeBundle(options, bundle) {
      for (const name of Object.keys(bundle)) {
        if (!/\.(js|css)$/.test(name)) continue;
        const path = join(options.dir ?? "dist", name);
        const bytes = readFileSync(path);
        writeFileSync(
          path + ".br",
          brotliCompressSync(bytes, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: 11,
              [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
            },
          }),
        );
        writeFileSync(path + ".gz", gzipSync(bytes, { level: 9 }));
      }
    },
  };
}

export default defineConfig({
  publicDir: false,
  plugins: [precompressed()],
  oxc: { jsx: { runtime: "automatic", importSource: "react" } },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    manifest: true,
    target: "es2022",
    rollupOptions: {
      // The service worker is an entry of its own, served as /sw.js (api/app.ts).
      input: ["ui/client.ts", "ui/styles.css", "ui/offline/sw.ts", ...islandEntries("ui")],
      preserveEntrySignatures: "exports-only",
    },
  },
});
