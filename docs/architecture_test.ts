/**
 * The documents kept true with the tree (issue 34, point 4):
 * - docs/architecture.md names every room of the tree (each top folder, each folder under api/, db/, ui/,
 *   scripts/, docs/, and each feature under api/{admin,pt,sales} and ui/{admin,pt,sales}) and no room that is
 *   gone;
 * - every decision record opens with its status, and a record that amends or supersedes another is linked
 *   from that other's status too (both ways), by relative links that resolve; a record's parts link it and it
 *   links them; no record is longer than MAX_LINES;
 * - every repository path a decision record, docs/*.md or the README cites exists in the tree, so a figure's
 *   evidence is something a reader can run. Scratch scripts under .cache/ (gitignored) are not evidence.
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = normalize(join(dirname(fileURLToPath(import.meta.url)), ".."));
const DECISIONS = join(ROOT, "docs/decisions");
/** A record's decision stays short; detail goes to a part (`043a-...`) or an appendix it links. */
const MAX_LINES = 160;

/** Folders of the working tree that are not the repository's (.gitignore), when git cannot say. */
const NOT_THE_REPOSITORY = new Set([
  ".git",
  ".cache",
  "node_modules",
  "dist",
  "data",
  "test-results",
  "secrets",
  "scripts/tmp",
]);

/** `.cache/` holds what the tests and the bench make (gitignored); citing these as places is fine. */
const GENERATED = ["/.cache/bench/", "/.cache/sqld/", "/.cache/review/"];

/**
 * Paths a record names as what was there before (or in another repository), not as evidence. Each must stay
 * absent from the tree and still be named, so the list cannot go stale.
 */
const NAMED_AS_GONE: Record<string, string> = {
  "api/sales/sales/": "014: the ticket lines' folder before they were named `lines`",
  "api/sales/checkin/": "014: the same",
  "api/sales/reclass/": "014: the same",
  "api/sales/transfers/": "014: the same",
  "ui/lib/format.ts": "015: what lib/format.ts replaced",
  "api/lib/permissions.ts": "017: the role table lib/policy.ts replaced",
  "api/sales/access.ts": "017: the Sales gate lib/policy.ts replaced",
  "docs/DOCKER.md": "053: a file of the sqld image's own repository (tursodatabase/libsql)",
  "ui/sales/ticket/": "061: the ticket screen's folder before it moved to ui/sales/tickets/detail/",
};

/**
 * The repository's files: what git tracks or would add (ignored files aside), as they are in the working
 * tree; without git, every file outside NOT_THE_REPOSITORY.
 */
function repositoryFiles(): string[] {
  try {
    const out = new Deno.Command("git", {
      args: ["ls-files", "-z", "--cached", "--others", "--exclude-standard"],
      cwd: ROOT,
      stdout: "piped",
      stderr: "null",
    }).outputSync();
    if (out.success) {
      return new TextDecoder().decode(out.stdout).split("\0").filter((f) => f && existsSync(join(ROOT, f)));
    }
  } catch {
    // no git: walk the tree below
  }
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(join(ROOT, dir))) {
      const p = dir ? `${dir}/${name}` : name;
      if (NOT_THE_REPOSITORY.has(p)) continue;
      if (statSync(join(ROOT, p)).isDirectory()) walk(p);
      else files.push(p);
    }
  };
  walk("");
  return files;
}

const FOLDERS = new Set(
  repositoryFiles().flatMap((f) =>
    f.split("/").slice(0, -1).map((_, i, parts) => parts.slice(0, i + 1).join("/"))
  ),
);

function foldersIn(dir: string): string[] {
  const depth = dir ? dir.split("/").length + 1 : 1;
  return [...FOLDERS]
    .filter((f) => f.split("/").length === depth && (dir === "" || f.startsWith(dir + "/")))
    .sort();
}

