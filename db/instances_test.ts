import assert from "node:assert/strict";
import { join } from "node:path";
import { withEnv } from "../scripts/testing/harness.ts";
import { isFileUrl, openClient } from "./client.ts";

/** Two app instances writing one tenant database (decision 019). */

const tax = (name: string) => ({ name, state: "TX", state_rate: 6.25 });

Deno.test("several instances - writes from two instances at once all land, none 5xx", () =>
  withEnv(async (env) => {
    const b = await env.instance();
    const [ta, tb] = [await env.login(), await b.login()];
    const rs = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        (i % 2 ? b : env).request("/api/sales/taxes", {
          method: "POST",
          token: i % 2 ? tb : ta,
          json: tax(`Tax ${i}`),
        })),
    );
    assert.deepEqual([...new Set(rs.map((r) => r.status))], [200]);
    const list = await env.json("/api/sales/taxes?limit=100", { token: ta });
    assert.equal(list.total, 60);
  }));

Deno.test("several instances - a list's total counts another instance's write at once", () =>
  withEnv(async (env) => {
    const b = await env.instance();
    const [ta, tb] = [await env.login(), await b.login()];
    await env.json("/api/sales/taxes", { method: "POST", token: ta, json: tax("First") });
    assert.equal((await env.json("/api/sales/taxes", { token: ta })).total, 1);
    assert.equal((await env.json("/api/sales/taxes", { token: ta })).total, 1, "answered from the cache");
    await b.json("/api/sales/taxes", { method: "POST", token: tb, json: tax("Second") });
    assert.equal((await env.json("/api/sales/taxes", { token: ta })).total, 2);
  }));

Deno.test({
  name: "several instances - a write waits out another process's lock without blocking, or answers 503",
  fn: () =>
    withEnv(async (env) => {
      const token = await env.login();
      assert.ok(isFileUrl(env.tenant.url));
      // Another process's writer, as the CLI or a second instance would hold it. Through the same SQLite
      // library as the server's (openClient): a second library in one process would not see its locks.
      const other = await openClient("file:" + join(env.dataDir, "tenants/acme.db"));
      try {
        const held = await other.transaction("write");
        let ticks = 0;
        const timer = setInterval(() => ticks++, 10);
        const pending = env.request("/api/sales/taxes", { method: "POST", token, json: tax("Waited") });
        await new Promise((r) => setTimeout(r, 300));
        await held.commit();
        const res = await pending;
        clearInterval(timer);
        assert.equal(res.status, 200, await res.clone().text());
        assert.ok(ticks >= 15, `the event loop kept turning while the write waited (${ticks} ticks)`);

        const stuck = await other.transaction("write");
        const t0 = performance.now();
        const refused = await env.request("/api/sales/taxes", {
          method: "POST",
          token,
          json: tax("Refused"),
        });
        await stuck.rollback();
        assert.equal(refused.status, 503);
        assert.equal(refused.headers.get("retry-after"), "1");
        assert.match((await refused.json()).detail, /busy .* nothing was saved/);
        assert.ok(performance.now() - t0 < 8000, "retries are bounded");
        const list = await env.json("/api/sales/taxes", { token });
        assert.deepEqual(list.results.map((r: { name: string }) => r.name), ["Waited"]);
      } finally {
        other.close();
      }
    }),
});
