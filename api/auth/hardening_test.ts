import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { SignJWT } from "jose";
import { ADMIN, type TestEnv, withEnv } from "../../scripts/testing/harness.ts";
import { makeUser } from "../../db/factories.ts";
import { users } from "../../db/schema/mod.ts";
import { DELAYS, LoginThrottle, WAITING_PER_TENANT } from "./throttle.ts";
import { HASHING } from "../../lib/password.ts";

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
    // One tenant runs at most all but one of the process's checks and queues a few more (HASHING).
    const room = HASHING.perTenant + HASHING.waitingPerTenant;
    assert.ok(
      (s[429] ?? 0) >= 30 - room,
      `beyond ${room} the tenant's attempts are refused: ${JSON.stringify(s)}`,
    );
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

/**
 * Swaps in a throttle whose delays are recorded and not waited out, so a test sees the delay each sign-in
 * would wait without taking it (the rules are the server's own).
 */
function recordDelays(env: TestEnv): number[] {
  const delays: number[] = [];
  env.services.throttle = new LoginThrottle(Date.now, {
    sleep: (ms) => {
      delays.push(ms);
      return Promise.resolve();
    },
  });
  return delays;
}

const deviceOf = (res: Response) => /device=([^;]+)/.exec(res.headers.get("set-cookie") ?? "")?.[1];

Deno.test("login throttle - made-up emails from a shared address neither lock out nor slow down its real users", () =>
  withEnv(async (env) => {
    const delays = recordDelays(env);
    const office = "192.0.2.200";
    // More than the old cap per address (100), each email far from its own delay.
    for (let i = 0; i < 110; i++) {
      assert.equal((await signIn(env, `made-up-${i}@x.test`, "nope", office)).status, 401);
    }
    assert.equal((await signIn(env, ADMIN.email, ADMIN.password, office)).status, 200);
    assert.deepEqual(delays, [], "no attempt waited: unknown emails never count against the address");
  }));

Deno.test("login throttle - an account attacked from 10 addresses: a new browser is slowed down, not locked out; a known one is neither", () =>
  withEnv(async (env) => {
    const delays = recordDelays(env);
    const first = await signIn(env, ADMIN.email, ADMIN.password, "192.0.2.30");
    const device = deviceOf(first);
    assert.ok(device, "a device cookie is set on sign-in");
    for (let a = 0; a < 10; a++) {
      for (let i = 0; i < 5; i++) await signIn(env, ADMIN.email, `guess-${a}-${i}`, `203.0.113.${a}`);
    }
    assert.ok(delays.length > 0, "the attacker's own later attempts wait");
    delays.length = 0;
    const fresh = await signIn(env, ADMIN.email, ADMIN.password, "192.0.2.31");
    assert.equal(fresh.status, 200, "the owner on a new browser signs in");
    assert.deepEqual(delays, [DELAYS.account.cap], "after a delay that grew to its cap (50 failures)");
    delays.length = 0;
    const known = await signIn(env, ADMIN.email, ADMIN.password, "192.0.2.30", {
      cookie: `device=${device}`,
    });
    assert.equal(known.status, 200);
    assert.deepEqual(delays, [], "a browser that signed in before does not wait");
  }));

Deno.test("login throttle - a flooded address slows a new browser down and locks no one out; a known browser does not wait", () =>
  withEnv(async (env) => {
    const delays = recordDelays(env);
    const office = "192.0.2.201";
    const first = await signIn(env, ADMIN.email, ADMIN.password, office);
    assert.equal(first.status, 200);
    const device = deviceOf(first);
    assert.ok(device, "a device cookie is set on sign-in");
    // Wrong passwords on 10 real accounts from the office: each pair locks after 5, the address counts 50.
    for (let u = 0; u < 10; u++) {
      const { email } = await makeUser(env.tenant.db, { company_id: 1 });
      for (let i = 0; i < 5; i++) assert.equal((await signIn(env, email, "nope", office)).status, 401);
    }
    delays.length = 0;
    const fresh = await signIn(env, ADMIN.email, ADMIN.password, office);
    assert.equal(fresh.status, 200, "a new browser at the address signs in");
    assert.deepEqual(delays, [DELAYS.address.cap], "after the address's delay, grown to its cap");
    delays.length = 0;
    const known = await signIn(env, ADMIN.email, ADMIN.password, office, { cookie: `device=${device}` });
    assert.equal(known.status, 200, "the known browser signs in");
    assert.deepEqual(delays, [], "without waiting");
  }));

