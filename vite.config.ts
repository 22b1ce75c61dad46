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

/** React's own modules (react, jsx-runtime, react-dom and its client): one chunk, on every page. */
const REACT = /node_modules[\\/](react|react-dom|scheduler)[\\/]/;
/** Vite's helper for `import()` with preloads, which every page's dialogs use. */
const PRELOAD_HELPER = /vite[\\/]preload-helper/;
/** A light module at most this large (transformed source, comments gone) may go to the shared chunk. */
const LIGHT_MAX_BYTES = 20_000;
/** ... if at least this many islands load it, or the client (every page) does. */
const LIGHT_MIN_ISLANDS = 8;

type ModuleInfoOf = (id: string) => {
  code: string | null;
  importers: string[];
  importedIds: string[];
  isEntry: boolean;
} | null;

/**
 * The shared chunk ("common"): the small app modules (ui/, lib/; not islands) that import only React and
 * other such modules, loaded by the client or by many islands. Without it every one of them is a file of
 * its own (the bundler's automatic chunks follow which entries share a module), and a page loaded 19-27
 * files over six connections; taking only light modules keeps heavy libraries (react-aria) out of pages
 * that do not use them, as a module's imports load wherever it goes.
 *
 * The chunk takes its modules without their imports (`includeDependenciesRecursively: false`), which could
 * reorder execution or make chunks import each other in a circle; neither can happen here, as the set is
 * closed under imports: a light module imports only React and light modules, and every entry that loads
 * a module loads its imports, so they qualify too. Checked by scripts/bench/page_js_test.ts.
 */
function sharedChunks() {
  const light = new Map<string, boolean>();
  const reach = new Map<string, Set<string>>();
  /** The entries that load `id` statically (through any chain of static imports). */
  const entriesOf = (id: string, info: ModuleInfoOf): Set<string> => {
    const known = reach.get(id);
    if (known) return known;
    const out = new Set<string>();
    reach.set(id, out); // a cycle adds nothing new
    const m = info(id);
    if (m?.isEntry) out.add(id);
    for (const i of m?.importers ?? []) for (const e of entriesOf(i, info)) out.add(e);
    return out;
  };
  const isLight = (id: string, info: ModuleInfoOf): boolean => {
    const known = light.get(id);
    if (known !== undefined) return known;
    light.set(id, false); // a cycle counts as heavy
    const m = info(id);
    const ok = !!m && !m.isEntry && !id.includes("node_modules") && !id.startsWith("\0") &&
      /\.(ts|tsx)$/.test(id) && (m.code?.length ?? Infinity) <= LIGHT_MAX_BYTES &&
      m.importedIds.every((d) => REACT.test(d) || isLight(d, info));
    light.set(id, ok);
    return ok;
  };
  return (id: string, ctx: { getModuleInfo: ModuleInfoOf }): string | null => {
    const info = (m: string) => ctx.getModuleInfo(m);
    if (REACT.test(id)) return "react";
    if (PRELOAD_HELPER.test(id)) return "common";
    if (!isLight(id, info)) return null;
    const entries = [...entriesOf(id, info)];
    const islands = entries.filter((e) => /[\\/]islands[\\/]/.test(e)).length;
    return islands >= LIGHT_MIN_ISLANDS || entries.some((e) => /ui[\\/]client\.ts$/.test(e))
      ? "common"
      : null;
  };
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
      // "allow-extension" with includeDependenciesRecursively false: the shared chunk takes a module without
      // its imports (they stay where they are), which rolldown allows only where entries may gain exports.
      preserveEntrySignatures: "allow-extension",
      output: {
        codeSplitting: {
          groups: [{
            name: sharedChunks(),
            debugName: "react and common",
            includeDependenciesRecursively: false,
          }],
        },
      },
    },
  },
});
