import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { ROOT, SERVER_V8_FLAGS } from "./testing/server_process.ts";

Deno.test("server flags - npm start, the serve task, the Docker image and the measuring scripts run the server with the same V8 flags", () => {
  const tasks = JSON.parse(readFileSync(ROOT + "deno.json", "utf8")).tasks as Record<string, string>;
  for (const name of ["start", "serve"]) {
    assert.ok(tasks[name].includes(`deno run ${SERVER_V8_FLAGS} -A api/main.ts`), `deno task ${name}`);
  }
  const cmd = readFileSync(ROOT + "Dockerfile", "utf8").split("\n").find((l) => l.startsWith("CMD "))!;
  assert.deepEqual(JSON.parse(cmd.slice(4)), [
    "node_modules/.bin/deno",
    "run",
    SERVER_V8_FLAGS,
    "-A",
    "api/main.ts",
  ]);
});
