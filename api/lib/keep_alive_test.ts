import assert from "node:assert/strict";
import { KeepAliveBound } from "./keep_alive.ts";
import { parseTrustedProxies } from "./client_address.ts";

const peer = (i: number) => ({ hostname: "127.0.0.1", port: 40_000 + i });

Deno.test("keep-alive bound: past max, other connections are not kept; a counted one always is", () => {
  const bound = new KeepAliveBound({ max: 3, windowMs: 1000 }, () => 0);
  for (let i = 0; i < 3; i++) assert.equal(bound.keep(peer(i)), true);
  assert.equal(bound.keep(peer(3)), false);
  assert.equal(bound.keep(peer(4)), false);
  assert.equal(bound.keep(peer(0)), true, "a kept connection's next request");
  assert.equal(bound.size, 3);
  assert.equal(bound.closed, 2);
  // A Unix socket's peer has no port: never counted, never closed.
  assert.equal(bound.keep({ hostname: "" }), true);
  assert.equal(bound.keep(undefined), true);
  assert.equal(bound.size, 3);
});

Deno.test("keep-alive bound: a connection without requests for windowMs is forgotten, the least recent first", () => {
  let t = 0;
  const bound = new KeepAliveBound({ max: 2, windowMs: 1000 }, () => t);
  bound.keep(peer(0));
  t = 500;
  bound.keep(peer(1));
  t = 900;
  bound.keep(peer(0)); // used again: now the most recent
  t = 1600; // peer 1 idle 1,100 ms, peer 0 700 ms
  assert.equal(bound.keep(peer(2)), true, "peer 1 forgotten: room for another");
  assert.equal(bound.size, 2);
  assert.equal(bound.keep(peer(3)), false, "peer 0 is still counted");
});

Deno.test("keep-alive bound: one port to two hosts is two connections; a trusted proxy's are not counted", () => {
  const bound = new KeepAliveBound({ max: 2, windowMs: 1000 }, () => 0, parseTrustedProxies("10.0.0.0/8"));
  // A client on this machine reaches 127.1.0.1 and 127.1.0.2 from 127.0.0.1, maybe from the same port.
  assert.equal(bound.keep(peer(0), "127.1.0.1:8000"), true);
  assert.equal(bound.keep(peer(0), "127.1.0.2:8000"), true);
  assert.equal(bound.keep(peer(0), "127.1.0.3:8000"), false);
  for (let i = 0; i < 10; i++) {
    assert.equal(bound.keep({ hostname: "10.1.2.3", port: 5000 + i }, "a.example"), true);
  }
  assert.equal(bound.size, 2);
});

/**
 * A real `Deno.serve` and fetch: each of 8 clients (own loopback address) asks twice. With the bound at 4, the
 * first 4 keep their connection (the second request comes on the same port); the others' connections are
 * closed after each answer (a new port). Without the bound every client's second request reuses its connection.
 */
Deno.test("keep-alive bound: Deno.serve closes the connections past the bound after their answers", async () => {
  for (const bounded of [false, true]) {
    const bound = new KeepAliveBound({ max: 4, windowMs: 60_000 });
    const ports = new Map<string, number[]>();
    const handler = (req: Request, info: Deno.ServeHandlerInfo<Deno.NetAddr>) => {
      const host = new URL(req.url).hostname;
      ports.set(host, [...ports.get(host) ?? [], info.remoteAddr.port]);
      return new Response("ok");
    };
    const server = Deno.serve(
      { port: 0, hostname: "0.0.0.0", onListen: () => {} },
      bounded ? bound.wrap(handler) : handler,
    );
    const client = Deno.createHttpClient({});
    try {
      for (let i = 1; i <= 8; i++) {
        for (let k = 0; k < 2; k++) {
          const res = await fetch(`http://127.3.0.${i}:${server.addr.port}/`, { client });
          assert.equal(await res.text(), "ok");
          assert.equal(res.headers.get("connection") === "close", bounded && i > 4);
        }
      }
    } finally {
      client.close();
      await server.shutdown();
    }
    const reused = [...ports.values()].map(([a, b]) => a === b);
    assert.deepEqual(
      reused,
      bounded ? [true, true, true, true, false, false, false, false] : Array(8).fill(true),
    );
    if (bounded) assert.equal(bound.closed, 8);
  }
});
