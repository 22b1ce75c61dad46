import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { fileURLToPath as fromFileUrl } from "node:url";

interface ManifestEntry {
  file: string;
  css?: string[];
  imports?: string[];
  dynamicImports?: string[];
}

/** What the offline page loads: the client, the stylesheet, the shell's islands and the job's table. */
export const OFFLINE_ENTRIES = [
  "ui/client.ts",
  "ui/styles.css",
  "ui/shell/islands/DrawerToggle.tsx",
  "ui/shell/islands/Snackbar.tsx",
  "ui/shell/islands/LoadingDialog.tsx",
  "ui/shell/islands/PasswordReset.tsx",
  "ui/pt/inspections/islands/InspectionsTable.tsx",
];

/** Hashed asset URLs from Vite's manifest (`npm run build`, run by `npm start` and `npm test`). */
export class Assets {
  readonly dir: string;
  private loaded?: Record<string, ManifestEntry>;

  constructor(distDir = fromFileUrl(new URL("../dist", import.meta.url))) {
    this.dir = distDir;
  }

  /** Read on first use, so the API serves even where the pages' assets were never built. */
  private get manifest(): Record<string, ManifestEntry> {
    if (!this.loaded) {
      try {
        this.loaded = JSON.parse(readFileSync(`${this.dir}/.vite/manifest.json`, "utf8"));
      } catch {
        throw new Error(`No built assets in ${this.dir}: run \`npm run build\` first.`);
      }
    }
    return this.loaded!;
  }

  private entry(src: string): ManifestEntry {
    const e = this.manifest[src];
    if (!e) throw new Error(`${src} is not in the asset manifest: run \`npm run build\` again.`);
    return e;
  }

  url(src: string): string {
    return "/" + this.entry(src).file;
  }

  /** Chunks an entry imports, to preload alongside it. */
  imports(src: string): string[] {
    const seen = new Set<string>();
    const walk = (key: string) => {
      for (const i of this.manifest[key]?.imports ?? []) {
        if (!seen.has(i)) {
          seen.add(i);
          walk(i);
        }
      }
    };
    walk(src);
    return [...seen].map((k) => "/" + this.manifest[k].file);
  }

  /** Every file `srcs` may load, now or when a dialog opens: static and dynamic imports, and CSS. */
  closure(srcs: string[]): string[] {
    const files = new Set<string>();
    const seen = new Set<string>();
    const walk = (key: string) => {
      const e = this.manifest[key];
      if (!e || seen.has(key)) return;
      seen.add(key);
      files.add("/" + e.file);
      for (const c of e.css ?? []) files.add("/" + c);
      for (const i of [...(e.imports ?? []), ...(e.dynamicImports ?? [])]) walk(i);
    };
    for (const src of srcs) walk(this.entry(src) && src);
    return [...files];
  }

  private worker?: string;

  /**
   * /sw.js: the built worker (ui/offline/sw.ts) after the files it caches at install and a version
   * that changes with them, so a new build installs a new worker.
   */
  serviceWorker(): string {
    if (!this.worker) {
      const precache = this.closure(OFFLINE_ENTRIES);
      const code = readFileSync(`${this.dir}/${this.entry("ui/offline/sw.ts").file}`, "utf8");
      const version = createHash("sha256").update(JSON.stringify(precache)).digest("hex").slice(0, 16);
      this.worker = `const PRECACHE = ${JSON.stringify(precache)};\nconst VERSION = ${
        JSON.stringify(version)
      };\n${code}`;
    }
    return this.worker;
  }

  get client() {
    return this.url("ui/client.ts");
  }

  get stylesheet() {
    return this.url("ui/styles.css");
  }

  private css?: string;

  /**
   * The stylesheet's text, for the page's first response (ui/document.tsx): a linked stylesheet shares
   * the slow link with the page's scripts and the page paints only once it has come (decision 050).
   */
  get styles(): string {
    if (this.css === undefined) {
      const text = readFileSync(`${this.dir}/${this.entry("ui/styles.css").file}`, "utf8");
      // Inside <style> only "</style" could end it early; the build's CSS never has it, but a stray one must
      // not cut the page: escaped, it is still the same CSS (`\3c` is "<" in a CSS string or identifier).
      this.css = text.replace(/<\/(style)/gi, "\\3c /$1");
    }
    return this.css;
  }
}
