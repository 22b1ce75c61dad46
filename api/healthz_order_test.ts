import assert from "node:assert/strict";
import {
  cli,
  createTenant,
  loopbackHost,
  removeDir,
  Server,
  signIn,
  tempDataDir,
} from "../scripts/reliability/lib.ts";

/**
 * Over real sockets, against the server as a child process: what the runtime does with requests before any
 * of our code sees them is part of the behaviour. In-process `app.request()` cannot show it.
 */
Deno.test({
  name:
    "server - /healthz sent while 80 requests of one tenant are in flight is answered before half of them (it was answered last)",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const dataDir = await tempDataDir("healthz-order");
    const server = new Server(dataDir, undefined, { TENANT_CONCURRENCY: "6", SERVER_CONCURRENCY: "8" });
    try {
      const busy = await createTenant(dataDir, "busy", loopbackHost(0));
      const r = await cli(dataDir, ["seed-demo", "busy"]);
      assert.equal(r.code, 0, r.stderr);
      await server.start();
      const api = await signIn(server, busy);
      const page = (i: number) => `/api/pt/inspections?rowsPerPage=100&page=${1 + (i % 3)}`;
      const probeUrl = server.url(loopbackHost(1)) + "/healthz";
      // Connections are opened first (a round of the same requests, one probe), as in steady use: how new
      // connections are accepted is another matter than how requests on open ones are taken up.
      await Promise.all(Array.from({ length: 80 }, (_, i) => api.call("GET", page(i))));
      await (await fetch(probeUrl)).body?.cancel();
      const order: string[] = [];
      let firstAnswered!: () => void;
      const first = new Promise<void>((resolve) => firstAnswered = resolve);
      const flood = Array.from({ length: 80 }, async (_, i) => {
        const a = await api.call("GET", page(i), { raw: true });
        assert.equal(a.status, 200);
        order.push("busy");
        firstAnswered();
      });
      // Every flood request is on the wire by the time the first is answered.
      await first;
      const probe = fetch(probeUrl).then(async (res) => {
        assert.equal(res.status, 200);
        await res.body?.cancel();
        order.push("healthz");
      });
      await Promise.all([...flood, probe]);
      const before = order.indexOf("healthz");
      assert.ok(before <= 40, `/healthz answered after ${before} of the 80 busy requests`);
    } finally {
      await server.kill();
      await removeDir(dataDir);
    }
  },
});
