import { readFileSync } from "node:fs";
import { fileURLToPath as fromFileUrl } from "node:url";

interface ManifestEntry {
  file: string;
  css?: string[];
  imports?: string[];
}

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

  get client() {
    return this.url("ui/client.ts");
  }

  get stylesheet() {
    return this.url("ui/styles.css");
  }
}
