/**
 * The tenant CLI as a child process for tests, with its stages (`TENANT_TEST_STAGES=1`: it prints
 * `stage <name>` on stderr and waits for a line on stdin at each), so a test can kill it at one of them.
 */
import assert from "node:assert/strict";
import { fileURLToPath as fromFileUrl } from "node:url";

const ROOT = fromFileUrl(new URL("../..", import.meta.url));
const DEADLINE_MS = 60_000;

const dec = new TextDecoder();

/**
 * `create <slug>` with every flag it needs: `<slug> Inspections` on `host`, admin `admin@<slug>.test` with the
 * password `admin-pass-1`; `over` replaces or adds flags.
 */
export const createArgs = (slug: string, host: string, over: Record<string, string> = {}) => {
  const flags: Record<string, string> = {
    "--name": `${slug} Inspections`,
    "--host": host,
    "--admin-email": `admin@${slug}.test`,
    "--admin-password": "admin-pass-1",
    ...over,
  };
  return ["create", slug, ...Object.entries(flags).flat()];
};

/** The real CLI to its end. */
export function cli(dataDir: string, ...args: string[]) {
  return cliWith(dataDir, {}, ...args);
}

/** The real CLI to its end, with `env` on top of DATA_DIR. */
export async function cliWith(dataDir: string, env: Record<string, string>, ...args: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "scripts/tenant.ts", ...args],
    cwd: ROOT,
    env: { DATA_DIR: dataDir, SCRYPT_N: "1024", ...env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

export interface StagedRun {
  /** stages seen, in order, with ms since the first one */
  stages: { name: string; at: number }[];
  killed: boolean;
  code: number | null;
  stderr: string;
}

/**
 * The CLI with its stages on. `kill` names the stage to kill it at (while it waits there), or a stage and a
 * delay: let it go on from that stage and kill it `ms` later (inside the step that follows). No kill: every
 * stage is let go on at once, and the stages are timed.
 */
export async function staged(
  dataDir: string,
  args: string[],
  kill?: { at: string; afterMs?: number },
  env: Record<string, string> = {},
): Promise<StagedRun> {
  const proc = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "scripts/tenant.ts", ...args],
    cwd: ROOT,
    env: { DATA_DIR: dataDir, SCRYPT_N: "1024", TENANT_TEST_STAGES: "1", ...env },
    stdin: "piped",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const stdin = proc.stdin.getWriter();
  const run: StagedRun = { stages: [], killed: false, code: null, stderr: "" };
  const deadline = setTimeout(() => {
    try {
      proc.kill("SIGKILL");
    } catch { /* gone */ }
  }, DEADLINE_MS);
  let t0 = 0;
  let buffered = "";
  try {
    for await (const chunk of proc.stderr) {
      buffered += dec.decode(chunk);
      run.stderr += dec.decode(chunk);
      let nl;
      while ((nl = buffered.indexOf("\n")) >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        const m = /^stage (\S+)$/.exec(line);
        if (!m) continue;
        if (!run.stages.length) t0 = performance.now();
        run.stages.push({ name: m[1], at: performance.now() - t0 });
        if (kill && !run.killed && m[1] === kill.at) {
          if (kill.afterMs !== undefined) {
            await stdin.write(new TextEncoder().encode("\n")).catch(() => undefined);
            await new Promise((r) => setTimeout(r, kill.afterMs));
          }
          proc.kill("SIGKILL");
          run.killed = true;
        } else if (!run.killed) {
          await stdin.write(new TextEncoder().encode("\n")).catch(() => undefined);
        }
      }
    }
  } finally {
    clearTimeout(deadline);
    await stdin.close().catch(() => undefined);
  }
  const status = await proc.status;
  run.code = status.signal ? null : status.code;
  if (kill) assert.ok(run.killed, `never reached stage ${kill.at}: ${run.stderr}`);
  return run;
}
