import assert from "node:assert/strict";
import { ADMIN, type TestEnv, withEnv } from "../../scripts/testing/harness.ts";

/** A sign-in from one address (the harness has no socket: the forwarded address stands in). */
function signIn(
  env: TestEnv,
  email: string,
  password: string,
  address: string,
  extra: Record<string, string> = {},
) {
  return env.request("/api/login/access-token", {
    method: "POST",
    form: { username: email, password },
    headers: { "x-forwarded-for": address, ...extra },
  });
}

const statuses = (rs: Response[]) => {
  const out: Record<number, number> = {};
  for (const r of rs) out[r.status] = (out[r.status] ?? 0) + 1;
  return out;
};

Deno.test("login throttle - 30 parallel wrong passwords to one account: 5 are checked, the rest 429", () =>
  withEnv(async (env) => {
    const rs = await Promise.all(
      Array.from({ length: 30 }, () => signIn(env, ADMIN.email, "wrong-password", "203.0.113.9")),
    );
    assert.deepEqual(statuses(rs), { 401: 5, 429: 25 });
  }));

Deno.test("login throttle - password checks are bounded process-wide: a flood beyond the queue is 429 at once", () =>
  withEnv(async (env) => {
    // Unknown accounts from distinct addresses: no per-account or per-address limit applies, and each
    // costs a full scrypt check at the production cost.
    const rs = await Promise.all(
      Array.from({ length: 30 }, (_, i) => signIn(env, `nobody${i}@x.test`, "wrong", `198.51.100.${i}`)),
    );
    const s = statuses(rs);
    assert.equal((s[401] ?? 0) + (s[429] ?? 0), 30, JSON.stringify(s));
    assert.ok((s[429] ?? 0) >= 5, `beyond 4 running and 16 waiting some are refused: ${JSON.stringify(s)}`);
    const busy = rs.find((r) => r.status === 429)!;
    assert.equal(busy.headers.get("retry-after"), "1");
    assert.match((await busy.json()).detail, /busy/);
  }, { SCRYPT_N: "131072", TENANT_CONCURRENCY: "100", SERVER_CONCURRENCY: "100" }));

Deno.test("login throttle - an attacker's failures from elsewhere do not lock the owner out", () =>
  withEnv(async (env) => {
    for (let i = 0; i < 6; i++) await signIn(env, ADMIN.email, "guess-" + i, "203.0.113.66");
    const locked = await signIn(env, ADMIN.email, ADMIN.password, "203.0.113.66");
    assert.equal(locked.status, 429, "the guessing address is held back");
    assert.ok(Number(locked.headers.get("retry-after")) <= 60, "for a minute, not a quarter of an hour");
    const owner = await signIn(env, ADMIN.email, ADMIN.password, "192.0.2.10");
    assert.equal(owner.status, 200, "the owner at their own address signs in");
  }));

Deno.test("login throttle - made-up emails from a shared address do not lock its other users out", () =>
  withEnv(async (env) => {
    const office = "192.0.2.200";
    for (let i = 0; i < 25; i++) {
      assert.equal((await signIn(env, `made-up-${i}@x.test`, "nope", office)).status, 401);
    }
    assert.equal((await signIn(env, ADMIN.email, ADMIN.password, office)).status, 200);
  }));

Deno.test("login throttle - a browser that signed in before keeps its own allowance when the address is flooded", () =>
  withEnv(async (env) => {
    const office = "192.0.2.201";
    const first = await signIn(env, ADMIN.email, ADMIN.password, office);
    assert.equal(first.status, 200);
    const device = /device=([^;]+)/.exec(first.headers.get("set-cookie") ?? "")?.[1];
    assert.ok(device, "a device cookie is set on sign-in");
    for (let i = 0; i < 110; i++) await signIn(env, `spray-${i}@x.test`, "nope", office);
    assert.equal(
      (await signIn(env, ADMIN.email, ADMIN.password, office)).status,
      429,
      "the address is capped",
    );
    const known = await signIn(env, ADMIN.email, ADMIN.password, office, { cookie: `device=${device}` });
    assert.equal(known.status, 200, "the known browser still signs in");
  }));

Deno.test("login csrf - a cross-site sign-in form post is refused and sets no cookie", () =>
  withEnv(async (env) => {
    for (const path of ["/signin", "/api/login/access-token"]) {
      const forged: Record<string, string>[] = [
        { origin: "http://evil.test" },
        { origin: "null" },
        { "sec-fetch-site": "cross-site" },
      ];
      for (const headers of forged) {
        const res = await env.request(path, {
          method: "POST",
          form: { email: ADMIN.email, username: ADMIN.email, password: ADMIN.password },
          headers,
        });
        assert.equal(res.status, 403, `${path} ${JSON.stringify(headers)}`);
        assert.equal(res.headers.get("set-cookie"), null);
      }
    }
    const same = await env.request("/signin", {
      method: "POST",
      form: { email: ADMIN.email, password: ADMIN.password },
      headers: { origin: "http://acme.test" },
    });
    assert.equal(same.status, 303);
  }));

Deno.test("logout - the token and cookie it ends answer 401 afterwards; other sessions go on", () =>
  withEnv(async (env) => {
    const kept = await env.login();
    const bearer = await env.login();
    assert.equal((await env.request("/api/logout", { method: "POST", token: bearer })).status, 204);
    await env.json("/api/admin/users/me", { token: bearer, status: 401 });
    const cookieToken = await env.login();
    const cookie = `session=${cookieToken}`;
    await env.json("/api/admin/users/me", { cookie });
    const out = await env.request("/signout", { method: "POST", cookie });
    assert.equal(out.status, 303);
    await env.json("/api/admin/users/me", { cookie, status: 401 });
    await env.json("/api/admin/users/me", { token: cookieToken, status: 401 });
    await env.json("/api/admin/users/me", { token: kept });
  }));

Deno.test("logout everywhere - a user-admin ends every session of a user; others need user-admin", () =>
  withEnv(async (env) => {
    const admin = await env.login();
    const { user, token: t1 } = await env.userWithToken({ permissions: ["inspector"] });
    const t2 = await env.login(user.email, "password123");
    const other = await env.userWithToken({ permissions: ["inspector"] });
    await env.json("/api/admin/users/logout-everywhere", {
      method: "POST",
      token: t1,
      json: { id: other.user.id },
      status: 403,
    });
    const done = await env.json("/api/admin/users/logout-everywhere", {
      method: "POST",
      token: admin,
      json: { id: user.id },
    });
    assert.match(done.message, /signed out everywhere/);
    await env.json("/api/admin/users/me", { token: t1, status: 401 });
    await env.json("/api/admin/users/me", { token: t2, status: 401 });
    await env.json("/api/admin/users/me", { token: other.token });
    await env.login(user.email, "password123");
  }));
