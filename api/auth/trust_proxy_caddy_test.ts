import assert from "node:assert/strict";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, ServerProcess } from "../../scripts/testing/server_process.ts";
import { cli, createArgs } from "../../scripts/testing/tenant_cli.ts";
import { LOCK } from "./throttle.ts";

/** Debian's caddy (the test's setup installs it with Chromium: scripts/testing/system_packages.ts). */
const CADDY = ["/usr/bin/caddy", "/usr/local/bin/caddy"].find((p) => existsSync(p));

const PASSWORD = "a-long-passphrase-1";
const DEADLINE_MS = 30_000;

/**
 * A sign-in through the proxy from a client at `from` (a loopback address of its own: curl binds it), with
 * headers of its own choosing. Answers the status.
 */
async function signIn(
  proxy: string,
  from: string,
  password: string,
  headers: Record<string, string> = {},
): Promise<number> {
  const out = await new Deno.Command("curl", {
    args: [
      "-s",
      "-o",
      "/dev/null",
      "-w",
      "%{http_code}",
      "--interface",
      from,
      "-H",
      "Host: acme.test",
      ...Object.entries(headers).flatMap(([k, v]) => ["-H", `${k}: ${v}`]),
      "--data-urlencode",
      "username=admin@acme.test",
      "--data-urlencode",
      `password=${password}`,
      `${proxy}/api/login/access-token`,
    ],
    stdout: "piped",
  }).output();
  return Number(new TextDecoder().decode(out.stdout));
}

Deno.test({
  name:
    "behind a real Caddy with TRUST_PROXY, one client's wrong passwords lock only its own pair, and a client's own X-Forwarded-For names nobody",
  ignore: !CADDY,
  fn: async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "bo-caddy-"));
    const created = await cli(dataDir, ...createArgs("acme", "acme.test", { "--admin-password": PASSWORD }));
    assert.equal(created.code, 0, created.stderr);
    const server = new ServerProcess(dataDir, freePort(), { TRUST_PROXY: "127.0.0.1" });
    const proxyPort = freePort();
    const caddyfile = join(dataDir, "Caddyfile");
    await Deno.writeTextFile(
      caddyfile,
      `{\n\tadmin off\n\tauto_https off\n}\nhttp://:${proxyPort} {\n\tbind 127.0.0.1\n\treverse_proxy 127.0.0.1:${server.port}\n}\n`,
    );
    let caddy: Deno.ChildProcess | undefined;
    try {
      await server.start();
      caddy = new Deno.Command(CADDY!, {
        args: ["run", "--config", caddyfile, "--adapter", "caddyfile"],
        stdout: "null",
        stderr: "null",
        env: { HOME: dataDir, XDG_DATA_HOME: dataDir, XDG_CONFIG_HOME: dataDir },
      }).spawn();
      const proxy = `http://127.0.0.1:${proxyPort}`;
      const deadline = performance.now() + DEADLINE_MS;
      for (;;) {
        const r = await fetch(proxy + "/healthz").catch(() => undefined);
        await r?.body?.cancel();
        if (r?.status === 200) break;
        assert.ok(performance.now() < deadline, "Caddy answers /healthz through to the server");
        await new Promise((resolve) => setTimeout(resolve, 50));
      }

      // An attacker at 127.0.0.2 locks its own pair (account, its address), and tries to frame 127.0.0.9.
      for (let i = 0; i <= LOCK.max; i++) {
        const status = await signIn(proxy, "127.0.0.2", "wrong-password", { "X-Forwarded-For": "127.0.0.9" });
        assert.ok(status === 401 || status === 429, `attempt ${i}: ${status}`);
      }
      assert.equal(await signIn(proxy, "127.0.0.2", PASSWORD), 429, "the attacker's own pair is locked");
      // Every client came through the proxy at 127.0.0.1: without TRUST_PROXY they were all one address and
      // the owner was locked out too.
      assert.equal(
        await signIn(proxy, "127.0.0.3", PASSWORD),
        200,
        "the owner from another address signs in",
      );
      assert.equal(
        await signIn(proxy, "127.0.0.9", PASSWORD),
        200,
        "the address the attacker named signs in",
      );
    } finally {
      caddy?.kill("SIGTERM");
      await caddy?.status;
      await server.stop();
      await Deno.remove(dataDir, { recursive: true });
    }
  },
});