/** The rooms docs/architecture.md must name, as `path/`. */
function rooms(): string[] {
  const out: string[] = [];
  for (const top of foldersIn("")) {
    out.push(top);
    if (["api", "db", "ui", "scripts", "docs", "lib"].includes(top)) {
      for (const second of foldersIn(top)) {
        out.push(second);
        if (/^(api|ui)\/(admin|pt|sales)$/.test(second)) out.push(...foldersIn(second));
      }
    }
  }
  return out;
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** `path/` written as a name of its own: not the end of a longer path. */
function names(text: string, room: string): boolean {
  return new RegExp(`(?<![\\w./-])${escape(room)}/`).test(text);
}

const ARCHITECTURE = readFileSync(join(ROOT, "docs/architecture.md"), "utf8");

Deno.test("architecture - docs/architecture.md names every room of the tree", () => {
  const all = rooms();
  assert.ok(all.includes("api/sales/lines") && all.includes("ui/sales/tickets"), all.join(", "));
  const missing = all.filter((room) => !names(ARCHITECTURE, room)).map((room) => `${room}/`);
  assert.deepEqual(missing, [], "rooms of the tree that docs/architecture.md does not name");
});

Deno.test("architecture - docs/architecture.md names no folder or file that is gone", () => {
  assert.ok(!/[\w-]\/\{/.test(ARCHITECTURE), "spell folders out, not as {a,b} groups, so each is checked");
  const gone: string[] = [];
  for (
    const m of ARCHITECTURE.matchAll(/(?<![\w./@-])((?:\.ci|api|db|lib|ui|scripts|docs)(?:\/[\w.-]+)*\/?)/g)
  ) {
    const path = m[1].replace(/[.]+$/, "");
    if (!existsSync(join(ROOT, path))) gone.push(path);
  }
  assert.deepEqual([...new Set(gone)], []);
});

interface DecisionRecord {
  file: string;
  code: string;
  main: string;
  text: string;
  status: string;
}

function records(): DecisionRecord[] {
  return readdirSync(DECISIONS)
    .filter((f) => /^\d{3}[a-z]?-.+\.md$/.test(f))
    .sort()
    .map((file) => {
      const text = readFileSync(join(DECISIONS, file), "utf8");
      const m = /^# [^\n]+\n\n(Status: [\s\S]*?)(?:\n\n|\n?$)/.exec(text);
      const code = /^(\d{3}[a-z]?)/.exec(file)![1];
      return { file, code, main: code.slice(0, 3), text, status: m?.[1] ?? "" };
    });
}

/** The records a text links to, by code; every link must resolve to a record file. */
function links(text: string, from: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(/\[(\d{3}[a-z]?)\]\(([^)#]+)(#[^)]*)?\)/g)) {
    assert.ok(
      m[2].startsWith(m[1]) && existsSync(join(DECISIONS, m[2])),
      `${from}: [${m[1]}](${m[2]}) names no record`,
    );
    out.add(m[1]);
  }
  return out;
}

Deno.test("decisions - every record opens with its status", () => {
  const all = records();
  assert.ok(all.length >= 57, `found ${all.length} records`);
  const problems: string[] = [];
  for (const r of all) {
    const part = r.code.length > 3;
    const first = part
      ? /^Status: (part|appendix) of \[\d{3}\]/
      : /^Status: (accepted|superseded|amended|proposed|rejected)\b/;
    if (!first.test(r.status)) problems.push(`${r.file}: "${r.status.slice(0, 60)}"`);
  }
  assert.deepEqual(problems, [], "records whose first paragraph after the title is not their Status");
});

Deno.test("decisions - a record that amends or supersedes another and that other link each other", () => {
  const all = records().filter((r) => r.code.length === 3);
  const status = new Map(all.map((r) => [r.code, links(r.status, r.file)]));
  const problems: string[] = [];
  for (const r of all) {
    for (const other of status.get(r.code)!) {
      if (other === r.code || !status.has(other)) continue;
      if (!status.get(other)!.has(r.code)) {
        problems.push(`${r.code}'s status links ${other}, but ${other}'s status does not link ${r.code}`);
      }
    }
  }
  assert.deepEqual(problems, []);
});

Deno.test("decisions - parts and their record link each other; no record is long", () => {
  const all = records();
  const byCode = new Map(all.map((r) => [r.code, r]));
  const problems: string[] = [];
  for (const r of all) {
    links(r.text, r.file);
    const lines = r.text.replace(/\n$/, "").split("\n").length;
    if (lines > MAX_LINES) {
      problems.push(`${r.file}: ${lines} lines (at most ${MAX_LINES}: move detail to a part)`);
    }
    if (r.code.length === 3) continue;
    const main = byCode.get(r.main);
    if (!main) problems.push(`${r.file}: no record ${r.main}`);
    else if (!main.text.includes(`](${r.file})`)) {
      problems.push(`${main.file} does not link its part ${r.file}`);
    }
    if (!r.status.includes(`](${main?.file})`)) problems.push(`${r.file}'s status does not link ${r.main}`);
  }
  assert.deepEqual(problems, []);
});

/** The documents whose cited paths must exist. */
function documents(): string[] {
  return [
    "README.md",
    ...readdirSync(join(ROOT, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`),
    ...readdirSync(DECISIONS).filter((f) => f.endsWith(".md")).map((f) => `docs/decisions/${f}`),
  ];
}

const CITED = /(?<![\w./@-])((?:\.cache|\.ci|api|db|lib|ui|scripts|docs)\/[\w./*<>{}[\]-]*[\w/*>}\]])/g;

Deno.test("docs - every repository path a record or a document cites exists in the tree", () => {
  const missing: string[] = [];
  const namedAsGone = new Set<string>();
  for (const doc of documents()) {
    const text = readFileSync(join(ROOT, doc), "utf8");
    for (const m of text.matchAll(CITED)) {
      const path = m[1];
      if (/[<>{}*[\]]|\.\.\./.test(path)) continue; // a pattern (`ui/**/islands/*.tsx`, `api/<area>/...`)
      if (GENERATED.some((g) => `/${path}`.startsWith(g))) continue;
      if (path in NAMED_AS_GONE) {
        namedAsGone.add(path);
        continue;
      }
      const found = [path, `${path}.ts`, `${path}.tsx`].some((p) => existsSync(join(ROOT, p)));
      if (!found) missing.push(`${doc}: ${path}`);
    }
  }
  assert.deepEqual(missing, [], "cited paths that are not in the tree (scratch scripts are not evidence)");
  for (const [path, why] of Object.entries(NAMED_AS_GONE)) {
    assert.ok(namedAsGone.has(path), `NAMED_AS_GONE lists ${path} (${why}), which no document names now`);
    assert.ok(!existsSync(join(ROOT, path)), `NAMED_AS_GONE lists ${path} (${why}), which exists again`);
  }
});
