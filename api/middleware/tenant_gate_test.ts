import assert from "node:assert/strict";
import { withEnv } from "../../scripts/testing/harness.ts";

Deno.test("tenant gate - a quiet tenant's request is answered among the first while another tenant floods the server", () =>
  withEnv(async (env) => {
    await env.addTenant("beta", "beta.test");
    const acme = await env.login();
    const beta = await env.login(undefined, undefined, "beta.test");
    const done: string[] = [];
    const flood = Array.from(
      { length: 150 },
      (_, i) =>
        env.request("/api/companies?rowsPerPage=25", { token: acme }).then(async (r) => {
          await r.body?.cancel();
          done.push(`acme ${i} ${r.status}`);
        }),
    );
    const quiet = env.request("/api/companies?rowsPerPage=25", { token: beta, host: "beta.test" }).then(
      async (r) => {
        await r.body?.cancel();
        done.push(`beta ${r.status}`);
      },
    );
    await Promise.all([...flood, quiet]);
    const at = done.indexOf("beta 200");
    assert.ok(at >= 0 && at < 10, `beta answered as number ${at + 1} of ${done.length}`);
    assert.equal(done.filter((d) => d.endsWith(" 200")).length, 151);
  }, { TENANT_CONCURRENCY: "1" }));

Deno.test("tenant gate - beyond the requests waiting their turn, 429 with Retry-After; the other tenant is served", () =>
  withEnv(async (env) => {
    await env.addTenant("beta", "beta.test");
    const acme = await env.login();
    const beta = await env.login(undefined, undefined, "beta.test");
    const answers = await Promise.all(Array.from({ length: 300 }, async () => {
      const r = await env.request("/api/companies", { token: acme });
      const body = r.status === 429 ? await r.json() : await r.body?.cancel();
      return { status: r.status, retry: r.headers.get("retry-after"), body };
    }));
    const refused = answers.filter((a) => a.status === 429);
    assert.ok(refused.length >= 40, `${refused.length} refused`);
    assert.equal(answers.filter((a) => a.status === 200).length + refused.length, 300);
    assert.equal(refused[0].retry, "1");
    assert.match(refused[0].body.detail, /Too many requests for this business/);
    await env.json("/api/companies", { token: beta, host: "beta.test" });
  }, { TENANT_CONCURRENCY: "1" }));
