import assert from "node:assert/strict";
import { parseConfig } from "./config.ts";

Deno.test("config - defaults for an empty environment", () => {
  const c = parseConfig({});
  assert.equal(c.PORT, 8000);
  assert.equal(c.DATA_DIR, "./data");
  assert.equal(c.SCRYPT_N, 131072);
  assert.equal(c.DEMO_TENANT, true);
});

Deno.test("config - a bad value fails with one line naming the variable", () => {
  assert.throws(() => parseConfig({ PORT: "eighty" }), /^Error: Bad configuration: PORT: /);
  assert.throws(
    () => parseConfig({ SESSION_SECRET: "short" }),
    /SESSION_SECRET must be at least 32 characters/,
  );
  assert.throws(() => parseConfig({ DEMO_TENANT: "yes" }), /DEMO_TENANT/);
});
