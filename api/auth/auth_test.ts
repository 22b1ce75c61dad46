import assert from "node:assert/strict";
import { ADMIN, withEnv } from "../../scripts/testing/harness.ts";
import { makeUser } from "../../db/factories.ts";
import { users } from "../../db/schema/mod.ts";
import { eq } from "drizzle-orm";

Deno.test("login - right credentials answer a bearer token and an HttpOnly session cookie", () =>
  withEnv(async (env) => {
    const res = await env.request("/api/login/access-token", {
      method: "POST",
      form: { username: ADMIN.email, password: ADMIN.password },
    });
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.equal(body.token_type, "bearer");
    assert.ok(body.access_token.length > 20);
    const cookie = res.headers.get("set-cookie") ?? "";
    assert.match(cookie, /^session=/);
    assert.match(cookie, /HttpOnly/);
    assert.match(cookie, /SameSite=Lax/);
    const me = await env.json("/api/admin/users/me", { token: body.access_token });
    assert.equal(me.email, ADMIN.email);
    assert.equal(me.company.isOwner, true);
    assert.equal(me.company.company_type, "inspection_company");
    assert.ok(me.roles.includes("superuser"));
    assert.ok(me.roles.includes("approval-authority"));
    assert.equal(me.password_hash, undefined);
  }));

Deno.test("login - email is accepted in place of username, case-insensitively", () =>
  withEnv(async (env) => {
    const res = await env.json("/api/login/access-token", {
      method: "POST",
      form: { email: ADMIN.email.toUpperCase(), password: ADMIN.password },
    });
    assert.ok(res.access_token);
  }));

Deno.test("login - wrong password and unknown email answer 401 with the spec's detail", () =>
  withEnv(async (env) => {
    for (
      const form of [{ username: ADMIN.email, password: "nope-nope" }, {
        username: "who@x.test",
        password: "x",
      }]
    ) {
      const body = await env.json("/api/login/access-token", { method: "POST", form, status: 401 });
      assert.equal(body.detail, "Incorrect email or password");
    }
  }));

Deno.test("login - a missing password is 422 with a field error", () =>
  withEnv(async (env) => {
    const body = await env.json("/api/login/access-token", {
      method: "POST",
      form: { username: ADMIN.email },
      status: 422,
    });
    assert.equal(body.errors[0].path, "password");
  }));

Deno.test("login - repeated failures are throttled with 429 and Retry-After, even for the right password", () =>
  withEnv(async (env) => {
    for (let i = 0; i < 5; i++) {
      await env.json("/api/login/access-token", {
        method: "POST",
        form: { username: ADMIN.email, password: "bad" },
        status: 401,
      });
    }
    const res = await env.request("/api/login/access-token", {
      method: "POST",
      form: { username: ADMIN.email, password: ADMIN.password },
    });
    assert.equal(res.status, 429);
    assert.ok(Number(res.headers.get("retry-after")) > 0);
    assert.match((await res.json()).detail, /Too many/);
  }));

Deno.test("login - an inactive user cannot sign in", () =>
  withEnv(async (env) => {
    const u = await makeUser(env.tenant.db, { company_id: 1, active: false, password: "password123" });
    await env.json("/api/login/access-token", {
      method: "POST",
      form: { username: u.email, password: "password123" },
      status: 401,
    });
  }));

Deno.test("session - no token, a forged token and a garbage token are 401", () =>
  withEnv(async (env) => {
    await env.json("/api/admin/users/me", { status: 401 });
    await env.json("/api/admin/users/me", { token: "garbage", status: 401 });
    const token = await env.login();
    const [h, p] = token.split(".");
    await env.json("/api/admin/users/me", { token: `${h}.${p}.AAAA`, status: 401 });
  }));

Deno.test("session - a password change or deactivation ends existing sessions", () =>
  withEnv(async (env) => {
    const { user, token } = await env.userWithToken();
    await env.json("/api/admin/users/me", { token });
    await env.tenant.db.update(users).set({ session_version: user.session_version + 1 }).where(
      eq(users.id, user.id),
    );
    await env.json("/api/admin/users/me", { token, status: 401 });
    const { user: u2, token: t2 } = await env.userWithToken();
    await env.tenant.db.update(users).set({ active: false }).where(eq(users.id, u2.id));
    await env.json("/api/admin/users/me", { token: t2, status: 401 });
  }));

Deno.test("tenants - a session of tenant A presented to tenant B is 401", () =>
  withEnv(async (env) => {
    await env.addTenant("beta", "beta.test");
    const tokenA = await env.login();
    await env.json("/api/admin/users/me", { token: tokenA, host: "beta.test", status: 401 });
    const tokenB = await env.login(ADMIN.email, ADMIN.password, "beta.test");
    const meB = await env.json("/api/admin/users/me", { token: tokenB, host: "beta.test" });
    assert.equal(meB.company.name, "Beta Inspections");
    await env.json("/api/admin/users/me", { token: tokenB, status: 401 });
  }));

Deno.test("tenants - an unknown host is 404; localhost falls back only when one tenant exists", () =>
  withEnv(async (env) => {
    const res = await env.request("/api/admin/users/me", { host: "nobody.test" });
    assert.equal(res.status, 404);
    const token = await env.login(ADMIN.email, ADMIN.password, "localhost:8000");
    await env.json("/api/admin/users/me", { token, host: "localhost" });
    await env.addTenant("beta", "beta.test");
    assert.equal((await env.request("/api/admin/users/me", { token, host: "localhost" })).status, 404);
  }));

Deno.test("logout - clears the cookie and answers 204", () =>
  withEnv(async (env) => {
    const res = await env.request("/api/logout", { method: "POST" });
    assert.equal(res.status, 204);
    assert.match(res.headers.get("set-cookie") ?? "", /session=;/);
  }));

Deno.test("csrf - a cookie-authenticated write from another origin is 403; same origin passes", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const cookie = `session=${token}`;
    const evil = await env.request("/api/logout", {
      method: "POST",
      cookie,
      headers: { origin: "http://evil.test" },
    });
    assert.equal(evil.status, 403);
    const none = await env.request("/api/logout", { method: "POST", headers: { cookie } });
    assert.equal(none.status, 403);
    const ok = await env.request("/api/logout", { method: "POST", cookie });
    assert.equal(ok.status, 204);
  }));

Deno.test("errors - malformed JSON is 400 and unknown API routes 404, both with a detail", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const r404 = await env.json("/api/nothing-here", { token, status: 404 });
    assert.ok(r404.detail);
  }));
