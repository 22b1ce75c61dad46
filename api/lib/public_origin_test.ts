import assert from "node:assert/strict";
import { ADMIN, withEnv } from "../../scripts/testing/harness.ts";
import { requestOrigin, servedOverHttps } from "./public_origin.ts";

/** A request as the routes see it: its URL and headers. */
const req = (url: string, headers: Record<string, string> = {}) => ({
  req: { url, header: (name: string) => new Headers(headers).get(name) ?? undefined },
});

Deno.test("public origin - https when this server's URL is, or the proxy's first X-Forwarded-Proto says so", () => {
  const cases: [ReturnType<typeof req>, boolean, string][] = [
    [req("http://acme.test/x", { host: "acme.test" }), false, "http://acme.test"],
    [req("https://acme.test/x", { host: "acme.test" }), true, "https://acme.test"],
    [req("http://acme.test:8000/x", { host: "acme.test:8000" }), false, "http://acme.test:8000"],
    [
      req("http://acme.test/x", { host: "acme.test", "x-forwarded-proto": "https" }),
      true,
      "https://acme.test",
    ],
    [
      req("http://acme.test/x", { host: "acme.test", "x-forwarded-proto": " HTTPS , http" }),
      true,
      "https://acme.test",
    ],
    [
      req("http://acme.test/x", { host: "acme.test", "x-forwarded-proto": "http, https" }),
      false,
      "http://acme.test",
    ],
    [req("http://10.0.0.5:8000/x", { host: "pt.example.com" }), false, "http://pt.example.com"],
  ];
  for (const [c, https, origin] of cases) {
    assert.equal(servedOverHttps(c), https, c.req.url);
    assert.equal(requestOrigin(c), origin, c.req.url);
  }
});

Deno.test("public origin - the session cookie is Secure on the same rule as the labels' scheme", () =>
  withEnv(async (env) => {
    const signIn = async (headers: Record<string, string>) => {
      const res = await env.request("/api/login/access-token", {
        method: "POST",
        form: { username: ADMIN.email, password: ADMIN.password },
        headers,
      });
      assert.equal(res.status, 200);
      await res.arrayBuffer();
      return res.headers.getSetCookie().find((c) => c.startsWith("session="))!;
    };
    assert.doesNotMatch(await signIn({}), /;\s*Secure/i);
    assert.match(await signIn({ "x-forwarded-proto": "https, http" }), /;\s*Secure/i);
  }));
