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
  /^(db\/|api\/middleware\/|api\/.*\/(service|routes)(\.ts|\/)|api\/lib\/(context|db_helpers|xlsx|pdf|zip)|api\/app\.ts)/;
/** Server-only packages, and the runtime's `node:` modules (the bundler stubs them: empty objects that fail). */
const SERVER_ONLY_PACKAGE = /^(drizzle-orm|@libsql\/|libsql|hono|pdfkit|pdf-lib|exceljs|jose)(\/|$)|^node:/;

Deno.test("import boundaries - islands never reach services, routes, the database, server-only packages or node: modules", () => {
  const islands = files("ui").filter((f) => /\/islands\/[^/]+\.tsx$/.test(f));
  assert.ok(islands.length >= 15, `found ${islands.length} islands`);
  const problems: string[] = [];
  for (const island of islands) {
    for (const [file, chain] of closure(island)) {
      if (SERVER_ONLY_PATH.test(file)) problems.push(chain.join(" -> "));
      for (const pkg of importsOf(file).bare) {
        if (SERVER_ONLY_PACKAGE.test(pkg)) problems.push(`${chain.join(" -> ")} imports ${pkg}`);
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
