/**
 * The layers' import boundaries (docs/architecture.md), checked on the source: islands never reach services,
 * routes or the database (nothing server-only may end up in the browser's bundle); db never imports api or ui;
 * lib (shared by all) imports none of them.
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = normalize(join(dirname(fileURLToPath(import.meta.url)), ".."));
const IMPORT =
  /(?:^|\n)\s*((?:import|export)\s[^;]*?)from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

/** `import type ...` and `import { type A, type B }` are erased by the compiler: nothing of them runs. */
function typeOnly(clause: string | undefined): boolean {
  if (!clause) return false;
  if (/^(import|export)\s+type\s/.test(clause.trim())) return true;
  const names = /\{([^}]*)\}/.exec(clause);
  if (!names || /^(import|export)\s+\w+\s*,/.test(clause.trim())) return false;
  const parts = names[1].split(",").map((x) => x.trim()).filter(Boolean);
  return parts.length > 0 && parts.every((x) => x.startsWith("type "));
}

function files(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(join(ROOT, dir))) {
    const p = join(dir, name);
    if (statSync(join(ROOT, p)).isDirectory()) files(p, out);
    else if (/\.(ts|tsx)$/.test(name)) out.push(p);
  }
  return out;
}

/** A file's imports: relative ones resolved to repository paths, bare ones as written. */
function importsOf(file: string): { local: string[]; bare: string[] } {
  const src = readFileSync(join(ROOT, file), "utf8");
  const local: string[] = [], bare: string[] = [];
  for (const m of src.matchAll(IMPORT)) {
    if (typeOnly(m[1])) continue;
    const spec = m[2] ?? m[3];
    if (spec.startsWith(".")) {
      const p = relative(ROOT, join(ROOT, dirname(file), spec));
      if (existsSync(join(ROOT, p))) local.push(p);
    } else bare.push(spec);
  }
  return { local, bare };
}

/** Every file reachable from `start`, with the chain that reached it. */
function closure(start: string): Map<string, string[]> {
  const seen = new Map<string, string[]>([[start, [start]]]);
  const todo = [start];
  while (todo.length) {
    const f = todo.pop()!;
    for (const next of importsOf(f).local) {
      if (seen.has(next)) continue;
      seen.set(next, [...seen.get(f)!, next]);
      todo.push(next);
    }
  }
  return seen;
}

const SERVER_ONLY_PATH =
  /^(db\/|api\/middleware\/|api\/.*\/(service|routes)(\.ts|\/)|api\/lib\/(context|db_helpers|xlsx|pdf|zip|validator)|api\/app\.ts)/;
/**
 * Every package of package.json's dependencies, sorted into the two sides, each with its reason. A package
 * added to package.json and named in neither list fails the test below, so a new server package cannot reach
 * the browser unnoticed. An island may import only `BROWSER` packages; everything else, the `node:` modules
 * (the bundler stubs them: empty objects that fail) and any package not in package.json is refused.
 */
const BROWSER: Record<string, string> = {
  "react": "the islands' renderer",
  "react-dom": "hydration (react-dom/client)",
  "react-aria-components": "dialogs, menus, selects and comboboxes (decision 022)",
  "@tanstack/react-table": "the lists' tables",
  "zod": "the schemas shared by the forms and the routes",
  "qr": "the scan dialog decodes QR codes from the camera (qr/decode.js); the server draws labels with it",
};
const SERVER_ONLY: Record<string, string> = {
  "@hono/zod-validator": "hono's validation middleware (api/lib/validator.ts)",
  "hono": "the HTTP server, routes and middleware",
  "@libsql/client": "the database client (db/)",
  "@libsql/core": "the database client's errors and config (db/)",
  "@libsql/hrana-client": "a remote database's protocol (db/pipelined_client.ts)",
  "drizzle-orm": "queries (db/, services)",
  "exceljs": "spreadsheet downloads and uploads",
  "jose": "signed tokens (api/auth/); its key is the server's secret",
  "jpeg-js": "photos turned upright on the server (api/lib/image_orient.ts)",
  "pdf-lib": "PDF merging (a worker)",
  "pdfkit": "PDFs drawn on the server",
  "svg-to-pdfkit": "logos drawn into PDFs",
};

/** `@scope/name/sub` -> `@scope/name`, `name/sub` -> `name`. */
const packageOf = (spec: string) => spec.split("/").slice(0, spec.startsWith("@") ? 2 : 1).join("/");

Deno.test("import boundaries - every dependency in package.json is sorted as browser or server-only", () => {
  const deps = Object.keys(JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).dependencies);
  const sorted = [...Object.keys(BROWSER), ...Object.keys(SERVER_ONLY)];
  assert.deepEqual(deps.filter((d) => !sorted.includes(d)), [], "add each to BROWSER or SERVER_ONLY");
  assert.deepEqual(sorted.filter((d) => !deps.includes(d)), [], "gone from package.json");
  assert.deepEqual(Object.keys(BROWSER).filter((d) => d in SERVER_ONLY), []);
});

Deno.test("import boundaries - the package rule refuses what the build would ship by mistake", () => {
  for (
    const spec of ["@hono/zod-validator", "hono/validator", "@libsql/core/api", "drizzle-orm/sqlite-core"]
  ) {
    assert.equal(browserPackage(spec), false, spec);
  }
  for (const spec of ["node:fs", "left-pad"]) assert.equal(browserPackage(spec), false, spec);
  for (const spec of ["react/jsx-runtime", "react-dom/client", "qr/decode.js", "zod"]) {
    assert.equal(browserPackage(spec), true, spec);
  }
});

function browserPackage(spec: string): boolean {
  return !spec.startsWith("node:") && packageOf(spec) in BROWSER;
}

Deno.test("import boundaries - islands never reach services, routes, the database, server-only packages or node: modules", () => {
  const islands = files("ui").filter((f) => /\/islands\/[^/]+\.tsx$/.test(f));
  assert.ok(islands.length >= 15, `found ${islands.length} islands`);
  const problems: string[] = [];
  for (const island of islands) {
    for (const [file, chain] of closure(island)) {
      if (SERVER_ONLY_PATH.test(file)) problems.push(chain.join(" -> "));
      for (const pkg of importsOf(file).bare) {
        if (!browserPackage(pkg)) problems.push(`${chain.join(" -> ")} imports ${pkg}`);
      }
    }
  }
  assert.deepEqual([...new Set(problems)], []);
});

Deno.test("import boundaries - db imports neither api nor ui; lib imports none of api, ui and db", () => {
  const problems: string[] = [];
  const code = (dir: string) => files(dir).filter((f) => !f.endsWith("_test.ts"));
  for (const f of code("db")) {
    for (const i of importsOf(f).local) if (/^(api|ui)\//.test(i)) problems.push(`${f} -> ${i}`);
  }
  for (const f of code("lib")) {
    for (const i of importsOf(f).local) if (/^(api|ui|db)\//.test(i)) problems.push(`${f} -> ${i}`);
  }
  assert.deepEqual(problems, []);
});
