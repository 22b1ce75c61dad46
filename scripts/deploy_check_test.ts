import assert from "node:assert/strict";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deployChecks } from "./deploy_check.ts";
import { ROOT } from "./deploy_compose.ts";
import { entrypointArgv } from "./deploy_entrypoint.ts";
import { sqldAvailable } from "./testing/sqld.ts";
import { ServerProcess } from "./testing/server_process.ts";
import { cliWith } from "./testing/tenant_cli.ts";

/** The README's "Docker" section's create command, after `docker exec bo node_modules/.bin/deno run -A scripts/tenant.ts`. */
const README_CREATE = [
  "create",
  "acme",
  "--name",
  "Acme",
  "--host",
  "localhost",
  "--admin-email",
  "admin@acme.example",
  "--admin-password",
  "a-long-passphrase",
];

const opts = { sanitizeResources: false, sanitizeOps: false };
const onSqld = { ...opts, ignore: !sqldAvailable() };

Deno.test("deploy check - the image's entrypoint appends its own arguments to /bin/sqld only", () => {
  const cmd = ["/bin/sqld", "--enable-namespaces"];
  assert.deepEqual(entrypointArgv(cmd, {}), [
    ...cmd,
    "--db-path",
    "iku.db",
    "--http-listen-addr",
    "0.0.0.0:8080",
    "--grpc-listen-addr",
    "0.0.0.0:5001",
  ]);
  assert.deepEqual(
    entrypointArgv(cmd, { SQLD_NODE: "standalone", SQLD_DB_PATH: "/d", SQLD_HTTP_LISTEN_ADDR: "" }),
    [...cmd, "--db-path", "/d", "--http-listen-addr", "0.0.0.0:8080"],
  );
  assert.deepEqual(entrypointArgv(["sqld", "-d", "x"], {}), ["sqld", "-d", "x"]);
});

Deno.test(
  "deploy check - docker-compose.yml, the Caddyfile and sqld as the image starts it all pass",
  opts,
  async () => {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "scripts/deploy_check.ts"],
      cwd: ROOT,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 0, text);
    assert.doesNotMatch(text, /^FAIL/m);
    if (sqldAvailable()) {
      assert.match(text, /^ok {3}sqld starts with the entrypoint's argv/m);
      assert.match(text, /^ok {3}catalog refuses a request without a token: 401/m);
      assert.match(text, /^ok {3}tenant namespace refuses a request without a token: .*401/m);
    }
  },
);

/** The repository's compose file changed by `edit`, with the Caddyfile beside it; the checks' verdicts by name. */
async function checksOf(edit: (text: string) => string, sqld = true) {
  const dir = mkdtempSync(join(tmpdir(), "deploy-variant-"));
  try {
    const text = readFileSync(join(ROOT, "docker-compose.yml"), "utf8");
    const changed = edit(text);
    assert.notEqual(changed, text, "the edit changed nothing");
    writeFileSync(join(dir, "docker-compose.yml"), changed);
    copyFileSync(join(ROOT, "Caddyfile"), join(dir, "Caddyfile"));
    return new Map((await deployChecks(join(dir, "docker-compose.yml"), { sqld })).map((c) => [c.name, c]));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

Deno.test(
  "deploy check - a sqld command that repeats the entrypoint's --db-path fails: the real sqld exits",
  onSqld,
  async () => {
    const checks = await checksOf((t) =>
      t.replace("      - --no-welcome\n", "      - --no-welcome\n      - --db-path=/var/lib/sqld/data\n")
    );
    assert.equal(checks.get("sqld's command leaves to the entrypoint what it appends")?.ok, false);
    const started = checks.get("sqld starts with the entrypoint's argv");
    assert.equal(started?.ok, false);
    assert.match(started!.detail, /exit 2: .*--db-path.*cannot be used multiple times/);
  },
);

Deno.test(
  "deploy check - a sqld without its JWT key fails: the catalog one-shot finds the catalog open",
  onSqld,
  async () => {
    const checks = await checksOf((t) =>
      t.replace("      - --auth-jwt-key-file=/run/secrets/sqld_jwt_key\n", "")
    );
    assert.equal(checks.get("sqld reads its JWT key from a compose secret")?.ok, false);
    const oneShot = checks.get("catalog one-shot, run 1");
    assert.equal(oneShot?.ok, false);
    assert.match(oneShot!.detail, /answers without a token/);
  },
);

Deno.test("deploy check - a token in the compose file fails", opts, async () => {
  const checks = await checksOf(
    (t) => t.replace('    DEMO_TENANT: "false"\n', '    DEMO_TENANT: "false"\n    CATALOG_TOKEN: abc\n'),
    false,
  );
  assert.equal(checks.get("no secret in the compose file")?.ok, false);
});

Deno.test(
  "deploy check - README's single-instance Docker steps end signed in to a tenant, not at a 404",
  opts,
  async () => {
    // The image's environment (Dockerfile ENV) and `docker run -e DEMO_TENANT=false`; `docker exec` runs the CLI
    // over the same DATA_DIR.
    const dataDir = mkdtempSync(join(tmpdir(), "single-instance-"));
    const server = new ServerProcess(dataDir, undefined, { HOST: "0.0.0.0", DEMO_TENANT: "false" });
    try {
      await server.start();
      const before = await fetch(`http://localhost:${server.port}/api/login/access-token`, {
        method: "POST",
      });
      assert.equal(before.status, 404);
      assert.match(await before.text(), /No business is served at this address/);
      const created = await cliWith(dataDir, {}, ...README_CREATE);
      assert.equal(created.code, 0, created.stderr);
      const signIn = await fetch(`http://localhost:${server.port}/api/login/access-token`, {
        method: "POST",
        body: new URLSearchParams({ username: "admin@acme.example", password: "a-long-passphrase" }),
      });
      assert.equal(signIn.status, 200, await signIn.clone().text());
      assert.ok((await signIn.json()).access_token);
    } finally {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
);
