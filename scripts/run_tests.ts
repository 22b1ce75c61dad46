/**
 * `npm test`: format check, lint, type check, asset build, then every *_test.ts (unit, API, CLI and
 * browser tests). Each gate counts as one check; the last line is `N passed, N failed`.
 */
const deno = Deno.execPath();
let passed = 0;
let failed = 0;

async function run(label: string, cmd: string, args: string[], opts: { echo?: boolean } = {}) {
  const started = performance.now();
  const child = new Deno.Command(cmd, { args, stdout: "piped", stderr: "piped", env: { NO_COLOR: "1" } })
    .spawn();
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
if (only.length === 0) {
  await gate("format", deno, ["fmt", "--check"]);
  await gate("lint", deno, ["lint"]);
  await gate("type check", deno, ["check", "api/main.ts", "scripts/tenant.ts", "ui/client.ts"]);
}
const built = await gate("build assets", deno, ["task", "build"]);

if (built) {
  const r = await run("tests", deno, ["test", "-A", "--parallel", ...only], { echo: true });
  const m = /(\d+) passed.*?\| (\d+) failed/.exec(
    r.out.split("\n").filter((l) => /passed.*failed/.test(l)).pop() ?? "",
  );
  if (m) {
    passed += Number(m[1]);
    failed += Number(m[2]);
  }
  if (!r.ok && (!m || Number(m[2]) === 0)) failed++; // the runner itself failed (type error, crash)
}

console.log(`\n${passed} passed, ${failed} failed`);
Deno.exit(failed === 0 ? 0 : 1);
