import assert from "node:assert/strict";
import { FairGate } from "./tenant_gate.ts";
import type { AppError } from "../../lib/errors.ts";
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

Deno.test("fair gate - at most `total` at once and `perTenant` per tenant; freed turns go to tenants in rotation", async () => {
  const gate = new FairGate(3, 2);
  let running = 0, most = 0;
  const perTenant = new Map<number, number>();
  const started: string[] = [];
  const release: (() => void)[] = [];
  const task = (tenant: number, name: string) =>
    gate.run(tenant, async () => {
      running++;
      most = Math.max(most, running);
      perTenant.set(tenant, (perTenant.get(tenant) ?? 0) + 1);
      assert.ok(perTenant.get(tenant)! <= 2, `tenant ${tenant} over its limit`);
      started.push(name);
      await new Promise<void>((r) => release.push(r));
      perTenant.set(tenant, perTenant.get(tenant)! - 1);
      running--;
    });
  // tenant 1 floods first; tenants 2 and 3 come after it with one request each
  const all = [
    ...Array.from({ length: 20 }, (_, i) => task(1, `a${i}`)),
    task(2, "b0"),
    task(3, "c0"),
  ];
  // The three free turns start from the event loop (a message turn, then timer turns, in either order on a busy
  // machine): waited for under a deadline, not for one timer's tick, which a loaded run overran.
  for (let i = 0; i < 200 && started.length < 3; i++) await new Promise((r) => setTimeout(r, 5));
  // Which requests hold the three turns, not the order they start in: the first free turn starts from a
  // message turn and the next two from timer turns, which a busy machine may run first.
  assert.deepEqual(
    [...started].sort(),
    ["a0", "a1", "b0"],
    "tenant 1 at its limit, so tenant 2 takes the third turn",
  );
  assert.equal(gate.load.waiting, 19);
  release.shift()!(); // a0 ends: tenant 3 is next in rotation, not tenant 1's backlog
  // A turn handed over starts from the event loop: waited for (up to a second on a busy machine, where 5 ms
  // once was not enough), then the one that started is checked.
  for (let i = 0; i < 200 && started.length < 4; i++) await new Promise((r) => setTimeout(r, 5));
  assert.deepEqual(started.slice(3), ["c0"]);
  while (release.length) {
    release.shift()!();
    await new Promise((r) => setTimeout(r, 5));
  }
  await Promise.all(all);
  assert.equal(most, 3);
  assert.equal(started.length, 22);
  assert.deepEqual(gate.load, { active: 0, waiting: 0, tenants: 0 });
});

Deno.test("fair gate - beyond maxWaiting a tenant's request is refused with 429 at once, others still queue", async () => {
  const gate = new FairGate(1, 1, 2);
  let open!: () => void;
  const first = gate.run(1, () => new Promise<void>((r) => open = r));
  const queued = [gate.run(1, async () => {}), gate.run(1, async () => {})];
  await assert.rejects(gate.run(1, async () => {}), (e: AppError) => e.status === 429);
  const other = gate.run(2, () => Promise.resolve("served"));
  // Turns start from the event loop: the first is running once a timer has fired.
  while (!open) await new Promise((r) => setTimeout(r, 0));
  open();
  await Promise.all([first, ...queued]);
  assert.equal(await other, "served");
});
