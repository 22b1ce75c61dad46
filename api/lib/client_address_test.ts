import assert from "node:assert/strict";
import { addressNumber, clientAddressOf, isTrusted, parseTrustedProxies } from "./client_address.ts";
import { parseConfig } from "../config.ts";

Deno.test("client address - addresses parse as IPv4, IPv6 and IPv4-mapped IPv6 alike", () => {
  assert.equal(addressNumber("192.0.2.1"), addressNumber("::ffff:192.0.2.1"));
  assert.equal(addressNumber("::ffff:c000:201"), addressNumber("192.0.2.1"));
  assert.equal(addressNumber("[2001:db8::1]"), addressNumber("2001:db8:0:0:0:0:0:1"));
  assert.equal(addressNumber("fe80::1%eth0"), addressNumber("fe80::1"));
  for (
    const bad of [
      "",
      "unknown",
      "1.2.3",
      "256.1.1.1",
      "1.2.3.4.5",
      "::1::2",
      "1:2:3:4:5:6:7:8:9",
      "g::1",
      "a.b.c.d",
    ]
  ) {
    assert.equal(addressNumber(bad), undefined, bad);
  }
});

Deno.test("client address - TRUST_PROXY takes addresses and networks, and names a bad entry", () => {
  const t = parseTrustedProxies("10.0.0.5, 172.16.0.0/12 fd00::/8");
  assert.ok(isTrusted(t, "10.0.0.5"));
  assert.ok(!isTrusted(t, "10.0.0.6"));
  assert.ok(isTrusted(t, "172.31.255.254"));
  assert.ok(!isTrusted(t, "172.32.0.1"));
  assert.ok(isTrusted(t, "fd12:3456::1"));
  assert.ok(!isTrusted(t, "fe80::1"));
  assert.ok(isTrusted(t, "::ffff:10.0.0.5"), "an IPv4 peer seen on an IPv6 socket");
  assert.ok(!isTrusted(parseTrustedProxies(""), "127.0.0.1"), "unset: no proxy is trusted");
  assert.ok(isTrusted(parseTrustedProxies("0.0.0.0/0"), "198.51.100.7"));
  assert.ok(
    !isTrusted(parseTrustedProxies("0.0.0.0/0"), "2001:db8::1"),
    "an IPv4 network holds no IPv6 peer",
  );
  for (const bad of ["10.0.0.0/33", "fd00::/129", "proxy", "10.0.0.1/8/2", "10.0.0.0/x"]) {
    assert.throws(() => parseTrustedProxies(bad), new RegExp(`"${bad.replace(/[./]/g, "\\$&")}"`));
    assert.throws(() => parseConfig({ TRUST_PROXY: bad }), /TRUST_PROXY/);
  }
  assert.equal(parseConfig({ TRUST_PROXY: "127.0.0.1" }).TRUST_PROXY.networks.length, 1);
  assert.equal(parseConfig({}).TRUST_PROXY.networks.length, 0);
});

Deno.test("client address - X-Forwarded-For is believed only from a trusted proxy, read from its right end", () => {
  const t = parseTrustedProxies("10.0.0.0/8");
  // no trusted proxy: the socket's peer, whatever the header says
  assert.equal(clientAddressOf(parseTrustedProxies(""), "198.51.100.7", "203.0.113.9"), "198.51.100.7");
  // from an untrusted peer the header is ignored
  assert.equal(clientAddressOf(t, "198.51.100.7", "203.0.113.9"), "198.51.100.7");
  // a trusted proxy names the client
  assert.equal(clientAddressOf(t, "10.0.0.2", "203.0.113.9"), "203.0.113.9");
  // a client's own header is left of what the proxy appended: only the right end counts
  assert.equal(clientAddressOf(t, "10.0.0.2", "1.2.3.4, 203.0.113.9"), "203.0.113.9");
  // two trusted hops passed over
  assert.equal(clientAddressOf(t, "10.0.0.2", "203.0.113.9, 10.0.0.3"), "203.0.113.9");
  // a malformed entry ends the walk at the last address believed
  assert.equal(clientAddressOf(t, "10.0.0.2", "203.0.113.9, junk"), "10.0.0.2");
  // a trusted proxy that sent no header: itself
  assert.equal(clientAddressOf(t, "10.0.0.2", undefined), "10.0.0.2");
  // only trusted hops: the left-most of them
  assert.equal(clientAddressOf(t, "10.0.0.2", "10.0.0.9"), "10.0.0.9");
  // a request made in the process (no socket): the header's first address, as the tests send it
  assert.equal(clientAddressOf(parseTrustedProxies(""), undefined, "192.0.2.5, 10.0.0.1"), "192.0.2.5");
  assert.equal(clientAddressOf(parseTrustedProxies(""), undefined, undefined), "unknown");
});
