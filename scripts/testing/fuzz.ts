// The API fuzzer: random, seeded requests at every write route of the app's route table, asserting the
// server never answers 5xx (bad input is the caller's fault: 4xx). Used by api/fuzz*_test.ts.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { makeUser } from "../../db/factories.ts";
import { ALL_GRANTS } from "../../lib/policy.ts";
import { type TestEnv, withEnv } from "./harness.ts";
import { type RouteEntry, writeRoutes } from "./routes.ts";
import { mulberry32, randomBody, randomId, type Rng } from "./fuzz_values.ts";
import { fuzzSamples } from "./fuzz_samples.ts";
import { seedFuzzData } from "./fuzz_seed.ts";
import assert from "node:assert/strict";

/** Routes the fuzzer leaves alone: sign-in and sign-out, and the multipart uploads. */
export const SKIPPED = new Set([
  "POST /api/login/access-token",
  "POST /api/logout",
  "POST /api/sales/batch/parse",
  "POST /api/sales/sales/:id/attachment",
  "POST /api/pt/inspections/:id/photos",
  "PUT /api/pt/inspections/:id/signature",
]);

/**
 * withEnv with the tenant on tmpfs when there is one: most fuzzed writes that pass validation commit,
 * and a synced commit on disk costs ~15 ms, which would make 1,000 requests a route take minutes. The
 * fuzzer looks for answers to bad input, not durability, which the other tests cover on disk.
 */
