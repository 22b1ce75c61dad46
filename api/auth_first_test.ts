import assert from "node:assert/strict";
import { withEnv } from "../scripts/testing/harness.ts";
import { routeTable } from "../scripts/testing/routes.ts";
import { PUBLIC_API } from "./middleware/require_session.ts";
import { MAX_BODY_BYTES } from "./middleware/body_limit.ts";

/** Path parameters filled with values no validator accepts. */
const badPath = (path: string, value: string) => path.replace(/:[A-Za-z_]+(\{[^}]*\})?/g, value);
const BAD_QUERY = "?page=zz&rowsPerPage=0&ticket_id=%00&id=-1&sortBy=%E2%80%AE&search=" + "x".repeat(3000);

/** The hostile requests every session route is sent signed out: each must answer 401, nothing else. */
interface Hostile {
  label: string;
  path: string;
  init: { method: string; headers?: Record<string, string>; body?: string };
}

function hostile(method: string, path: string): Hostile[] {
  const writes = method !== "GET";
  const json = (body: string, extra: Record<string, string> = {}): Hostile["init"] => ({
    method,
    headers: { "content-type": "application/json", ...extra },
    body,
  });
  const out: Hostile[] = [
    { label: "bad path and query", path: badPath(path, "x") + BAD_QUERY, init: { method } },
    { label: "huge path id", path: badPath(path, "99999999999999999999"), init: { method } },
    {
      label: "garbage Bearer token",
      path: badPath(path, "-1") + BAD_QUERY,
      init: { method, headers: { authorization: "Bearer not.a.token" } },
    },
    {
      label: "garbage session cookie",
      path: badPath(path, "0"),
      init: { method, headers: { cookie: "session=forged", origin: "http://acme.test" } },
    },
  ];
  if (!writes) return out;
  return [
    ...out,
    { label: "malformed JSON", path: badPath(path, "1"), init: json("{bad") },
    {
      label: "control characters",
      path: badPath(path, "1"),
      init: json(JSON.stringify({ a: "\u0000\u202e" })),
    },
    { label: "a list for an object", path: badPath(path, "1"), init: json("[1,2,3]") },
    {
      label: "over the body limit",
      path: badPath(path, "1"),
      init: json(JSON.stringify({ a: "x".repeat(MAX_BODY_BYTES + 10) })),
    },
    {
      label: "malformed multipart",
      path: badPath(path, "1"),
      init: {
        method,
        headers: { "content-type": "multipart/form-data; boundary=zz" },
        body: "--zz\r\nbroken",
      },
    },
    {
      label: "cross-site origin",
      path: badPath(path, "1"),
      init: json("{}", { origin: "http://evil.example", "sec-fetch-site": "cross-site" }),
    },
  ];
}

Deno.test("auth first - every API route but sign-in and sign-out answers 401 to a signed-out caller, whatever the input", () =>
  withEnv(async (env) => {
    const routes = routeTable(env.app).filter((r) => !PUBLIC_API.has(`${r.method} ${r.path}`));
    assert.ok(routes.length > 80, `only ${routes.length} routes`);
    const wrong: string[] = [];
    for (const r of routes) {
      for (const h of hostile(r.method, r.path)) {
        const headers = new Headers(h.init.headers);
        headers.set("host", env.host);
        const res = await env.app.request(`http://${env.host}${h.path}`, { ...h.init, headers });
        const body = await res.text();
        if (res.status !== 401) {
          wrong.push(`${r.method} ${r.path} (${h.label}): ${res.status} ${body.slice(0, 120)}`);
        } else assert.equal(JSON.parse(body).detail, "Not authenticated");
      }
    }
    assert.deepEqual(wrong, []);
  }));

Deno.test("auth first - an unknown API path is 401 signed out and 404 signed in; sign-in still validates its form", () =>
  withEnv(async (env) => {
    assert.equal((await env.json("/api/nowhere", { status: 401 })).detail, "Not authenticated");
    const token = await env.login();
    assert.equal((await env.json("/api/nowhere", { token, status: 404 })).detail, "No such API route.");
    const login = await env.json("/api/login/access-token", {
      method: "POST",
      form: { username: "a@b.test", password: "" },
      status: 422,
    });
    assert.equal(login.errors[0].path, "password");
    await env.json("/api/logout", { method: "POST", status: 204 });
  }));

Deno.test("auth first - signed in, the same bad inputs reach the validators (422) and the body limit (413)", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const bad = await env.json("/api/sales/items?page=zz", { token, status: 422 });
    assert.equal(bad.errors[0].path, "page");
    const large = await env.request("/api/sales/taxes", {
      method: "POST",
      token,
      json: { name: "x".repeat(MAX_BODY_BYTES + 10) },
    });
    assert.equal(large.status, 413, await large.text());
  }));
