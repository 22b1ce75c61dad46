import assert from "node:assert/strict";
import { removeDir, Server, tempDataDir } from "../scripts/reliability/lib.ts";
import { until } from "../scripts/testing/until.ts";
import { KEEP_ALIVE_LIMITS } from "./lib/keep_alive.ts";

/**
 * The server as it is started (api/main.ts), over real sockets: one client on more loopback addresses than the
 * keep-alive bound (decision 060) keeps at most that many connections open; past it each answer closes its
 * connection. Before the bound every connection stayed open as long as the client kept it (1,000 after the
 * 1,000-tenant sweep, about 20 MB of the server's C heap).
 */
Deno.test({
  name: "server - connections past the keep-alive bound are closed after their answer",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const dataDir = await tempDataDir("keep-alive");
    const server = new Server(dataDir);
    const client = Deno.createHttpClient({});
    try {
      await server.start();
      const sockets = () =>
        [...Deno.readDirSync(`/proc/${server.pid}/fd`)].filter((e) => {
          try {
            return Deno.readLinkSync(`/proc/${server.pid}/fd/${e.name}`).startsWith("socket:");
          } catch {
            return false;
          }
        }).length;
      const atStart = sockets();
      const max = KEEP_ALIVE_LIMITS.max;
      const closing: number[] = [];
      for (let i = 0; i < max + 8; i++) {
        const res = await fetch(`${server.url(`127.4.${Math.floor(i / 200)}.${(i % 200) + 1}`)}/healthz`, {
          client,
        });
        assert.equal(res.status, 200);
        await res.body?.cancel();
        if (res.headers.get("connection") === "close") closing.push(i);
      }
      // The last ones past the bound (the start-up wait's /healthz, on 127.0.0.1, may hold one of the places).
      const from = max + 8 - closing.length;
      assert.ok(closing.length === 8 || closing.length === 9, `closed: ${closing}`);
      assert.deepEqual(closing, Array.from({ length: closing.length }, (_, k) => from + k));
      // The closed ones are let go once their answers are sent: at most the bound's more than at the start
      // (the runtime's own sockets, the listener and the start-up wait's connection).
      await until(
        () => sockets() <= atStart + max,
        `at most ${atStart} + ${max} sockets open in the server`,
        10_000,
      );
    } finally {
      client.close();
      await server.stop();
      await removeDir(dataDir);
    }
  },
});
