import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { withEnv } from "../scripts/testing/harness.ts";
import { freePort, ServerProcess, sleep } from "../scripts/testing/server_process.ts";
import { cli, createArgs } from "../scripts/testing/tenant_cli.ts";

Deno.test("readyz - ready with the catalog answering and naming a tenant (not how many); 503 once the process is draining; /healthz unaffected", () =>
  withEnv(async (env) => {
    assert.deepEqual(await env.json("/readyz"), { ready: true });
    env.services.draining = true;
    const r = await env.request("/readyz");
    assert.equal(r.status, 503);
    assert.deepEqual(await r.json(), { ready: false, detail: "Shutting down." });
    assert.equal((await env.request("/healthz")).status, 200);
  }));

Deno.test("graceful shutdown - SIGTERM: /readyz 503 during the drain while requests are still answered, then exit 0", async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "bo-lifecycle-"));
  const server = new ServerProcess(dataDir, freePort(), { DRAIN_SECONDS: "2" });
  try {
    await server.start();
    // No tenant yet: every request would be 404, so not ready (an instance missing the shared catalog).
    const empty = await fetch(server.url() + "/readyz");
    assert.equal(empty.status, 503);
    assert.match((await empty.json()).detail, /No business is served here yet/);
    const created = await cli(dataDir, ...createArgs("acme", "acme.test"));
    assert.equal(created.code, 0, created.stderr);
    const ready = await fetch(server.url() + "/readyz");
    assert.deepEqual([ready.status, await ready.json()], [200, { ready: true }]);
    const exited = server.proc!.status;
    server.proc!.kill("SIGTERM");
    // The signal is handled in the server's next turn: /readyz turns 503 well within the 2 s drain.
    const deadline = performance.now() + 1500;
    for (;;) {
      const draining = await fetch(server.url() + "/readyz");
      await draining.body?.cancel();
      if (draining.status === 503) break;
      assert.ok(performance.now() < deadline, "/readyz turns 503 during the drain");
      await sleep(20);
    }
    const health = await fetch(server.url() + "/healthz");
    assert.equal(health.status, 200, "still answering while the proxy notices");
    await health.body?.cancel();
    const status = await exited;
    assert.equal(status.code, 0);
    await assert.rejects(fetch(server.url() + "/healthz"), "no longer listening");
  } finally {
    await server.kill();
    await Deno.remove(dataDir, { recursive: true });
  }
});
