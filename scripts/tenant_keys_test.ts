import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loopbackFetch } from "../db/sqld.ts";
import { parseEnvFile } from "./deploy_check_sqld.ts";
import { CliError, run } from "./tenant.ts";
import { cliWith } from "./testing/tenant_cli.ts";
import { sqldAvailable, startNamespacedSqld } from "./testing/sqld.ts";

const opts = { sanitizeResources: false, sanitizeOps: false };
const onSqld = { ...opts, ignore: !sqldAvailable() };

const temp = () => mkdtempSync(join(tmpdir(), "keys-"));
const mode = (file: string) => statSync(file).mode & 0o777;

Deno.test(
  "tenant keys init - writes sqld's public key and two 0600 env files, prints no secret",
  opts,
  async () => {
    const dir = temp();
    try {
      const out = await cliWith(join(dir, "data"), {}, "keys", "init", "--dir", join(dir, "secrets"));
      assert.equal(out.code, 0, out.stderr);
      const app = parseEnvFile(readFileSync(join(dir, "secrets/app.env"), "utf8"));
      const sqld = parseEnvFile(readFileSync(join(dir, "secrets/sqld.env"), "utf8"));
      assert.match(app.CATALOG_TOKEN, /^eyJ[\w-]+\.[\w-]+\.[\w-]+$/);
      assert.ok(sqld.LIBSQL_ADMIN_AUTH_KEY.length >= 40);
      assert.equal(app.SQLD_ADMIN_TOKEN, sqld.LIBSQL_ADMIN_AUTH_KEY);
      const claims = JSON.parse(atob(app.CATALOG_TOKEN.split(".")[1].replace(/-/g, "+").replace(/_/g, "/")));
      assert.deepEqual(claims, { p: { rw: { ns: ["catalog"] } } });
      assert.match(
        readFileSync(join(dir, "secrets/sqld_jwt_key.pem"), "utf8"),
        /^-----BEGIN PUBLIC KEY-----\n/,
      );
      assert.equal(mode(join(dir, "secrets/app.env")), 0o600);
      assert.equal(mode(join(dir, "secrets/sqld.env")), 0o600);
      assert.equal(mode(join(dir, "secrets/sqld_jwt_key.pem")), 0o644);
      assert.equal(readFileSync(join(dir, "secrets/.gitignore"), "utf8"), "*\n");
      for (const secret of [app.CATALOG_TOKEN, app.SQLD_ADMIN_TOKEN]) {
        assert.ok(!out.stdout.includes(secret) && !out.stderr.includes(secret), "a secret was printed");
      }

      // Made once: a second run is refused and changes nothing; --force makes new ones; --print shows them.
      const again = await cliWith(join(dir, "data"), {}, "keys", "init", "--dir", join(dir, "secrets"));
      assert.equal(again.code, 1);
      assert.match(again.stderr, /^error: .*already exists: keys are made once \(--force/);
      assert.equal(
        parseEnvFile(readFileSync(join(dir, "secrets/app.env"), "utf8")).CATALOG_TOKEN,
        app.CATALOG_TOKEN,
      );
      const forced = await cliWith(
        join(dir, "data"),
        {},
        "keys",
        "init",
        "--dir",
        join(dir, "secrets"),
        "--force",
        "--print",
      );
      assert.equal(forced.code, 0, forced.stderr);
      const fresh = parseEnvFile(readFileSync(join(dir, "secrets/app.env"), "utf8"));
      assert.notEqual(fresh.CATALOG_TOKEN, app.CATALOG_TOKEN);
      assert.ok(forced.stdout.includes(`CATALOG_TOKEN=${fresh.CATALOG_TOKEN}`));
      assert.equal(mode(join(dir, "secrets/app.env")), 0o600);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

/** sqld locked as docker-compose.yml locks it: the made public key, the admin key from sqld.env. */
async function lockedSqld(secrets: string | undefined, fn: (http: number, admin: number) => Promise<void>) {
  const sqld = await startNamespacedSqld({
    args: [
      "--disable-default-namespace",
      ...(secrets ? ["--auth-jwt-key-file", join(secrets, "sqld_jwt_key.pem")] : []),
    ],
    env: secrets ? parseEnvFile(readFileSync(join(secrets, "sqld.env"), "utf8")) : {},
  });
  try {
    await fn(sqld.ports.http, sqld.ports.admin);
  } finally {
    await sqld.stop();
  }
}

async function status(url: string, token?: string) {
  const res = await loopbackFetch(`${url}/v2/pipeline`, {
    method: "POST",
    headers: token ? { authorization: `Bearer ${token}` } : {},
    body: JSON.stringify({ requests: [{ type: "execute", stmt: { sql: "SELECT 1" } }, { type: "close" }] }),
  });
  // Read to its end: db/sqld.ts's addressFetch does not take a cancel while the answer is still arriving.
  await res.text();
  return res.status;
}

Deno.test(
  "tenant keys init - sqld with the made key takes CATALOG_TOKEN on the catalog only; no token opens anything",
  onSqld,
  async () => {
    const dir = temp();
    try {
      await run(["keys", "init", "--dir", join(dir, "secrets")], { dataDir: dir });
      const app = parseEnvFile(readFileSync(join(dir, "secrets/app.env"), "utf8"));
      await lockedSqld(join(dir, "secrets"), async (http, admin) => {
        const sqld = {
          adminUrl: `http://127.0.0.1:${admin}`,
          adminToken: app.SQLD_ADMIN_TOKEN,
          baseUrl: `http://localhost:${http}`,
        };
        const catalog = { url: `http://catalog.localhost:${http}`, token: app.CATALOG_TOKEN };
        const where = { dataDir: join(dir, "data"), sqld, catalog, scryptN: 1024 };
        assert.match((await run(["catalog", "init"], where))[0], /^made the catalog namespace "catalog"/);
        assert.match((await run(["catalog", "init"], where))[0], /^kept the catalog namespace "catalog"/);
        await run(
          [
            "create",
            "acme",
            "--name",
            "Acme",
            "--host",
            "acme.test",
            "--admin-email",
            "a@acme.test",
            "--admin-password",
            "a-long-passphrase",
            "--remote",
          ],
          where,
        );
        assert.match((await run(["list"], where))[0], /^acme\s+Acme\s+acme\.test\s+http:\/\/acme\.localhost/);

        assert.equal(await status(catalog.url), 401);
        assert.equal(await status(catalog.url, app.CATALOG_TOKEN), 200);
        const tenant = `http://acme.localhost:${http}`;
        assert.equal(await status(tenant), 401);
        assert.equal(await status(tenant, app.CATALOG_TOKEN), 401);
        // The admin API wants its key: without it, nothing is made.
        await assert.rejects(
          run(["catalog", "init"], { ...where, sqld: { ...sqld, adminToken: undefined } }),
          /admin API refused SQLD_ADMIN_TOKEN/,
        );
        // A token of another key pair is refused.
        await assert.rejects(
          run(["catalog", "init"], {
            ...where,
            catalog: { ...catalog, token: app.CATALOG_TOKEN.slice(0, -4) + "AAAA" },
          }),
          /refuses CATALOG_TOKEN/,
        );
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

Deno.test("tenant catalog init - refuses a sqld started without --auth-jwt-key-file", onSqld, async () => {
  const dir = temp();
  try {
    await run(["keys", "init", "--dir", join(dir, "secrets")], { dataDir: dir });
    const app = parseEnvFile(readFileSync(join(dir, "secrets/app.env"), "utf8"));
    await lockedSqld(undefined, async (http, admin) => {
      const where = {
        dataDir: dir,
        sqld: { adminUrl: `http://127.0.0.1:${admin}`, baseUrl: `http://localhost:${http}` },
        catalog: { url: `http://catalog.localhost:${http}`, token: app.CATALOG_TOKEN },
      };
      await assert.rejects(run(["catalog", "init"], where), (e: Error) => {
        assert.ok(e instanceof CliError);
        assert.match(e.message, /answers without a token: start sqld with --auth-jwt-key-file/);
        return true;
      });
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

Deno.test("tenant keys/catalog - bad input is one error line", opts, async () => {
  const dir = temp();
  try {
    for (
      const [args, message] of [
        [["keys"], /unknown command "keys "/],
        [["keys", "init", "--catalog-namespace", "Bad_Name"], /"Bad_Name" is not a valid namespace name/],
        [["catalog", "init"], /catalog init needs SQLD_ADMIN_URL and SQLD_URL/],
      ] as const
    ) {
      const out = await cliWith(
        join(dir, "data"),
        {},
        ...args,
        ...(args[0] === "keys" && args.length > 1 ? ["--dir", join(dir, "s")] : []),
      );
      assert.equal(out.code, 1, out.stdout);
      assert.match(out.stderr, message);
      assert.equal(out.stderr.trim().split("\n").length, 1);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