Deno.test("login throttle - a real email and a made-up one are slowed down alike (the delay tells no account apart)", () =>
  withEnv(async (env) => {
    const delays = recordDelays(env);
    const waits: Record<string, number[]> = {};
    for (const email of [ADMIN.email, "nobody-here@acme.test"]) {
      delays.length = 0;
      // From a new address each time: no pair locks, and no address counts more than one failure.
      for (let i = 0; i < 20; i++) {
        assert.equal((await signIn(env, email, "wrong", `198.18.${email.length}.${i}`)).status, 401);
      }
      waits[email] = [...delays];
    }
    assert.deepEqual(waits[ADMIN.email], waits["nobody-here@acme.test"]);
    assert.deepEqual(waits[ADMIN.email].slice(0, 3), [1000, 1000, 1000], "from the 11th failure on");
  }));

Deno.test("login throttle - few attempts of a tenant wait out a delay at once: the next is 429 at once, other tenants go on", () =>
  withEnv(async (env) => {
    await env.addTenant("beta", "beta.test");
    const held: (() => void)[] = [];
    let instant = true;
    env.services.throttle = new LoginThrottle(Date.now, {
      sleep: () => instant ? Promise.resolve() : new Promise<void>((resolve) => held.push(resolve)),
    });
    // 15 failures on the account: every new browser's attempt now waits 2 s.
    for (let i = 0; i < 15; i++) await signIn(env, ADMIN.email, "wrong", `198.18.1.${i}`);
    instant = false;
    const waiting = Array.from(
      { length: WAITING_PER_TENANT },
      (_, i) => signIn(env, ADMIN.email, ADMIN.password, `198.18.2.${i}`),
    );
    const deadline = Date.now() + 10_000;
    while (held.length < WAITING_PER_TENANT && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    assert.equal(held.length, WAITING_PER_TENANT, "each is waiting out its delay");
    const refused = await signIn(env, ADMIN.email, ADMIN.password, "198.18.2.99");
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get("retry-after"), "2");
    assert.match((await refused.json()).detail, /waiting/);
    const other = await env.request("/api/login/access-token", {
      method: "POST",
      form: { username: ADMIN.email, password: ADMIN.password },
      host: "beta.test",
    });
    assert.equal(other.status, 200, "another tenant's sign-in does not wait");
    for (const release of held) release();
    assert.deepEqual((await Promise.all(waiting)).map((r) => r.status), waiting.map(() => 200));
  }));

Deno.test("tokens - a session token without an expiry is refused; the same with one is accepted", () =>
  withEnv(async (env) => {
    const [admin] = await env.tenant.db.select().from(users).where(eq(users.email, ADMIN.email));
    const secret = new TextEncoder().encode(env.services.config.SESSION_SECRET!);
    const claims = { tid: env.tenant.tenant.id, ver: admin.session_version, sid: crypto.randomUUID() };
    const forever = await new SignJWT(claims).setProtectedHeader({ alg: "HS256" }).setSubject(
      String(admin.id),
    )
      .setIssuedAt().sign(secret);
    await env.json("/api/admin/users/me", { token: forever, status: 401 });
    const expiring = await new SignJWT(claims).setProtectedHeader({ alg: "HS256" }).setSubject(
      String(admin.id),
    )
      .setIssuedAt().setExpirationTime("1h").sign(secret);
    assert.equal((await env.json("/api/admin/users/me", { token: expiring })).email, ADMIN.email);
  }));

Deno.test("tokens - the device cookie reads as nothing; an old signed one (with the email in clear) is not trusted", () =>
  withEnv(async (env) => {
    const address = "192.0.2.77";
    const first = await signIn(env, ADMIN.email, ADMIN.password, address);
    const device = deviceOf(first)!;
    assert.equal(device.split(".").length, 5, "an encrypted token (JWE)");
    const [header, ...rest] = device.split(".").map((part) =>
      new TextDecoder().decode(
        Uint8Array.from(atob(part.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0)),
      )
    );
    assert.deepEqual(JSON.parse(header), { alg: "dir", enc: "A256GCM" });
    for (const part of rest) {
      for (const text of [ADMIN.email, "admin", "acme", `"tid"`, `"did"`]) {
        assert.ok(!part.includes(text), text);
      }
    }
    assert.match(first.headers.get("set-cookie") ?? "", /device=[^;]+;.*HttpOnly/);
    // The old kind: signed, not encrypted, the email readable in it.
    const secret = new TextEncoder().encode(env.services.config.SESSION_SECRET!);
    const old = await new SignJWT({
      typ: "device",
      tid: env.tenant.tenant.id,
      email: ADMIN.email,
      did: "old",
    })
      .setProtectedHeader({ alg: "HS256" }).setIssuedAt().setExpirationTime("180d").sign(secret);
    for (let i = 0; i < 5; i++) await signIn(env, ADMIN.email, "guess-" + i, address);
    const withOld = await signIn(env, ADMIN.email, ADMIN.password, address, { cookie: `device=${old}` });
    assert.equal(withOld.status, 429, "an old device cookie is a new browser: the locked pair holds");
    const withNew = await signIn(env, ADMIN.email, ADMIN.password, address, { cookie: `device=${device}` });
    assert.equal(withNew.status, 200, "the current device cookie keeps its own allowance");
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
