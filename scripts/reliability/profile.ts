/**
 * CPU profile of a running server, through its inspector (Chrome DevTools protocol): where the one
 * JavaScript thread spends its time under a load script. Start the load with the server's inspector on:
 *
 *   RELIABILITY_DENO_ARGS=--inspect=127.0.0.1:9229 node_modules/.bin/deno run -A scripts/reliability/soak.ts --minutes 2
 *   node_modules/.bin/deno run -A scripts/reliability/profile.ts [--seconds 60] [--port 9229] [--out /tmp/server.cpuprofile]
 *
 * Prints the top functions by self time and the top source files by self time; the .cpuprofile opens in
 * Chrome DevTools (Performance panel) for the whole tree. Percentages are of the samples, so they hold on a
 * busy machine too.
 */
import { numberFlag, parseFlags } from "./lib.ts";

const flags = parseFlags(Deno.args);
const SECONDS = numberFlag(flags, "seconds", 60);
const PORT = numberFlag(flags, "port", 9229);
const OUT = flags.get("out") ?? "/tmp/server.cpuprofile";

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

const targets = await (await fetch(`http://127.0.0.1:${PORT}/json/list`)).json();
const ws = new WebSocket(targets[0].webSocketDebuggerUrl);
await new Promise((r, j) => {
  ws.onopen = r;
  ws.onerror = j;
});
let next = 1;
const waiting = new Map<number, (v: any) => void>();
ws.onmessage = (e) => {
  const m = JSON.parse(e.data);
  if (m.id && waiting.has(m.id)) waiting.get(m.id)!(m.result);
};
const send = (method: string, params: Record<string, unknown> = {}) =>
  new Promise<any>((r) => {
    const id = next++;
    waiting.set(id, r);
    ws.send(JSON.stringify({ id, method, params }));
  });

await send("Profiler.enable");
await send("Profiler.setSamplingInterval", { interval: 500 });
await send("Profiler.start");
console.error(`profiling for ${SECONDS} s`);
await new Promise((r) => setTimeout(r, SECONDS * 1000));
const { profile } = await send("Profiler.stop") as { profile: Profile };
ws.close();
Deno.writeTextFileSync(OUT, JSON.stringify(profile));

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map<number, number>();
for (const s of profile.samples) self.set(s, (self.get(s) ?? 0) + 1);
const total = profile.samples.length;
const fnSelf = new Map<string, number>();
const fileSelf = new Map<string, number>();
const short = (url: string) =>
  url.replace(/^file:\/\/\/work\/main\//, "").replace(/.*node_modules\/\.deno\/([^/]+)\/.*/, "npm:$1") ||
  "(native)";
for (const [id, n] of self) {
  const f = byId.get(id)!.callFrame;
  const key = `${f.functionName || "(anonymous)"} ${short(f.url)}:${f.lineNumber + 1}`;
  fnSelf.set(key, (fnSelf.get(key) ?? 0) + n);
  const file = short(f.url);
  fileSelf.set(file, (fileSelf.get(file) ?? 0) + n);
}
const top = (m: Map<string, number>, k: number) =>
  [...m].sort((a, b) => b[1] - a[1]).slice(0, k).map(([name, n]) =>
    `${(n / total * 100).toFixed(1).padStart(5)}%  ${name}`
  ).join("\n");
console.log(`${total} samples; written to ${OUT}\n\nself time by function:\n${top(fnSelf, 40)}`);
console.log(`\nself time by file or package:\n${top(fileSelf, 30)}`);
