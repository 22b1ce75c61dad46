import assert from "node:assert/strict";
import { FairQueue, Semaphore } from "./semaphore.ts";

/** A task that runs until its test ends it. */
function held() {
  let end = () => {};
  const done = new Promise<void>((resolve) => end = resolve);
  return { done, end };
}

const busy = () => new Error("busy");

Deno.test("fair queue - a flooded lane keeps a turn free for another lane and is refused beyond its queue", async () => {
  const q = new FairQueue(2, 1, 2);
  const started: string[] = [];
  const tasks = Array.from({ length: 3 }, () => held());
  const runs = tasks.map((t, i) =>
    q.run("a", () => {
      started.push(`a${i}`);
      return t.done;
    }, busy)
  );
  await assert.rejects(q.run("a", () => Promise.resolve(), busy), /busy/, "a's queue holds 2");
  assert.deepEqual(started, ["a0"], "a runs one at a time");
  const b = held();
  const bRun = q.run("b", () => {
    started.push("b0");
    return b.done;
  }, busy);
  assert.deepEqual(started, ["a0", "b0"], "b starts at once, beside a's running task");
  assert.deepEqual(q.load, { active: 2, waiting: 2, lanes: 2 });
  tasks[0].end();
  b.end();
  tasks[1].end();
  tasks[2].end();
  await Promise.all([...runs, bRun]);
  assert.deepEqual(started, ["a0", "b0", "a1", "a2"]);
  assert.deepEqual(q.load, { active: 0, waiting: 0, lanes: 0 });
});

Deno.test("fair queue - a freed turn goes to the lanes in rotation, not to the lane that held it", async () => {
  const q = new FairQueue(1, 1, 4);
  const order: string[] = [];
  const first = held();
  const running = q.run("a", () => first.done, busy);
  const queued = [
    q.run("a", () => Promise.resolve(order.push("a1")), busy),
    q.run("a", () => Promise.resolve(order.push("a2")), busy),
    q.run("b", () => Promise.resolve(order.push("b1")), busy),
    q.run("c", () => Promise.resolve(order.push("c1")), busy),
  ];
  first.end();
  await Promise.all([running, ...queued]);
  assert.deepEqual(order, ["b1", "c1", "a1", "a2"], "b and c came while a ran: they go before a's backlog");
});

Deno.test("fair queue - a task's failure frees its turn; a lane may be given a deeper queue", async () => {
  const q = new FairQueue(1, 1, 0);
  await assert.rejects(q.run("a", () => Promise.reject(new Error("boom")), busy), /boom/);
  const first = held();
  const running = q.run("a", () => first.done, busy);
  await assert.rejects(q.run("a", () => Promise.resolve(), busy), /busy/);
  const deeper = q.run("a", () => Promise.resolve("ran"), busy, 1);
  first.end();
  assert.equal(await deeper, "ran");
  await running;
});

Deno.test("semaphore - at most max run, maxWaiting wait, the rest are refused", async () => {
  const s = new Semaphore(1, 1);
  const first = held();
  const running = s.run(() => first.done, busy);
  const waiting = s.run(() => Promise.resolve("second"), busy);
  await assert.rejects(s.run(() => Promise.resolve(), busy), /busy/);
  first.end();
  assert.equal(await waiting, "second");
  await running;
  assert.deepEqual(s.load, { active: 0, waiting: 0 });
});
