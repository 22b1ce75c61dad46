import type { Hono } from "hono";

export interface RouteEntry {
  method: string;
  path: string;
}

/**
 * The app's own route table (Hono's `app.routes`), one entry per method and path, without middleware
 * (`ALL`) entries: what the isolation matrix and the fuzzer walk, so a new route is covered the day it
 * lands.
 */
// deno-lint-ignore no-explicit-any
export function routeTable(app: Hono<any>, prefix = "/api/"): RouteEntry[] {
  const seen = new Set<string>();
  const out: RouteEntry[] = [];
  for (const r of app.routes) {
    if (r.method === "ALL" || !r.path.startsWith(prefix)) continue;
    const key = `${r.method} ${r.path}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ method: r.method, path: r.path });
  }
  return out;
}

/** Write routes: everything but GET, HEAD and OPTIONS. */
// deno-lint-ignore no-explicit-any
export const writeRoutes = (app: Hono<any>) => routeTable(app).filter((r) => r.method !== "GET");