export async function withFuzzEnv(fn: (env: TestEnv) => Promise<void>) {
  const dir = existsSync("/dev/shm") ? mkdtempSync("/dev/shm/bo-fuzz-") : undefined;
  try {
    await withEnv(fn, dir ? { DATA_DIR: dir } : undefined);
  } finally {
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

/** The fuzz files' shares of the route table, by path: each write route falls in exactly one. */
export const AREAS: Record<string, (path: string) => boolean> = {
  "administration and pressure testing": (path) => !path.startsWith("/api/sales/"),
  "sales catalogue": (path) =>
    /^\/api\/sales\/(items|taxes|categories|sub_categories|templates)\b/.test(path),
  "sales stock": (path) => /^\/api\/sales\/(inventory|sales\/reclass)\b/.test(path),
  "sales tickets": (path) => /^\/api\/sales\/(tickets|rejections|sales(?!\/reclass))\b/.test(path),
};

/** `FUZZ_SEED` replays a run; otherwise a fresh seed, printed so a failure can be replayed. */
export function fuzzSeed(): number {
  const fixed = Deno.env.get("FUZZ_SEED");
  const seed = fixed ? Number(fixed) >>> 0 : (Math.random() * 2 ** 32) >>> 0;
  console.log("fuzz seed", seed);
  return seed;
}

/** Requests per route: `FUZZ_REQUESTS`, default 1000. */
export const fuzzRequests = () => Number(Deno.env.get("FUZZ_REQUESTS") || 1000);

export interface Failure {
  route: string;
  url: string;
  status: number;
  body: string;
  answer: string;
}

/** A fuzzing session: a tenant admin of its own (the fuzzer may edit the seeded admin) and a token. */
async function fuzzer(env: TestEnv) {
  const password = "fuzz-pass-1";
  const user = await makeUser(env.tenant.db, {
    company_id: 1,
    account_type: "Company-Admin",
    permissions: [...ALL_GRANTS],
    password,
  });
  let token = await env.login(user.email, password);
  return {
    user,
    get token() {
      return token;
    },
    /** A write may end the session (logout everywhere): sign in again. */
    async renew() {
      token = await env.login(user.email, password);
    },
  };
}

/** Keeps the fuzzer's own account out of user edits and deletes, so its session survives. */
function guard(body: unknown, selfId: number): unknown {
  if (body && typeof body === "object" && !Array.isArray(body)) {
    const b = body as Record<string, unknown>;
    if (b.id === selfId || b.id === String(selfId)) return { ...b, id: selfId + 1 };
  }
  return body;
}

interface Payload {
  text?: string;
  type?: string;
  shown: string;
}

/** Mostly JSON; sometimes malformed JSON, an empty body, form-encoded or plain text. */
function payload(rng: Rng, body: unknown): Payload {
  const r = rng();
  if (r < 0.03) return { text: '{"a": [1, 2', type: "application/json", shown: "malformed JSON" };
  if (r < 0.05) return { shown: "no body" };
  if (r < 0.07) return { text: "a=1&b=%00", type: "application/x-www-form-urlencoded", shown: "form" };
  if (r < 0.08) return { text: "hello", type: "text/plain", shown: "text" };
  const text = JSON.stringify(body) ?? "null";
  return { text, type: "application/json", shown: text.length > 400 ? `${text.slice(0, 400)}...` : text };
}

/**
 * Sends `n` fuzzed requests to each route (path ids random, bodies from `samples`) and answers every
 * 5xx seen. `samples` holds a valid-looking body per "METHOD path", mutated one field at a time.
 */
export async function fuzzRoutes(
  env: TestEnv,
  routes: RouteEntry[],
  samples: Record<string, unknown>,
  rng: Rng,
  n = fuzzRequests(),
): Promise<{ failures: Failure[]; requests: number }> {
  const session = await fuzzer(env);
  const failures: Failure[] = [];
  let requests = 0;
  for (const route of routes) {
    const key = `${route.method} ${route.path}`;
    const started = performance.now();
    const statuses: Record<number, number> = {};
    let previous: unknown;
    for (let i = 0; i < n; i++) {
      const path = route.path.replace(/:id\b/g, () => String(randomId(rng)));
      // Now and then the same body twice: a value stored otherwise than it is looked up (a NUL the
      // database cut off) meets its own unique index on the second save.
      let body = i > 0 && rng() < 0.1 ? previous : randomBody(rng, samples[key]);
      previous = body;
      if (route.path.startsWith("/api/admin/users")) body = guard(body, session.user.id);
      const p = payload(rng, body);
      const headers: Record<string, string> = { host: env.host, authorization: `Bearer ${session.token}` };
      if (p.type) headers["content-type"] = p.type;
      const res = await env.app.request(`http://${env.host}${path}`, {
        method: route.method,
        headers,
        body: p.text,
      });
      const answer = await res.text();
      requests++;
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      if (res.status >= 500) {
        failures.push({
          route: key,
          url: path,
          status: res.status,
          body: p.shown,
          answer: answer.slice(0, 300),
        });
      }
      if (res.status === 401) await session.renew();
    }
    if (Deno.env.get("FUZZ_VERBOSE")) {
      console.log(key, `${Math.round(performance.now() - started)} ms`, JSON.stringify(statuses));
    }
  }
  return { failures, requests };
}

/**
 * The write routes of the app the fuzzer covers in one of AREAS, deletes last: random ids would
 * otherwise remove the seeded rows before the other routes could reach them.
 */
export function fuzzedRoutes(env: TestEnv, area: keyof typeof AREAS): RouteEntry[] {
  const routes = writeRoutes(env.app).filter((r) =>
    !SKIPPED.has(`${r.method} ${r.path}`) && AREAS[area](r.path)
  );
  return [...routes.filter((r) => r.method !== "DELETE"), ...routes.filter((r) => r.method === "DELETE")];
}

/** A readable report of the 5xx found: one line per distinct route and answer, with an example. */
export function describe(failures: Failure[]): string {
  const seen = new Map<string, Failure & { count: number }>();
  for (const f of failures) {
    const k = `${f.route} ${f.status}`;
    const s = seen.get(k);
    if (s) s.count++;
    else seen.set(k, { ...f, count: 1 });
  }
  return [...seen.values()].map((f) =>
    `${f.route} -> ${f.status} x${f.count}\n  e.g. ${f.url} body ${f.body}\n  answered ${f.answer}`
  ).join("\n");
}

/**
 * One area's fuzz test: the fuzz data, every write route of the area, FUZZ_REQUESTS hostile requests each
 * from a seeded generator (FUZZ_SEED replays a run), and no 5xx. `minRoutes` guards against an area
 * that quietly matches nothing.
 */
export function fuzzArea(area: keyof typeof AREAS, minRoutes: number): () => Promise<void> {
  return () =>
    withFuzzEnv(async (env) => {
      const seed = fuzzSeed();
      const data = await seedFuzzData(env);
      const routes = fuzzedRoutes(env, area);
      assert.ok(routes.length >= minRoutes, `expected the ${area} write routes, got ${routes.length}`);
      const started = performance.now();
      const { failures, requests } = await fuzzRoutes(env, routes, fuzzSamples(data), mulberry32(seed));
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      console.log(`fuzz ${area}: ${routes.length} routes, ${requests} requests, ${seconds} s, seed ${seed}`);
      assert.equal(requests, routes.length * fuzzRequests());
      assert.equal(failures.length, 0, `5xx answers (replay with FUZZ_SEED=${seed}):\n${describe(failures)}`);
    });
}
