/**
 * How each kind of event-loop turn lets the runtime answer a request while other work runs in slices (decision
 * 043, round 3). `--busy N` loops each work `--slice MS` and then await a turn of the kind measured; meanwhile
 * `curl` asks this process's HTTP server 200 times, one after another. Prints, per kind, the answers' p50, p99
 * and max (ms) and the slices worked per second; an answer not had in 2 s counts as 2,000 ms (`curl -m 2`).
 *
 *   deno run -A scripts/reliability/turn_kinds.ts [--busy 8] [--slice 2] [--probes 200]
 *
 * Kinds: `timer` (a `setTimeout(0)` per waiter: every waiter resumes in one batch of timers), `one-per-timer`
 * (one waiter per timer turn), `message` (a chain of message turns, one waiter each), `immediate` (a chain of
 * `setImmediate`), `batched N ms` (lib/event_loop.ts: a timer turn, then waiters one at a time by message
 * turns for N ms; `yieldToEventLoop` is one of them).
 */
import { parseArgs } from "node:util";
import { setImmediate } from "node:timers";
import { MessageChannel } from "node:worker_threads";
import { batchedTurns } from "../../lib/event_loop.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    busy: { type: "string", default: "8" },
    slice: { type: "string", default: "2" },
    probes: { type: "string", default: "200" },
  },
});
const BUSY = Number(values.busy);
const SLICE = Number(values.slice);
const PROBES = Number(values.probes);

/** A FIFO of waiters resumed one per turn of `schedule`. */
function oneAtATime(schedule: (fn: () => void) => void): () => Promise<void> {
  const waiting: (() => void)[] = [];
  let armed = false;
  const tick = () => {
    waiting.shift()?.();
    if (waiting.length) schedule(tick);
    else armed = false;
  };
  return () =>
    new Promise<void>((resolve) => {
      waiting.push(resolve);
      if (!armed) {
        armed = true;
        schedule(tick);
      }
    });
}

const channel = new MessageChannel();
const onMessage: (() => void)[] = [];
channel.port1.on("message", () => onMessage.shift()?.());
const messageTurn = (fn: () => void) => {
  onMessage.push(fn);
  channel.port2.postMessage(0);
};

const kinds: Record<string, () => Promise<void>> = {
  "timer": () => new Promise<void>((resolve) => setTimeout(resolve, 0)),
  "one-per-timer": oneAtATime((fn) => setTimeout(fn, 0)),
  "message": oneAtATime(messageTurn),
  "immediate": oneAtATime((fn) => setImmediate(fn)),
  "batched 4 ms": batchedTurns(4),
  "batched 8 ms": batchedTurns(8),
  "batched 16 ms": batchedTurns(16),
};

const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, () => new Response("ok"));
const url = `http://127.0.0.1:${server.addr.port}/`;

for (const [kind, turn] of Object.entries(kinds)) {
  let running = true;
  let slices = 0;
  const loops = Array.from({ length: BUSY }, async () => {
    while (running) {
      const t = performance.now();
      while (performance.now() - t < SLICE) { /* a slice of synchronous work */ }
      slices++;
      await turn();
    }
  });
  const started = performance.now();
  const out = await new Deno.Command("bash", {
    args: [
      "-c",
      `for i in $(seq ${PROBES}); do curl -s -m 2 -o /dev/null -w '%{time_total}\\n' ${url}; done`,
    ],
    stdout: "piped",
  }).output();
  const seconds = (performance.now() - started) / 1000;
  running = false;
  await Promise.all(loops);
  const ms = new TextDecoder().decode(out.stdout).trim().split("\n").map((l) => Number(l) * 1000).sort((
    a,
    b,
  ) => a - b);
  const q = (p: number) => ms[Math.floor(p * (ms.length - 1))].toFixed(1);
  console.log(
    `${kind.padEnd(15)} busy ${BUSY} x ${SLICE} ms: answer p50 ${q(0.5)} p99 ${q(0.99)} max ${q(1)} ms, ` +
      `${(slices / seconds).toFixed(0)} slices/s`,
  );
}
await server.shutdown();
channel.port1.close();
