/**
 * `npm start`'s asset build, skipped when nothing it is built from changed (issue 33): a SHA-256 of every
 * source file the browser's code can import (ui/, lib/, api/, db/ -- islands reach a few pure modules there),
 * the build's configuration and the lockfile is kept in dist/.build-inputs after a build; the next start
 * compares and builds only when it differs or dist/ is gone. `npm run build` and `npm test` always build.
 *
 *   ./node_modules/.bin/deno run -A scripts/build_once.ts [--force]
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { ROOT } from "./testing/server_process.ts";

const DIRS = ["ui", "lib", "api", "db"];
const FILES = ["vite.config.ts", "package-lock.json", "deno.json", "package.json"];
const STAMP = join(ROOT, "dist", ".build-inputs");

/** The hash of every input file's path and bytes, in a fixed order. */
export function inputsHash(root = ROOT): string {
  const files: string[] = FILES.map((f) => join(root, f)).filter((f) => existsSync(f));
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.(tsx?|css|svg|json|woff2?)$/.test(name) && !/_test\.tsx?$/.test(name)) files.push(p);
    }
  };
  for (const d of DIRS) if (existsSync(join(root, d))) walk(join(root, d));
  const hash = createHash("sha256");
  for (const f of files) {
    hash.update(relative(root, f)).update("\0").update(readFileSync(f)).update("\0");
  }
  return hash.digest("hex");
}

if (import.meta.main) {
  const t0 = performance.now();
  const hash = inputsHash();
  const kept = existsSync(STAMP) ? readFileSync(STAMP, "utf8").trim() : "";
  if (
    !Deno.args.includes("--force") && kept === hash &&
    existsSync(join(ROOT, "dist", ".vite", "manifest.json"))
  ) {
    console.log(`assets up to date (dist/, checked in ${Math.round(performance.now() - t0)} ms)`);
  } else {
    console.log("building the assets (vite build)");
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["task", "build"],
      cwd: ROOT,
      stdout: "inherit",
      stderr: "inherit",
    }).output();
    if (!out.success) Deno.exit(out.code || 1);
    writeFileSync(STAMP, hash + "\n");
  }
}
