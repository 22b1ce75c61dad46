import assert from "node:assert/strict";
import { withEnv } from "../../scripts/testing/harness.ts";
import { makeTicket } from "../../db/factories.ts";
import { CONTENT_SECURITY_POLICY } from "./security_headers.ts";

const expectHeaders = (res: Response, what: string) => {
  const h = res.headers;
  assert.equal(h.get("content-security-policy"), CONTENT_SECURITY_POLICY, what);
  assert.match(h.get("content-security-policy")!, /frame-ancestors 'none'/);
  assert.match(h.get("content-security-policy")!, /script-src 'self'(;|$)/, `${what}: no inline scripts`);
  assert.equal(h.get("x-frame-options"), "DENY", what);
  assert.equal(h.get("x-content-type-options"), "nosniff", what);
  assert.equal(h.get("referrer-policy"), "same-origin", what);
};

Deno.test("security headers - on pages, JSON, files, assets and errors; HSTS only over https", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const cookie = `session=${token}`;
    const ticket = await makeTicket(env.tenant.db);
    const asset = (await (await env.request("/signin")).text()).match(/src="(\/assets\/[^"]+\.js)"/)![1];
    const answers: [string, Response][] = [
      ["sign-in page", await env.request("/signin")],
      ["shell page", await env.request("/", { cookie })],
      ["page not found", await env.request("/no/such/page", { cookie })],
      ["JSON", await env.request("/api/admin/users/me", { token })],
      ["JSON 401", await env.request("/api/admin/users/me")],
      ["JSON 422", await env.request("/api/sales/tickets?page=abc", { token })],
      ["JSON 404", await env.request("/api/sales/tickets/999999", { token })],
      ["PDF", await env.request(`/api/sales/ticketpdf?ticket_id=${ticket.id}&type=ticket`, { token })],
      ["xlsx", await env.request("/api/sales/sales/download", { token })],
      ["asset", await env.request(asset)],
      ["healthz", await env.request("/healthz")],
    ];
    for (const [what, res] of answers) {
      expectHeaders(res, what);
      assert.equal(res.headers.get("strict-transport-security"), null, `${what}: no HSTS over http`);
      await res.arrayBuffer();
    }
    const proxied = await env.request("/signin", { headers: { "x-forwarded-proto": "https" } });
    assert.match(proxied.headers.get("strict-transport-security")!, /max-age=31536000/);
    await proxied.body?.cancel();
  }));
