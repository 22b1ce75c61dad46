import assert from "node:assert/strict";
import { withEnv } from "../../scripts/testing/harness.ts";
import { makeUser } from "../../db/factories.ts";
import { hashingLoad } from "../../lib/password.ts";

/** A cost at which hashing is most of a sign-in (32 MB, 100-500 ms here). */
const N = 32768;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Waits for `ready()` under a deadline, a timer turn at a time. */
async function until(ready: () => boolean, what: string, ms = 30_000) {
  const deadline = Date.now() + ms;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

Deno.test("sign-in fairness - one tenant's flood of sign-ins keeps another tenant's under twice an idle one, and is answered 429 at once", () =>
  withEnv(async (env) => {
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
    // Idle and flooded sign-ins taken in turn, so both meet the same load from the rest of the machine.
    const idle: number[] = [], flooded: number[] = [];
    try {
      for (let round = 0; round < 5; round++) {
        paused = new Promise((resolve) => resume = resolve);
        await until(() => hashingLoad().active === 0, "acme's checks end");
        idle.push(await signInBeta());
        paused = undefined;
        resume();
        await until(() => hashingLoad().waiting > 0, "the flood fills acme's line again");
        flooded.push(await signInBeta());
        assert.ok(hashingLoad().active > 0, "acme's checks still run");
      }
    } finally {
      stop = true;
      paused = undefined;
      resume();
      await Promise.all(flood);
    }
    const ratio = median(flooded) / median(idle);
    const figures = `idle ${idle.map(Math.round)} ms, flooded ${flooded.map(Math.round)} ms, ` +
      `acme ${JSON.stringify(statuses)}`;
    console.log(figures);
    assert.ok(
      ratio < 2,
      `beta's sign-in under acme's flood took ${ratio.toFixed(2)} times an idle one: ${figures}`,
    );
    assert.ok((statuses[401] ?? 0) > 0, "the flood's passwords were checked");
    assert.ok((statuses[429] ?? 0) > (statuses[401] ?? 0), `most of the flood is refused: ${figures}`);
  }, { SCRYPT_N: String(N) }));
