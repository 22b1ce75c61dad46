/**
 * The real server as a child process, for the scripts that measure it from outside (`scripts/bench/`,
 * `scripts/reliability/`): spawned as `npm start` runs it (from the repository root, over a given DATA_DIR),
 * ready once `/healthz` answers, its output drained (a full pipe would block it) with the last lines kept
 * for errors, stopped by SIGTERM (its own shutdown path) or killed by SIGKILL (a crash).
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root: the server and the CLI run from here, as `npm start` does. */
export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
/** The same Deno that runs the script (node_modules/.bin/deno is the binary itself). */
export const DENO = Deno.execPath();

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `--name value`, `--name=value` and bare `--flag` (true). */
export function parseFlags(args: string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (!a.startsWith("--")) continue;
    const eq = a.indexOf("=");
    if (eq > 0) out.set(a.slice(2, eq), a.slice(eq + 1));
    else if (i + 1 < args.length && !args[i + 1].startsWith("--")) out.set(a.slice(2), args[++i]);
    else out.set(a.slice(2), "true");
  }
  return out;
}

/** A port nobody listens on right now (the kernel picks it; closed again before the server takes it). */
export function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

/**
 * The V8 flags the server runs with, here as in `deno task start`/`serve` and the Dockerfile
 * (`scripts/server_flags_test.ts` keeps the three the same). The heap may grow to twice what the last full
 * collection left alive, not the default up to about four times: under steady load the server keeps about
 * 45 MB alive while the default let the heap reserve 240 MB and keep growing (decision 021).
 */
export const SERVER_V8_FLAGS = "--v8-flags=--heap-growing-percent=100,--expose-gc";

/** Lines of the server's output kept for error messages. */
const TAIL = 200;

export class ServerProcess {
  private tail: string[] = [];
  private exited: Promise<Deno.CommandStatus> | undefined;
  proc: Deno.ChildProcess | undefined;
  /** ms from spawn until /healthz answered 200, for the latest start */
  startMs = 0;

  constructor(
    readonly dataDir: string,
    readonly port: number = freePort(),
    private extraEnv: Record<string, string> = {},
  ) {}

  get pid(): number {
    return this.proc!.pid;
  }

  get running() {
    return this.proc !== undefined;
  }

  /**
   * Tenants are told apart by loopback address (127.0.0.10, ...): Deno's fetch sends the URL's host as the
   * Host header and ignores one set by hand, and the whole 127/8 block reaches a server on 0.0.0.0.
   */
  url(host = "127.0.0.1") {
    return `http://${host}:${this.port}`;
  }

  /** Spawns the server and waits for /healthz; throws after `timeoutMs`. */
  async start(timeoutMs = 60_000): Promise<number> {
    const t0 = performance.now();
    this.proc = new Deno.Command(DENO, {
      // RELIABILITY_DENO_ARGS: extra flags for the server's deno, e.g. "--inspect=127.0.0.1:9229" to profile
      // it under a script's load (scripts/reliability/profile.ts).
      args: [
        "run",
        SERVER_V8_FLAGS,
        ...(Deno.env.get("RELIABILITY_DENO_ARGS")?.split(" ").filter(Boolean) ?? []),
        "-A",
        join(ROOT, "api/main.ts"),
      ],
      cwd: ROOT,
      env: {
        DATA_DIR: this.dataDir,
        PORT: String(this.port),
        DEMO_TENANT: "false",
        LOG_REQUESTS: "false",
        SCRYPT_N: "1024",
        ...this.extraEnv,
        // RELIABILITY_SERVER_ENV: more of the server's settings as a JSON object, e.g. '{"STALL_LOG_MS":"20"}' to
        // see the long turns under a script's load.
        ...JSON.parse(Deno.env.get("RELIABILITY_SERVER_ENV") ?? "{}"),
      },
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    this.drain(this.proc.stdout);
    this.drain(this.proc.stderr);
    this.exited = this.proc.status;
    let early: Deno.CommandStatus | undefined;
    this.exited.then((s) => early = s);
    while (performance.now() - t0 < timeoutMs) {
      if (early) throw new Error(`server exited with ${early.code} before answering:\n${this.output()}`);
      try {
        const r = await fetch(this.url() + "/healthz", { signal: AbortSignal.timeout(1000) });
        await r.body?.cancel();
        if (r.status === 200) return this.startMs = performance.now() - t0;
      } catch { /* not listening yet */ }
      await sleep(25);
    }
    throw new Error(`server did not answer /healthz within ${timeoutMs} ms:\n${this.output()}`);
  }

  private async drain(stream: ReadableStream<Uint8Array>) {
    const dec = new TextDecoder();
    // RELIABILITY_SERVER_LOG: a file that gets all of the server's output (e.g. with
    // RELIABILITY_DENO_ARGS=--v8-flags=--trace-gc, to see the collector's work under a script's load).
    const log = Deno.env.get("RELIABILITY_SERVER_LOG");
    const file = log ? await Deno.open(log, { create: true, append: true }) : undefined;
    try {
      for await (const chunk of stream) {
        await file?.write(chunk);
        for (const line of dec.decode(chunk).split("\n")) {
          if (!line) continue;
          this.tail.push(line);
          if (this.tail.length > TAIL) this.tail.shift();
        }
      }
    } catch {
      /* the process went away */
    } finally {
      file?.close();
    }
  }

  output(): string {
    return this.tail.join("\n");
  }

  /** SIGTERM: the server's own shutdown path; SIGKILL if it has not exited within `graceMs`. */
  async stop(graceMs = 10_000) {
    if (!this.proc) return;
    this.signal("SIGTERM");
    const done = await Promise.race([this.exited!.then(() => true), sleep(graceMs).then(() => false)]);
    if (!done) this.signal("SIGKILL");
    await this.exited;
    this.proc = undefined;
  }

  /** SIGKILL: no shutdown code runs, as in a crash or an OOM kill. */
  async kill() {
    if (!this.proc) return;
    this.signal("SIGKILL");
    await this.exited;
    this.proc = undefined;
  }

  private signal(s: Deno.Signal) {
    try {
      this.proc!.kill(s);
    } catch { /* already gone */ }
  }
}
