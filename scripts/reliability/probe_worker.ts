/**
 * The soak's /healthz probe on a thread of its own (a Worker): what it measures is the server's answer, not
 * the load generator's event loop, which parses hundreds of answers a second and collects their garbage.
 * Started with `{ url, everyMs }`; on "stop" it posts every probe's `{ ms, status }` and exits.
 */
import { healthz } from "./lib.ts";

type Start = { url: string; everyMs: number };
const self = globalThis as unknown as {
  onmessage: ((e: MessageEvent<Start | "measure" | "stop">) => void) | null;
  postMessage(m: unknown): void;
  close(): void;
};

let measuring = false;
let stop = false;
const probes: { ms: number; status: number }[] = [];

self.onmessage = (e) => {
  if (e.data === "measure") measuring = true;
  else if (e.data === "stop") stop = true;
  else void run(e.data);
};

async function run({ url, everyMs }: Start) {
  while (!stop) {
    const next = performance.now() + everyMs;
    const h = await healthz(url, 5000);
    if (measuring) probes.push(h);
    await new Promise((r) => setTimeout(r, Math.max(0, next - performance.now())));
  }
  self.postMessage(probes);
  self.close();
}
