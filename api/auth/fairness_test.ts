import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { type TestEnv, withEnv } from "../../scripts/testing/harness.ts";
import { makeUser } from "../../db/factories.ts";
import { hashingLoad, hashPassword, verifyPassword } from "../../lib/password.ts";
import { until } from "../../scripts/testing/until.ts";

/** A cost at which hashing is most of a sign-in (32 MB, 100-500 ms here). */
const N = 32768;

/**
 * `fn` with the tenants' files on tmpfs when there is one: this test measures password checks, and a synced
 * commit on a disk the rest of the machine also writes to would add its own noise to both figures.
 */
async function withEnvInMemory(fn: (env: TestEnv) => Promise<void>, env: Record<string, string>) {
  const dir = existsSync("/dev/shm") ? mkdtempSync("/dev/shm/bo-fair-") : undefined;
  try {
    await withEnv(fn, dir ? { ...env, DATA_DIR: dir } : env);
  } finally {
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

Deno.test("sign-in fairness - one tenant's flood of sign-ins keeps another tenant's under twice an idle one (times the machine's own contention), and is answered 429 at once", () =>
  withEnvInMemory(async (env) => {
    const beta = await env.addTenant("beta", "beta.test");
    const user = await makeUser(beta.db, { company_id: 1, password: "beta-pass-1", scryptN: N });
    const signInBeta = async () => {
      const start = performance.now();
      const res = await env.request("/api/login/access-token", {
        method: "POST",
        form: { username: user.email, password: "beta-pass-1" },
        host: "beta.test",
        headers: { "x-forwarded-for": "192.0.2.5" },
      });
      assert.equal(res.status, 200, await res.text());
      return performance.now() - start;
    };
    await signInBeta(); // the first one also sets up what every later one reuses

    // 40 connections on acme, each sending its next wrong sign-in as soon as the last is answered (after a
    // 429, once its Retry-After is over): made-up emails from their own addresses, so no counter delays or
    // refuses them and each costs a full check. (A client ignoring Retry-After would measure itself: it runs
    // on this process's one thread, the server's. The 429s it would get cost the server no hashing.)
    let stop = false;
    let paused: Promise<void> | undefined;
    let resume = () => {};
    const statuses: Record<number, number> = {};
    const flood = Array.from({ length: 40 }, async (_, i) => {
      for (let n = 0; !stop; n++) {
        if (paused) await paused;
        const res = await env.request("/api/login/access-token", {
          method: "POST",
          form: { username: `flood-${i}-${n}@x.test`, password: "wrong" },
          headers: { "x-forwarded-for": `198.51.100.${i}` },
        });
        await res.body?.cancel();
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        if (res.status === 429) {
          await new Promise((resolve) => setTimeout(resolve, 1000 * Number(res.headers.get("retry-after"))));
        }
      }
    });
    // Idle and flooded sign-ins taken in turn, so both meet the same load from the rest of the machine. Each
    // idle turn also times what two checks at once cost this machine right now against one (1 with a free
    // core for each; about 2 when the rest of the machine leaves this process one core).
    const probe = await hashPassword("probe", N, "probe");
    const check = async (lane: string) => {
      const start = performance.now();
      await verifyPassword("probe", probe, lane);
      return performance.now() - start;
    };
    const idle: number[] = [], flooded: number[] = [], together: number[] = [];
    try {
      for (let round = 0; round < 5; round++) {
        paused = new Promise((resolve) => resume = resolve);
        await until(() => hashingLoad().active === 0, "acme's checks end");
        idle.push(await signInBeta());
        const alone = await check("probe-1");
        together.push(Math.max(...await Promise.all([check("probe-1"), check("probe-2")])) / alone);
        const refused = statuses[429] ?? 0;
        paused = undefined;
        resume();
        // Acme's line full again, and the rest of the 40 told to come back (the burst of their answers over).
        await until(
          () => hashingLoad().waiting > 0 && (statuses[429] ?? 0) >= refused + 30,
          "the flood fills acme's line again",
        );
        flooded.push(await signInBeta());
        assert.ok(hashingLoad().active > 0, "acme's checks still run");
      }
    } finally {
      stop = true;
      paused = undefined;
      resume();
      await Promise.all(flood);
    }
    // Under twice an idle sign-in when the machine has a core for each check; when it has not, two checks
    // at once take `contention` times one, whoever's they are, and the bound grows with it. (With the former
    // shared queue beta's checks waited behind acme's 4 running and 16 queued, or were refused.)
    const ratio = median(flooded) / median(idle);
    const contention = Math.max(1, median(together));
    const figures = `idle ${idle.map(Math.round)} ms, flooded ${flooded.map(Math.round)} ms, ` +
      `two checks at once ${contention.toFixed(2)} times one, acme ${JSON.stringify(statuses)}`;
    console.log(figures);
    assert.ok(
      ratio < 2 * contention,
      `beta's sign-in under acme's flood took ${ratio.toFixed(2)} times an idle one: ${figures}`,
    );
    assert.ok((statuses[401] ?? 0) > 0, "the flood's passwords were checked");
    assert.ok((statuses[429] ?? 0) > (statuses[401] ?? 0), `most of the flood is refused: ${figures}`);
  }, { SCRYPT_N: String(N) }));
