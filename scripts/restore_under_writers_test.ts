import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { withEnv } from "./testing/harness.ts";
import { backupCommand } from "./tenant.ts";
import { companies } from "../db/schema/mod.ts";
import { until } from "./testing/until.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const WRITERS = 20;

interface Ack {
  name: string;
  status: number;
  /** when the answer arrived (performance.now()) */
  at: number;
}

Deno.test("restore under 20 writers - every write acknowledged after the swap is in the restored tenant", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const create = async (name: string): Promise<Ack> => {
      const res = await env.request("/api/companies", {
        method: "POST",
        token,
        json: { name, company_type: "customer_company" },
      });
      await res.body?.cancel();
      return { name, status: res.status, at: performance.now() };
    };
    assert.equal((await create("Before Backup")).status, 200);
    const backup = join(env.dataDir, "backup.db");
    await backupCommand(env.dataDir, "acme", backup);

    let stopAt = Infinity;
    const acks: Ack[][] = Array.from({ length: WRITERS }, () => []);
    const writers = acks.map(async (mine, w) => {
      for (let n = 0; performance.now() < stopAt; n++) mine.push(await create(`W${w}-${n}`));
    });
    // The moment this server first hands out the restored database: from then on every acknowledged
    // write must be in it (an observer on the cache, not a stand-in: the real cache answers).
    const before = (await env.services.catalog.bySlug("acme"))!.db_url;
    let swapped = Infinity;
    const cache = env.services.tenants;
    const acquire = cache.acquire.bind(cache);
    cache.acquire = async (t) => {
      const held = await acquire(t);
      if (swapped === Infinity && held.tdb.tenant.db_url !== before) swapped = performance.now();
      return held;
    };
    // Every writer has had writes acknowledged before the restore starts.
    await until(() => acks.every((mine) => mine.length >= 2), "every writer saving");
    // The real CLI, in its own process, as an operator runs it beside the server.
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "scripts/tenant.ts", "restore", "acme", "--from", backup],
      cwd: ROOT,
      env: { DATA_DIR: env.dataDir },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const exited = performance.now();
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    stopAt = exited + 400;
    await Promise.all(writers);
    assert.ok(
      swapped < exited,
      `the swap was seen (swapped ${swapped}, exited ${exited}, acks ${acks.flat().length}, statuses ${[
        ...new Set(acks.flat().map((a) => a.status)),
      ]})`,
    );

    const tdb = await env.services.tenants.get((await env.services.catalog.bySlug("acme"))!);
    const present = new Set(
      (await tdb.db.select({ name: companies.name }).from(companies)).map((c) => c.name),
    );
    assert.ok(present.has("Before Backup"));
    const all = acks.flat();
    const statuses = new Set(all.map((a) => a.status));
    assert.deepEqual(
      [...statuses].filter((s) => s !== 200 && s !== 503),
      [],
      "only saves and 'being restored'",
    );
    let afterSwap = 0;
    for (const mine of acks) {
      const ok = mine.filter((a) => a.status === 200);
      // Once one of a writer's saves is in the restored file, every later one is: none vanishes.
      const first = ok.findIndex((a) => present.has(a.name));
      assert.ok(first >= 0, "each writer saved into the restored tenant");
      const lost = ok.slice(first).filter((a) => !present.has(a.name)).map((a) => a.name);
      assert.deepEqual(lost, [], "acknowledged after the swap and lost");
      for (const a of ok.filter((a) => a.at > swapped)) {
        afterSwap++;
        assert.ok(present.has(a.name), `${a.name}, acknowledged after the swap, is lost`);
      }
    }
    assert.ok(afterSwap > WRITERS, `writes kept landing after the restore (${afterSwap})`);
  }));
