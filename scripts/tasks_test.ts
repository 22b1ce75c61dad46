import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

// Inside `deno task`, a bare `deno` resolves to node_modules/.bin/deno and is run as a script, which
// fails on the binary: tasks must name ./node_modules/.bin/deno. npm scripts run `deno` from PATH.
Deno.test("tasks - every deno task that runs deno names the project's binary by path", () => {
  const tasks: Record<string, string> = JSON.parse(readFileSync("deno.json", "utf8")).tasks;
  for (const [name, cmd] of Object.entries(tasks)) {
    for (const m of cmd.matchAll(/(^|&&|\|\||;)\s*([^\s]*deno)\s/g)) {
      assert.equal(m[2], "./node_modules/.bin/deno", `task ${name}: ${cmd}`);
    }
  }
});

Deno.test("tasks - every npm script names a deno task that exists", () => {
  const tasks = JSON.parse(readFileSync("deno.json", "utf8")).tasks;
  const scripts: Record<string, string> = JSON.parse(readFileSync("package.json", "utf8")).scripts;
  for (const [name, cmd] of Object.entries(scripts)) {
    const m = /^deno task (\S+)/.exec(cmd);
    if (m) assert.ok(tasks[m[1]], `npm script ${name} runs missing deno task ${m[1]}`);
  }
});
