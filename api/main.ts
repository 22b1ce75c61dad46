import { parseConfig } from "./config.ts";
import { closeServices, createApp, createServices } from "./app.ts";
import { ensureDemoTenant } from "../scripts/demo.ts";

let config;
try {
  config = parseConfig(Deno.env.toObject());
} catch (e) {
  console.error((e as Error).message);
  Deno.exit(1);
}

const services = await createServices(config);
await ensureDemoTenant(services);
const app = createApp(services);
const server = Deno.serve({
  port: config.PORT,
  hostname: config.HOST,
  onListen: ({ port }) => console.log(`Listening on http://localhost:${port}`),
}, app.fetch);

for (const sig of ["SIGINT", "SIGTERM"] as const) {
  Deno.addSignalListener(sig, async () => {
    await server.shutdown();
    await closeServices(services);
    Deno.exit(0);
  });
}
