import assert from "node:assert/strict";
import { ADMIN, withEnv } from "../../scripts/testing/harness.ts";
import { LoginThrottle } from "./throttle.ts";

/** Sign-ins and sign-outs on two app instances serving one tenant database (decision 019). */

const signIn = (
  c: { request: (path: string, o: Record<string, unknown>) => Promise<Response> },
  password: string,
  address: string,
) =>
  c.request("/api/login/access-token", {
    method: "POST",
    form: { username: ADMIN.email, password },
    headers: { "x-forwarded-for": address },
  });

Deno.test("several instances - wrong passwords spread over two instances meet one limit", () =>
  withEnv(async (env) => {
    const b = await env.instance();
    const address = "203.0.113.40";
    const rs = await Promise.all(
      Array.from({ length: 20 }, (_, i) => signIn(i % 2 ? b : env, "wrong-password", address)),
    );
    const statuses = rs.map((r) => r.status).sort();
    assert.equal(statuses.filter((s) => s === 401).length, 5, `5 are checked in all: ${statuses}`);
    assert.equal(statuses.filter((s) => s === 429).length, 15);
    for (const c of [env, b]) {
      const locked = await signIn(c, ADMIN.password, address);
      assert.equal(locked.status, 429, "the pair is locked on both instances");
      assert.ok(Number(locked.headers.get("retry-after")) > 1, "by the lockout, not by attempts in flight");
    }
  }));

Deno.test("several instances - a lockout counted on one instance holds on the other", () =>
  withEnv(async (env) => {
    const b = await env.instance();
    for (let i = 0; i < 5; i++) assert.equal((await signIn(env, "guess-" + i, "203.0.113.41")).status, 401);
    assert.equal((await signIn(b, ADMIN.password, "203.0.113.41")).status, 429);
    assert.equal((await signIn(b, ADMIN.password, "192.0.2.41")).status, 200, "another address signs in");
  }));

Deno.test("several instances - a session logged out on instance A is refused on instance B", () =>
  withEnv(async (env) => {
    const b = await env.instance();
    const token = await env.login();
    const kept = await b.login();
    await b.json("/api/admin/users/me", { token }); // B has verified (and remembers) the token
    assert.equal((await env.request("/api/logout", { method: "POST", token })).status, 204);
    await b.json("/api/admin/users/me", { token, status: 401 });
    await env.json("/api/admin/users/me", { token, status: 401 });
    await env.json("/api/admin/users/me", { token: kept });
  }));

Deno.test("several instances - logging out everywhere on B ends the sessions A signed in", () =>
  withEnv(async (env) => {
    const b = await env.instance();
    const { user, token } = await env.userWithToken({ permissions: ["inspector"] });
    await env.json("/api/admin/users/me", { token });
    await b.json("/api/admin/users/logout-everywhere", {
      method: "POST",
      token: await b.login(),
      json: { id: user.id },
    });
    await env.json("/api/admin/users/me", { token, status: 401 });
  }));

Deno.test("several instances - places held by an instance that died mid-check are given back after a minute", () =>
  withEnv(async (env) => {
    let now = Date.parse("2026-11-24T12:00:00Z");
    const crashed = new LoginThrottle(() => now);
    const attempt = { email: ADMIN.email, address: "203.0.113.42" };
    // Five attempts begun and never settled: the process died while checking their passwords.
    for (let i = 0; i < 5; i++) await crashed.begin(env.tenant, attempt);
    const survivor = new LoginThrottle(() => now);
    await assert.rejects(survivor.begin(env.tenant, attempt), /Too many/);
    now += 61_000;
    const ticket = await survivor.begin(env.tenant, attempt);
    await ticket.fail(true);
    for (let i = 0; i < 4; i++) await (await survivor.begin(env.tenant, attempt)).fail(true);
    await assert.rejects(survivor.begin(env.tenant, attempt), /Too many/, "five real failures lock the pair");
  }));
