import assert from "node:assert/strict";
import { parseConfig, sqldRouteOf } from "./config.ts";

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

Deno.test("config - the libSQL server and the remote catalog are checked, and a token is never echoed", () => {
  const c = parseConfig({
    SQLD_ADMIN_URL: "http://127.0.0.1:9090",
    SQLD_URL: "http://localhost:8080",
    CATALOG_URL: "http://catalog.localhost:8080",
    CATALOG_TOKEN: "a-catalog-token",
  });
  assert.equal(c.SQLD_URL, "http://localhost:8080");
  assert.equal(c.CATALOG_TOKEN, "a-catalog-token");
  assert.throws(
    () => parseConfig({ SQLD_ADMIN_URL: "http://127.0.0.1:9090" }),
    /SQLD_URL: SQLD_ADMIN_URL and SQLD_URL go together/,
  );
  assert.throws(
    () => parseConfig({ SQLD_ADMIN_URL: "http://127.0.0.1:9090", SQLD_URL: "http://127.0.0.1:8080" }),
    /SQLD_URL: SQLD_URL must name a host, not an address/,
  );
  assert.throws(() => parseConfig({ CATALOG_TOKEN: "top-secret-token" }), /CATALOG_TOKEN needs CATALOG_URL/);
  assert.throws(
    () => parseConfig({ CATALOG_URL: "catalog.example", CATALOG_TOKEN: "top-secret-token" }),
    (e: Error) => /^Bad configuration: CATALOG_URL: /.test(e.message) && !e.message.includes("top-secret"),
  );
});

Deno.test("config - SQLD_ADDRESS sends SQLD_URL's names to one host:port, and needs SQLD_URL", () => {
  const both = { SQLD_ADMIN_URL: "http://sqld:9090", SQLD_URL: "http://db.internal:8080" };
  assert.deepEqual(sqldRouteOf(parseConfig({ ...both, SQLD_ADDRESS: "sqld:8080" })), {
    name: "db.internal",
    host: "sqld",
    port: 8080,
  });
  assert.equal(sqldRouteOf(parseConfig(both)), undefined);
  assert.throws(
    () => parseConfig({ SQLD_ADDRESS: "sqld:8080" }),
    /SQLD_ADDRESS: SQLD_ADDRESS needs SQLD_URL/,
  );
  assert.throws(
    () => parseConfig({ ...both, SQLD_ADDRESS: "http://sqld" }),
    /SQLD_ADDRESS must be host:port/,
  );
});
