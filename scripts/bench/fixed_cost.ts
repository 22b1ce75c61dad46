/**
 * Fixed cost of an authenticated request: `GET /api/admin/users/me` with a Bearer token (tenant by host,
 * session verified, user loaded: every middleware, almost no handler) against a bare Hono handler served
 * by Deno.serve in its own process. Both are timed from the same load worker, one connection, in turn.
 */
import { DATA_DIR, latency, login, ms, type Options, PT, type Section, Server, startBare } from "./lib.ts";

export async function benchFixedCost(opts: Options, log: (s: string) => void): Promise<Section> {
  const n = opts.quick ? 300 : 3000;
  const server = new Server(DATA_DIR);
  await server.start();
  const bare = await startBare();
  try {
    log("fixed cost");
    const base = server.url(PT.host);
    const token = await login(base, PT.email);
    // Interleaved rounds, so a burst of load from elsewhere on the machine hits both alike.
    const app: number[] = [];
    const floor: number[] = [];
    let errors = 0;
    for (let round = 0; round < 3; round++) {
      const a = await latency(`${base}/api/admin/users/me`, token, n / 3);
      const f = await latency(`${bare.url}/x`, "none", n / 3);
      app.push(a.p50, a.p95);
      floor.push(f.p50, f.p95);
      errors += a.errors + f.errors;
    }
    const med = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
    const appP50 = med([app[0], app[2], app[4]]);
    const appP95 = med([app[1], app[3], app[5]]);
    const fP50 = med([floor[0], floor[2], floor[4]]);
    const fP95 = med([floor[1], floor[3], floor[5]]);
    return {
      title: "Fixed cost of an authenticated request",
      rows: [{
        measure: "GET /api/admin/users/me (Bearer) over a bare Hono handler",
        figure: `p50 ${ms(appP50)}, p95 ${ms(appP95)}: +${ms(appP50 - fP50)} at p50`,
        floor: `bare Hono: p50 ${ms(fP50)}, p95 ${ms(fP95)}`,
        budget: "< 1 ms above the bare handler (p50)",
        pass: appP50 - fP50 < 1 && !errors,
        note: `p95 difference ${ms(appP95 - fP95)}`,
      }],
      notes: [
        `${n} requests each, one connection, in three interleaved rounds (median of the rounds' figures)`,
      ],
    };
  } finally {
    await bare.stop();
    await server.stop();
  }
}
