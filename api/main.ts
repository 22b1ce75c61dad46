import { parseConfig } from "./config.ts";
import { closeServices, createApp, createServices } from "./app.ts";
import { ensureDemoTenant } from "../scripts/demo.ts";
import { watchStalls } from "./lib/stall_watch.ts";
import { startMallocTrim } from "./lib/malloc_trim.ts";
import { collectAfterClosing } from "./lib/heap_collect.ts";
import { KEEP_ALIVE_LIMITS, KeepAliveBound } from "./lib/keep_alive.ts";

let config;
try {
  config = parseConfig(Deno.env.toObject());
} catch (e) {
  console.error((e as Error).message);
  Deno.exit(1);
}

const services = await createServices(config);
services.tenants.setIdleLimits({ bytes: config.TENANT_CACHE_MB * 2 ** 20 });
services.tenants.onIdleClosed = collectAfterClosing();
await ensureDemoTenant(services);
const app = createApp(services);
watchStalls(services.inflight, config.STALL_LOG_MS);
services.trim = startMallocTrim(config.MALLOC_TRIM_SECONDS).stats;
const server = Deno.serve({
  port: config.PORT,
  hostname: config.HOST,
  onListen: ({ port }) => console.log(`Listening on http://localhost:${port}`),
  // At most 128 connections kept open between requests (decision 060): Deno keeps each one a client leaves open.
  // A trusted proxy's are its pool: not counted.
}, new KeepAliveBound(KEEP_ALIVE_LIMITS, undefined, config.TRUST_PROXY).wrap(app.fetch));

/**
 * Graceful shutdown: /readyz turns 503 at once, and after DRAIN_SECONDS the server stops accepting and
 * finishes the requests in flight (`shutdown` waits for them), then closes every database. A second signal
 * exits at once.
 */
let stopping = false;
for (const sig of ["SIGINT", "SIGTERM"] as const) {
  Deno.addSignalListener(sig, async () => {
    if (stopping) Deno.exit(1);
    stopping = true;
    services.draining = true;
    if (config.DRAIN_SECONDS > 0) await new Promise((r) => setTimeout(r, config.DRAIN_SECONDS * 1000));
    await server.shutdown();
    await closeServices(services);
    Deno.exit(0);
  });
}
