import { defineConfig } from "vite";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/** Every island file (ui/<area>/<feature>/islands/X.tsx) is its own entry: a page loads only its islands. */
function islandEntries(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) islandEntries(p, out);
    else if (/\/islands\/[^/]+\.tsx$/.test(p) && !p.endsWith("_test.tsx")) out.push(p);
  }
  return out;
}

export default defineConfig({
  publicDir: false,
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
